import * as os from 'node:os';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { kubernetesExtension } from './cluster/kubernetes-extension';
import { resolveClusterSettings, type ClusterSettings } from './cluster/resolve';

/** Every kubeResilience.* setting, read in this one place and pushed to the server. */
export interface ClientSettings extends ClusterSettings {
  enable: boolean;
  run: 'onType' | 'onSave';
  rules: Record<string, string>;
  render: boolean;
  helm: { path: string; releaseName: string; valuesFiles: Record<string, string[]> };
  kustomize: { path: string; enablePlugins: boolean };
}

export function readSettings(): ClientSettings {
  const config = vscode.workspace.getConfiguration('kubeResilience');
  return {
    enable: config.get<boolean>('enable', true),
    run: config.get<'onType' | 'onSave'>('run', 'onType'),
    rules: config.get<Record<string, string>>('rules', {}),
    render: config.get<boolean>('render', true),
    helm: { path: config.get<string>('helm.path', ''), releaseName: config.get<string>('helm.releaseName', 'release'), valuesFiles: config.get<Record<string, string[]>>('helm.valuesFiles', {}) },
    kustomize: { path: config.get<string>('kustomize.path', ''), enablePlugins: config.get<boolean>('kustomize.enablePlugins', false) },
    ...resolveClusterSettings(
      {
        kubeconfig: config.inspect<string>('kubeconfig'),
        context: config.inspect<string>('context'),
        extraPath: config.inspect<string[]>('extraPath'),
        cluster: config.inspect<string>('cluster'),
      },
      vscode.workspace.isTrusted,
      kubernetesExtension.view,
      { home: os.homedir(), workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
    ),
  };
}

/** What Select Context writes: a kubeconfig context, or the embedded demo cluster. */
export type ClusterChoice = { context: string } | { demo: true };

/** Writes the choice where it takes effect: the workspace when it already sets the value, else the user settings. */
export async function writeClusterChoice(choice: ClusterChoice): Promise<void> {
  const config = vscode.workspace.getConfiguration('kubeResilience');
  const target = (key: string) =>
    vscode.workspace.isTrusted && config.inspect(key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  if ('demo' in choice) {
    await config.update('cluster', 'demo', target('cluster'));
    return;
  }
  await config.update('context', choice.context, target('context'));
  // The mode in effect, as the server is given it: untrusted, a workspace `auto` is not (a global `demo` stayed).
  if (readSettings().cluster !== 'auto') await config.update('cluster', 'auto', target('cluster'));
}

/** Sends the current settings to the server (after a change of settings, trust, or the Kubernetes extension's context). */
export function pushSettings(client: Pick<LanguageClient, 'sendNotification'>): void {
  // A server that stopped refuses it (an unhandled rejection): its next start reads the settings anew.
  client.sendNotification('workspace/didChangeConfiguration', { settings: { kubeResilience: readSettings() } }).catch(() => undefined);
}
