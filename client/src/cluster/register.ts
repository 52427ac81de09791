import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { Methods, type ClusterFindingsResult, type ClusterStatus } from '../../../server/src/protocol';
import { clusterSettingsKey } from '../../../server/src/settings';
import { pushSettings, readSettings } from '../settings';
import { ClusterFindingsView, REVEAL_CLUSTER_FINDING } from './findings-view';
import { LIVE_OBJECT_SCHEME, liveObjectProvider, revealClusterFinding } from './live-object';
import { kubernetesExtension } from './kubernetes-extension';
import { selectContext } from './select-context';
import { statusView } from './status-text';

export const Commands = {
  selectContext: 'kubeResilience.selectContext',
  refreshCluster: 'kubeResilience.refreshCluster',
} as const;

export const CLUSTER_FINDINGS_VIEW = 'kubeResilience.clusterFindings';

/**
 * The client's cluster face: status bar, Select Context, Refresh Cluster, the Cluster Findings view, trust and the
 * Kubernetes extension. Returns what fires each time the server tells its cluster.
 */
export function registerClusterFace(context: vscode.ExtensionContext, client: LanguageClient, output: vscode.LogOutputChannel): vscode.Event<void> {
  let status: ClusterStatus | undefined;
  let serverStopped = false;
  const clusterTold = new vscode.EventEmitter<void>();
  const item = vscode.window.createStatusBarItem('kubeResilience.cluster', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Kube Resilience Cluster';
  item.command = Commands.selectContext;
  const showStatus = () => {
    const view = statusView(status, readSettings().cluster, serverStopped);
    item.text = view.text;
    item.tooltip = new vscode.MarkdownString(view.tooltip);
    item.accessibilityInformation = { label: view.label, role: 'button' };
    item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  showStatus();

  const findings = new ClusterFindingsView(
    () => client.sendRequest<ClusterFindingsResult>(Methods.clusterFindings, {}),
    () => status,
  );
  const receiveStatus = (next: ClusterStatus) => {
    status = next;
    showStatus();
    void findings.refresh();
    clusterTold.fire();
  };
  // The server reads the cluster again only when what decides it changed: then the bar says it is reading (it named
  // the context before, for the minute a read may take), else the old status stays.
  let clusterKey = clusterSettingsKey(readSettings());
  const clusterSettingsChanged = () => {
    const key = clusterSettingsKey(readSettings());
    if (key === clusterKey) return;
    clusterKey = key;
    status = undefined;
    showStatus();
  };
  const settingsChanged = () => {
    pushSettings(client);
    clusterSettingsChanged();
  };
  // A manifest that changes can answer a live workload's finding (billing gains its PDB): ask again once typing pauses.
  let manifestsSettle: ReturnType<typeof setTimeout> | undefined;
  const liveObjects = liveObjectProvider(client, clusterTold.event);
  const manifestsChanged = (document: vscode.TextDocument) => {
    if (!['yaml', 'json'].includes(document.languageId) || document.uri.scheme === LIVE_OBJECT_SCHEME) return;
    clearTimeout(manifestsSettle);
    manifestsSettle = setTimeout(() => void findings.refresh(), 1000);
  };

  context.subscriptions.push(
    item,
    clusterTold,
    // A server that stopped (or never started) tells nothing more: the bar said "reading" for ever, or its last verdict.
    client.onDidChangeState((e) => {
      serverStopped = e.newState === State.Stopped;
      if (e.newState === State.Starting || serverStopped) status = undefined;
      showStatus();
    }),
    findings,
    kubernetesExtension,
    vscode.window.createTreeView(CLUSTER_FINDINGS_VIEW, { treeDataProvider: findings, showCollapseAll: true }),
    liveObjects,
    vscode.workspace.registerTextDocumentContentProvider(LIVE_OBJECT_SCHEME, liveObjects),
    vscode.commands.registerCommand(REVEAL_CLUSTER_FINDING, revealClusterFinding),
    vscode.workspace.onDidChangeTextDocument((e) => manifestsChanged(e.document)),
    vscode.workspace.onDidSaveTextDocument(manifestsChanged),
    vscode.workspace.onDidCloseTextDocument(manifestsChanged),
    { dispose: () => clearTimeout(manifestsSettle) },
    client.onNotification(Methods.clusterStatus, receiveStatus),
    vscode.commands.registerCommand(Commands.selectContext, () => selectContext(client)),
    vscode.commands.registerCommand(Commands.refreshCluster, async () => {
      try {
        // The server tells the status it ends with (clusterStatus) as every read does: answered here too, it was told twice.
        await client.sendRequest<ClusterStatus>(Methods.refreshCluster, {});
      } catch (error) {
        void vscode.window.showErrorMessage(`Kube Resilience: cannot refresh the cluster: ${(error as Error).message}`);
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(settingsChanged),
    kubernetesExtension.onDidChange(settingsChanged),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('kubeResilience')) clusterSettingsChanged();
      if (e.affectsConfiguration('kubeResilience.cluster')) showStatus();
    }),
  );
  // Settings can only be pushed to a running server; the Kubernetes extension's answer may come at any time.
  const whenRunning = client.onDidChangeState((e) => {
    if (e.newState !== State.Running) return;
    whenRunning.dispose();
    void kubernetesExtension.connect((message) => output.info(message));
  });
  context.subscriptions.push(whenRunning);
  return clusterTold.event;
}
