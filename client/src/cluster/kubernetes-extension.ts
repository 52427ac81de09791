import * as vscode from 'vscode';
import type { KubernetesExtensionView } from './resolve';

export const KUBERNETES_EXTENSION_ID = 'ms-kubernetes-tools.vscode-kubernetes-tools';

type KubeconfigPath = { pathType: 'host'; hostPath: string } | { pathType: 'wsl'; wslPath: string };

/** The part of the Kubernetes extension's published configuration API (v1 / v1_1) used here. */
interface ConfigurationApi {
  getKubeconfigPath(): KubeconfigPath;
  getKubeContext?(): Promise<string | null | undefined> | string | null | undefined;
  onDidChangeKubeconfigPath?: vscode.Event<KubeconfigPath>;
  onDidKubeconfigPathChange?: vscode.Event<KubeconfigPath>;
  onDidChangeContext?: vscode.Event<string | null>;
  onDidActiveContextChanged?: vscode.Event<string | null>;
}

interface ApiBroker {
  get(component: string, version: string): Promise<{ available: boolean; api?: unknown }> | { available: boolean; api?: unknown };
}

function hostPath(path: KubeconfigPath | undefined): string | undefined {
  return path?.pathType === 'host' ? path.hostPath : undefined;
}

async function configurationApi(): Promise<ConfigurationApi | undefined> {
  const extension = vscode.extensions.getExtension<ApiBroker>(KUBERNETES_EXTENSION_ID);
  if (!extension) return undefined;
  const broker = extension.isActive ? extension.exports : await extension.activate();
  for (const version of ['v1_1', 'v1']) {
    const answer = await broker?.get?.('configuration', version);
    if (answer?.available && answer.api) return answer.api as ConfigurationApi;
  }
  return undefined;
}

/**
 * Follows the kubeconfig path and context the Kubernetes extension uses, when it is installed.
 * `view` is empty until (and unless) the extension answers.
 */
export class KubernetesExtension implements vscode.Disposable {
  view: KubernetesExtensionView = {};
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];

  async connect(log: (message: string) => void): Promise<void> {
    let api: ConfigurationApi | undefined;
    try {
      api = await configurationApi();
    } catch (error) {
      log(`Kubernetes extension API unavailable: ${(error as Error).message}`);
    }
    if (!api) return;
    const pathChanged = api.onDidChangeKubeconfigPath ?? api.onDidKubeconfigPathChange;
    const contextChanged = api.onDidChangeContext ?? api.onDidActiveContextChanged;
    if (pathChanged) this.subscriptions.push(pathChanged((path) => this.update({ ...this.view, kubeconfigPath: hostPath(path) })));
    if (contextChanged) this.subscriptions.push(contextChanged((context) => this.update({ ...this.view, context: context ?? undefined })));
    try {
      const context = (await api.getKubeContext?.()) ?? undefined;
      this.update({ kubeconfigPath: hostPath(api.getKubeconfigPath()), context });
    } catch (error) {
      // Its answer failed (an unhandled rejection before): the settings' kubeconfig and context stand.
      log(`Kubernetes extension could not say its kubeconfig or context: ${(error as Error).message}`);
      return;
    }
    log(`Following the Kubernetes extension: kubeconfig ${this.view.kubeconfigPath ?? '(default)'}, context ${this.view.context ?? '(current)'}`);
  }

  private update(next: KubernetesExtensionView): void {
    if (next.kubeconfigPath === this.view.kubeconfigPath && next.context === this.view.context) return;
    this.view = next;
    this.changed.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The one follower of the Kubernetes extension, read by the settings. */
export const kubernetesExtension = new KubernetesExtension();
