import { isObject } from './is-object';
import type { SeverityOverride } from './rules/types';

/** What decides which cluster is read: the cluster is read again only when it changes. */
export function clusterSettingsKey(settings: Pick<ServerSettings, 'cluster' | 'kubeconfig' | 'context' | 'extraPath' | 'trusted'>): string {
  const { cluster, kubeconfig, context, extraPath, trusted } = settings;
  return JSON.stringify({ cluster, kubeconfig, context, extraPath, trusted });
}

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

const LEVELS = ['off', 'error', 'warning', 'info', 'hint'];

/**
 * The settings a client sent; a value that cannot be used is left at its default and said to `ignored`, named
 * as the user wrote it: a typo such as `"cluster": "Off"` read the live cluster without a word. `isRule` tells
 * the ids of rules.
 */
export function readSettings(value: unknown, ignored: (problem: string) => void = () => undefined, isRule: (id: string) => boolean = () => true): ServerSettings {
  if (value !== undefined && value !== null && !isObject(value)) ignored(`the settings are ${shownSetting(value)}, not an object: the defaults are used`);
  const v = (isObject(value) ? value : {}) as Partial<ServerSettings>;
  const unusable = (name: string, written: unknown, expected: string) => ignored(`${name} is ${shownSetting(written)}, not ${expected}: ignored`);
  // Whether a written value is there to use: unset (undefined, or null as JSON writes it) is not, and says nothing;
  // one `accepts` refuses is said to be ignored.
  const given = (name: string, written: unknown, expected: string, accepts: (written: unknown) => boolean): boolean => {
    if (written === undefined || written === null) return false;
    if (accepts(written)) return true;
    unusable(`kubeResilience.${name}`, written, expected);
    return false;
  };
  const choice = <T extends string>(name: string, written: unknown, allowed: readonly T[], fallback: T): T =>
    given(name, written, allowed.join(', ').replace(/, ([^,]*)$/, ' or $1'), (w) => allowed.includes(w as T)) ? (written as T) : fallback;
  const flag = (name: string, written: unknown, fallback: boolean): boolean => (given(name, written, 'true or false', (w) => typeof w === 'boolean') ? (written as boolean) : fallback);
  const text = (name: string, written: unknown): string | undefined => (given(name, written, 'text', (w) => typeof w === 'string') ? optionalText(written) : undefined);
  const object = (name: string, written: unknown, expected: string): Record<string, unknown> => (given(name, written, expected, isObject) ? (written as Record<string, unknown>) : {});
  const texts = (name: string, written: unknown, expected: string): string[] => {
    const items: unknown[] = given(name, written, expected, Array.isArray) ? (written as unknown[]) : [];
    items.forEach((item, i) => typeof item !== 'string' && unusable(`kubeResilience.${name}[${i}]`, item, 'text'));
    return items.filter((item): item is string => typeof item === 'string' && !!item.trim());
  };
  const helm = object('helm', v.helm, 'an object');
  const kustomize = object('kustomize', v.kustomize, 'an object');
  const valuesFiles = object('helm.valuesFiles', helm.valuesFiles, 'an object of chart folders, each with a list of values files');
  const rules: Record<string, SeverityOverride> = {};
  for (const [id, level] of Object.entries(object('rules', v.rules, 'an object of rule ids'))) {
    // A misspelt id turned nothing off, without a word (the command line refuses it).
    if (!isRule(id)) ignored(`kubeResilience.rules.${id} names no rule of kube-resilience (\`kube-resilience rules\` lists them): ignored`);
    else if (LEVELS.includes(level as string)) rules[id] = level as SeverityOverride;
    else unusable(`kubeResilience.rules.${id}`, level, 'off, error, warning, info or hint');
  }
  return {
    enable: flag('enable', v.enable, true),
    run: choice('run', v.run, ['onType', 'onSave'] as const, 'onType'),
    rules,
    cluster: choice('cluster', v.cluster, ['auto', 'demo', 'off'] as const, 'auto'),
    kubeconfig: text('kubeconfig', v.kubeconfig),
    context: text('context', v.context),
    extraPath: texts('extraPath', v.extraPath, 'a list of folders'),
    trusted: flag('trusted', v.trusted, false),
    render: flag('render', v.render, true),
    helm: {
      path: text('helm.path', helm.path),
      releaseName: text('helm.releaseName', helm.releaseName),
      valuesFiles: Object.fromEntries(Object.entries(valuesFiles).map(([chart, files]) => [chart, texts(`helm.valuesFiles.${chart}`, files, 'a list of values files')])),
    },
    kustomize: { path: text('kustomize.path', kustomize.path), enablePlugins: flag('kustomize.enablePlugins', kustomize.enablePlugins, false) },
  };
}

/** A written value as a message shows it: JSON, cut short. */
export function shownSetting(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 60)}…` : json;
}
