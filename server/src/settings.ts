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
  const choice = <T extends string>(name: keyof ServerSettings, allowed: readonly T[], fallback: T): T => {
    const written = v[name];
    if (written === undefined || allowed.includes(written as T)) return (written as T | undefined) ?? fallback;
    unusable(`kubeResilience.${name}`, written, allowed.join(', ').replace(/, ([^,]*)$/, ' or $1'));
    return fallback;
  };
  const flag = (name: string, written: unknown, fallback: boolean): boolean => {
    if (written === undefined || typeof written === 'boolean') return (written as boolean | undefined) ?? fallback;
    unusable(`kubeResilience.${name}`, written, 'true or false');
    return fallback;
  };
  const text = (name: string, written: unknown): string | undefined => {
    if (written !== undefined && written !== null && typeof written !== 'string') unusable(`kubeResilience.${name}`, written, 'text');
    return optionalText(written);
  };
  const texts = (name: string, written: unknown, expected: string): string[] => {
    if (written !== undefined && written !== null && !Array.isArray(written)) unusable(`kubeResilience.${name}`, written, expected);
    const items: unknown[] = Array.isArray(written) ? written : [];
    items.forEach((item, i) => typeof item !== 'string' && unusable(`kubeResilience.${name}[${i}]`, item, 'text'));
    return items.filter((item): item is string => typeof item === 'string' && !!item.trim());
  };
  const section = (name: 'helm' | 'kustomize'): Record<string, unknown> => {
    if (v[name] !== undefined && v[name] !== null && !isObject(v[name])) unusable(`kubeResilience.${name}`, v[name], 'an object');
    return isObject(v[name]) ? v[name] : {};
  };
  const helm = section('helm');
  const kustomize = section('kustomize');
  const valuesFiles = isObject(helm.valuesFiles) ? helm.valuesFiles : {};
  if (helm.valuesFiles !== undefined && helm.valuesFiles !== null && !isObject(helm.valuesFiles)) unusable('kubeResilience.helm.valuesFiles', helm.valuesFiles, 'an object of chart folders, each with a list of values files');
  const rules: Record<string, SeverityOverride> = {};
  for (const [id, level] of Object.entries(isObject(v.rules) ? v.rules : {})) {
    // A misspelt id turned nothing off, without a word (the command line refuses it).
    if (!isRule(id)) ignored(`kubeResilience.rules.${id} names no rule of kube-resilience (\`kube-resilience rules\` lists them): ignored`);
    else if (LEVELS.includes(level as string)) rules[id] = level as SeverityOverride;
    else unusable(`kubeResilience.rules.${id}`, level, 'off, error, warning, info or hint');
  }
  if (v.rules !== undefined && !isObject(v.rules)) unusable('kubeResilience.rules', v.rules, 'an object of rule ids');
  return {
    enable: flag('enable', v.enable, true),
    run: choice('run', ['onType', 'onSave'] as const, 'onType'),
    rules,
    cluster: choice('cluster', ['auto', 'demo', 'off'] as const, 'auto'),
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
