import * as vscode from 'vscode';
import { Methods, type ClusterFinding, type LiveObjectParams } from '../../../server/src/protocol';
import type { LanguageClient } from 'vscode-languageclient/node';

export const LIVE_OBJECT_SCHEME = 'kube-resilience-live';

/** `kube-resilience-live:/Deployment/shop/web.yaml`: a live object, read-only, as the cluster answered it. */
export function liveObjectUri(resource: LiveObjectParams): vscode.Uri {
  const parts = [resource.kind, resource.namespace || '_', `${resource.name}.yaml`].map(encodeURIComponent);
  return vscode.Uri.from({ scheme: LIVE_OBJECT_SCHEME, path: `/${parts.join('/')}` });
}

function paramsOf(uri: vscode.Uri): LiveObjectParams {
  const [kind, namespace, file] = uri.path.split('/').filter(Boolean).map(decodeURIComponent);
  return { kind, namespace: namespace === '_' ? '' : namespace, name: file.replace(/\.yaml$/, '') };
}

/**
 * Serves live objects to read-only editors (a content provider's documents cannot be saved). Each new view of the
 * cluster (a refresh, another context) tells them again: an open one kept the object as the first read answered it.
 */
export function liveObjectProvider(client: LanguageClient, clusterTold: vscode.Event<void>): vscode.TextDocumentContentProvider & vscode.Disposable {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const told = clusterTold(() => {
    for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === LIVE_OBJECT_SCHEME) changed.fire(document.uri);
  });
  return {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const params = paramsOf(uri);
      const text = await client.sendRequest<string | null>(Methods.liveObject, params);
      return text ?? `# ${params.kind} ${params.namespace ? `${params.namespace}/` : ''}${params.name} is not in the cluster view any more.\n`;
    },
    dispose() {
      told.dispose();
      changed.dispose();
    },
  };
}

/** A click on a cluster finding: the manifest that defines the resource, else the live object. */
export async function revealClusterFinding(finding: ClusterFinding | undefined): Promise<void> {
  // A command another extension may run too: with no finding there is nothing to reveal.
  if (finding?.location) {
    const { start, end } = finding.location.range;
    const selection = new vscode.Range(start.line, start.character, end.line, end.character);
    await vscode.window.showTextDocument(vscode.Uri.parse(finding.location.uri), { selection, preview: true });
    return;
  }
  const resource = finding?.resource;
  if (!resource?.name) return;
  const document = await vscode.workspace.openTextDocument(liveObjectUri({ kind: resource.kind, namespace: resource.namespace, name: resource.name }));
  await vscode.languages.setTextDocumentLanguage(document, 'yaml');
  await vscode.window.showTextDocument(document, { preview: true });
}
