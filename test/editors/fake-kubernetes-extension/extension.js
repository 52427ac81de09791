// Stands in for the Kubernetes extension: its API broker answers configuration v1_1 like the real one.
const vscode = require('vscode');

exports.activate = function activate(context) {
  const kubeconfigPathChanged = new vscode.EventEmitter();
  const contextChanged = new vscode.EventEmitter();
  let current = 'ctx-a';
  context.subscriptions.push(
    vscode.commands.registerCommand('fakeKubernetes.useContextB', () => {
      current = 'ctx-b';
      contextChanged.fire(current);
    }),
  );
  const api = {
    getKubeconfigPath: () => ({ pathType: 'host', hostPath: process.env.FAKE_KUBERNETES_KUBECONFIG }),
    getKubeContext: async () => current,
    onDidChangeKubeconfigPath: kubeconfigPathChanged.event,
    onDidChangeContext: contextChanged.event,
  };
  return {
    get: async (component, version) =>
      component === 'configuration' && version === 'v1_1' ? { available: true, api } : { available: false, reason: 'version-not-available' },
  };
};
