import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { renderHtml } from './html';
import { SimulationHost } from './host';
import { createNonce } from './nonce';
import { Methods } from '../../../server/src/protocol';
import { validateFindingLocation, type FindingRef } from '../../../server/src/simulate/messages';

/** Opens the manifest at the finding and offers its fixes; a resource only the cluster has is said so. */
async function showFinding(client: LanguageClient, finding: FindingRef): Promise<void> {
  const locate = async () => {
    const checked = validateFindingLocation(await client.sendRequest(Methods.locateFinding, finding));
    if (!checked.ok) throw new Error(`the language server answered an unreadable location (${checked.error})`);
    return checked.value;
  };
  const where = await locate();
  if (!where) {
    void vscode.window.showInformationMessage(`${finding.kind} ${finding.namespace}/${finding.name} is not in this workspace: it comes from the cluster, so there is no manifest to fix here.`);
    return;
  }
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(where.uri), { viewColumn: vscode.ViewColumn.One, preview: false });
  // Once the document is open the server has its findings: ask again for the finding's own range.
  const range = (await locate())?.range ?? where.range;
  const selection = new vscode.Selection(range.start.line, range.start.character, range.end.line, range.end.character);
  editor.selection = selection;
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenter);
  await vscode.commands.executeCommand('editor.action.quickFix');
}

export const SIMULATION_VIEW_TYPE = 'kubeResilience.simulation';
const TITLE = 'What if the control plane dies?';

/** The one simulation panel: its webview, its host and its life in the editor. */
export class SimulationPanel {
  private static current: SimulationPanel | undefined;
  private readonly host: SimulationHost;

  /** Shows the panel (creating it when needed), optionally bringing one workload forward. */
  static show(context: vscode.ExtensionContext, client: LanguageClient, output: vscode.LogOutputChannel, focus?: { namespace: string; name: string; drain?: boolean }): void {
    let current = SimulationPanel.current;
    if (current) current.panel.reveal();
    else {
      const panel = vscode.window.createWebviewPanel(SIMULATION_VIEW_TYPE, TITLE, vscode.ViewColumn.Beside, SimulationPanel.options(context));
      current = SimulationPanel.current = new SimulationPanel(panel, context, client, output);
    }
    if (focus?.drain) current.host.drainNodeOf(focus.namespace, focus.name);
    else if (focus) current.host.focus(focus.namespace, focus.name);
  }

  /**
   * A panel VS Code restored after a reload: the page restores its own state with getState(). VS Code restores a
   * panel only once its tab is shown: one opened since (the command, in the meantime) is the one in use, and stays;
   * the restored one goes (closing the panel in use lost its scenario).
   */
  static revive(panel: vscode.WebviewPanel, context: vscode.ExtensionContext, client: LanguageClient, output: vscode.LogOutputChannel): void {
    const current = SimulationPanel.current;
    if (current) {
      panel.dispose();
      current.panel.reveal();
      return;
    }
    panel.webview.options = SimulationPanel.options(context);
    SimulationPanel.current = new SimulationPanel(panel, context, client, output);
  }

  /** The cluster the server reads changed: an open page follows it (until its scenario changed, see the host). */
  static clusterChanged(): void {
    if (SimulationPanel.current) void SimulationPanel.current.host.clusterChanged();
  }

  private static options(context: vscode.ExtensionContext): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist'), vscode.Uri.joinPath(context.extensionUri, 'media')] };
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    context: vscode.ExtensionContext,
    client: LanguageClient,
    output: vscode.LogOutputChannel,
  ) {
    const webview = panel.webview;
    this.host = new SimulationHost({
      request: (method, params, cancelled) => requestUnlessCancelled(client, method, params, cancelled),
      post: (message) => void webview.postMessage(message),
      log: (message) => output.warn(message),
      openReport: async (markdown) => {
        const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
        await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Active, preview: false });
      },
      openFinding: (finding) => showFinding(client, finding),
    });
    panel.iconPath = { light: vscode.Uri.joinPath(context.extensionUri, 'media', 'simulation-light.svg'), dark: vscode.Uri.joinPath(context.extensionUri, 'media', 'simulation-dark.svg') };
    webview.html = renderHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'media', 'webview.css')).toString(),
      cspSource: webview.cspSource,
      nonce: createNonce(),
    });
    const subscriptions = [
      webview.onDidReceiveMessage((message: unknown) => void this.host.receive(message)),
      // A hidden page is torn down (no retainContextWhenHidden): messages wait until it says ready again.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.host.reset();
      }),
      panel.onDidDispose(() => {
        this.host.dispose();
        if (SimulationPanel.current === this) SimulationPanel.current = undefined;
        for (const s of subscriptions) s.dispose();
      }),
    ];
  }
}

/** A request to the language server that `cancelled` cancels (the server then stops its work and answers it as cancelled). */
async function requestUnlessCancelled(client: LanguageClient, method: string, params: unknown, cancelled?: AbortSignal): Promise<unknown> {
  if (!cancelled) return client.sendRequest(method, params);
  const cancellation = new vscode.CancellationTokenSource();
  const cancel = () => cancellation.cancel();
  cancelled.addEventListener('abort', cancel);
  try {
    return await client.sendRequest(method, params, cancellation.token);
  } finally {
    cancelled.removeEventListener('abort', cancel);
    cancellation.dispose();
  }
}
