import * as path from 'node:path';

/** One setting as `WorkspaceConfiguration.inspect()` reports it, layer by layer. */
export interface SettingLayers<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export type ClusterMode = 'auto' | 'demo' | 'off';

export interface ClusterSettingLayers {
  kubeconfig?: SettingLayers<string>;
  context?: SettingLayers<string>;
  extraPath?: SettingLayers<string[]>;
  cluster?: SettingLayers<string>;
}

/** What the Kubernetes extension (ms-kubernetes-tools) currently uses, when it is installed. */
export interface KubernetesExtensionView {
  kubeconfigPath?: string;
  context?: string;
}

export interface ClusterPlace {
  home: string;
  /** Relative kubeconfig paths are taken from the first workspace folder, as VS Code users expect. */
  workspaceFolder?: string;
}

/** The cluster part of the settings pushed to the server. */
export interface ClusterSettings {
  cluster: ClusterMode;
  /** A kubeconfig path (or several, joined like KUBECONFIG); absent: the server uses KUBECONFIG, then ~/.kube/config. */
  kubeconfig?: string;
  context?: string;
  extraPath: string[];
  /** False in an untrusted workspace: the server then runs no exec credential plugin. */
  trusted: boolean;
}

function strongest<T>(layers: SettingLayers<T> | undefined, trusted: boolean): T | undefined {
  if (!layers) return undefined;
  // A workspace could otherwise point the kubeconfig at a file whose exec plugin runs its own code.
  if (!trusted) return layers.globalValue;
  return layers.workspaceFolderValue ?? layers.workspaceValue ?? layers.globalValue;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** Expands `~` and makes a relative path absolute, for each path of a KUBECONFIG-style list. */
export function expandPaths(value: string, place: ClusterPlace): string {
  return value
    .split(path.delimiter)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      if (p === '~' || p.startsWith('~/')) return path.join(place.home, p.slice(1));
      return path.isAbsolute(p) || !place.workspaceFolder ? p : path.join(place.workspaceFolder, p);
    })
    .join(path.delimiter);
}

/**
 * Which cluster the server should read: the settings first, else what the Kubernetes extension uses;
 * in an untrusted workspace only user settings count and exec plugins stay off.
 */
export function resolveClusterSettings(layers: ClusterSettingLayers, trusted: boolean, kubernetesExtension: KubernetesExtensionView, place: ClusterPlace): ClusterSettings {
  const mode = strongest(layers.cluster, trusted);
  const configured = nonEmpty(strongest(layers.kubeconfig, trusted));
  const kubeconfig = configured ?? nonEmpty(kubernetesExtension.kubeconfigPath);
  const extraPath = strongest(layers.extraPath, trusted);
  return {
    cluster: mode === 'demo' || mode === 'off' ? mode : 'auto',
    kubeconfig: kubeconfig ? expandPaths(kubeconfig, place) : undefined,
    context: nonEmpty(strongest(layers.context, trusted)) ?? (configured ? undefined : nonEmpty(kubernetesExtension.context)),
    extraPath: Array.isArray(extraPath) ? extraPath.filter((p) => typeof p === 'string' && p.trim()).map((p) => expandPaths(p, place)) : [],
    trusted,
  };
}
