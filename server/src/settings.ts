import type { SeverityOverride } from './rules/types';

/** Settings the client pushes to the server (and that a plain LSP client may send as initializationOptions). */
export interface ServerSettings {
  enable: boolean;
  run: 'onType' | 'onSave';
  rules: Record<string, SeverityOverride>;
  /** `auto`: the kubeconfig's cluster (the demo when there is no kubeconfig); `demo`: the embedded demo; `off`: none. */
  cluster: 'auto' | 'demo' | 'off';
  /** Kubeconfig path(s), joined like KUBECONFIG; absent: KUBECONFIG, then ~/.kube/config. */
  kubeconfig?: string;
  /** Context to read instead of the kubeconfig's current-context. */
  context?: string;
  /** Directories searched for exec credential plugins before PATH. */
  extraPath: string[];
  /** Exec credential plugins, helm and kustomize run only when the client says the workspace is trusted. */
  trusted: boolean;
  /** Render Helm charts and Kustomize roots with the user's tools and analyse what they deploy. */
  render: boolean;
  helm: { path?: string; releaseName?: string; /** Values files by chart folder (relative to the workspace or absolute). */ valuesFiles: Record<string, string[]> };
  kustomize: { path?: string; /** Plugins, exec functions and helmCharts inflation (trusted workspaces only). */ enablePlugins: boolean };
}

export const DEFAULT_SETTINGS: ServerSettings = {
  enable: true,
  run: 'onType',
  rules: {},
  cluster: 'auto',
  extraPath: [],
  trusted: false,
  render: true,
  helm: { valuesFiles: {} },
  kustomize: { enablePlugins: false },
};

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function readSettings(value: unknown): ServerSettings {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<ServerSettings>;
  const rules: Record<string, SeverityOverride> = {};
  for (const [id, level] of Object.entries(v.rules ?? {})) {
    if (['off', 'error', 'warning', 'info', 'hint'].includes(level as string)) rules[id] = level as SeverityOverride;
  }
  return {
    enable: v.enable !== false,
    run: v.run === 'onSave' ? 'onSave' : 'onType',
    rules,
    cluster: v.cluster === 'demo' || v.cluster === 'off' ? v.cluster : 'auto',
    kubeconfig: optionalText(v.kubeconfig),
    context: optionalText(v.context),
    extraPath: Array.isArray(v.extraPath) ? v.extraPath.filter((p): p is string => typeof p === 'string' && !!p.trim()) : [],
    trusted: v.trusted === true,
    render: v.render !== false,
    helm: {
      path: optionalText(v.helm?.path),
      releaseName: optionalText(v.helm?.releaseName),
      valuesFiles: Object.fromEntries(
        Object.entries(v.helm?.valuesFiles && typeof v.helm.valuesFiles === 'object' ? v.helm.valuesFiles : {}).map(([chart, files]) => [chart, Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : []]),
      ),
    },
    kustomize: { path: optionalText(v.kustomize?.path), enablePlugins: v.kustomize?.enablePlugins === true },
  };
}
