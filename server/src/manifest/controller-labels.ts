import type { Resource } from './parse';
import { isWellFormedSelector, selectorMatches, type LabelSelector, type Labels } from './selector';

/** Labels a controller sets on each pod it creates, whose values no manifest shows: a hash of the template, a Job's uid. */
const SET_BY_THE_CLUSTER = new Set(['pod-template-hash', 'controller-revision-hash', 'pod-template-generation', 'controller-uid', 'batch.kubernetes.io/controller-uid']);

const POD_NAME = 'statefulset.kubernetes.io/pod-name';
const POD_INDEX = 'apps.kubernetes.io/pod-index';
const JOB_NAMES = ['job-name', 'batch.kubernetes.io/job-name'];
/** Labels a controller gives each pod whose values manifests tell: a StatefulSet's pod names and indexes, a Job's name. */
const SET_BY_THE_CONTROLLER = new Set([POD_NAME, POD_INDEX, ...JOB_NAMES]);

/** Every label key the selector asks about, with the values it names for each (none for what is no selector). */
function askedValues(selector: unknown): Map<string, string[]> {
  const asked = new Map<string, string[]>();
  // One the API server rejects (`matchExpressions: {}`) asks for nothing: it selects no pod (and stopped `check` as "a bug").
  if (!isSelector(selector) || !isWellFormedSelector(selector)) return asked;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) asked.set(key, [...(asked.get(key) ?? []), String(value)]);
  for (const requirement of selector.matchExpressions ?? []) {
    if (requirement && typeof requirement.key === 'string') asked.set(requirement.key, [...(asked.get(requirement.key) ?? []), ...(Array.isArray(requirement.values) ? requirement.values.map(String) : [])]);
  }
  return asked;
}

/**
 * The selector without what it asks of labels whose values only the cluster knows (`pod-template-hash`): no manifest
 * says which pods carry those, so what is left is what manifests can answer.
 */
export function withoutClusterSetLabels(selector: LabelSelector): LabelSelector {
  return withoutKeys(selector, SET_BY_THE_CLUSTER);
}

/** The selector without what it asks of labels a controller gives pods (a StatefulSet's pod names): what it asks of their templates. */
export function withoutControllerLabels(selector: LabelSelector): LabelSelector {
  return withoutKeys(selector, SET_BY_THE_CONTROLLER);
}

function withoutKeys(selector: LabelSelector, keys: ReadonlySet<string>): LabelSelector {
  const matchLabels = Object.entries(selector.matchLabels ?? {}).filter(([key]) => !keys.has(key));
  const matchExpressions = (selector.matchExpressions ?? []).filter((requirement) => !keys.has(requirement?.key));
  return { ...selector, matchLabels: selector.matchLabels ? Object.fromEntries(matchLabels) : selector.matchLabels, matchExpressions: selector.matchExpressions ? matchExpressions : selector.matchExpressions };
}

function isSelector(value: unknown): value is LabelSelector {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Whether the selector asks for a label a controller gives its pods (a StatefulSet's pod names), which templates do not show. */
export function asksForControllerLabel(selector: unknown): selector is LabelSelector {
  return [...askedValues(selector).keys()].some((key) => SET_BY_THE_CONTROLLER.has(key));
}

/** Whether the selector asks for a label whose value only the cluster knows (`pod-template-hash`). */
export function asksForClusterSetLabel(selector: unknown): boolean {
  return [...askedValues(selector).keys()].some((key) => SET_BY_THE_CLUSTER.has(key));
}

/** Whether the workload's controller gives its pods labels a selector may ask for (a StatefulSet's pod names, a Job's name). */
export function getsControllerLabels(workload: Resource): boolean {
  return (workload.kind === 'StatefulSet' || workload.kind === 'Job') && !!workload.name;
}

/**
 * The labels of the pods `workload` runs, its controller's among them, as far as `selectors` can tell them apart: a
 * StatefulSet's pods each carry their name and index (those the selectors name, and one they do not), a Job's pods
 * its name. `pods` is how many the workload runs.
 */
export function podLabelSets(workload: Resource, templateLabels: Labels, pods: number, selectors: readonly LabelSelector[]): Labels[] {
  return podsAlike(workload, templateLabels, pods, selectors).map((alike) => alike.labels);
}

/** How many of the `pods` that `workload` runs the selector selects, by the labels their controller gives them too (one for `db-0`). */
export function podsSelected(workload: Resource, templateLabels: Labels, pods: number, selector: LabelSelector): number {
  return podsAlike(workload, templateLabels, pods, [selector]).reduce((sum, alike) => sum + (selectorMatches(selector, alike.labels) ? alike.count : 0), 0);
}

/**
 * The names of the pods of a StatefulSet the selector selects (`db-0`), by the labels its controller gives them too, in
 * the order of their ordinals; none for other workloads, whose pods have no name a manifest tells. `pods` is how many it
 * runs: only the pods the selector names are looked at one by one, and those it does not name are named only when it
 * selects them (then there are as many names as pods: callers ask where those are few).
 */
export function podNamesSelected(workload: Resource, templateLabels: Labels, pods: number, selector: LabelSelector): string[] {
  if (workload.kind !== 'StatefulSet' || !workload.name) return [];
  const name = workload.name;
  const selects = (i: number) => selectorMatches(selector, statefulSetPod(name, templateLabels, i));
  const first = firstOrdinal(workload);
  const named = namedIndexes(workload, pods, [selector]);
  const indexes = [...named].filter(selects);
  // The pods it does not name all carry the same labels as far as it can tell: it selects all of them or none.
  const other = firstUnnamed(first, pods, named);
  if (other !== undefined && selects(other)) for (let i = other; i < first + pods; i++) if (!named.has(i)) indexes.push(i);
  return indexes.sort((a, b) => a - b).map((i) => `${name}-${i}`);
}

/** The names of the `pods` a StatefulSet runs, from its first ordinal (`db-0`, `db-1` …); none for other workloads. */
export function statefulSetPodNames(workload: Resource, pods: number): string[] {
  if (workload.kind !== 'StatefulSet' || !workload.name) return [];
  const first = firstOrdinal(workload);
  return Array.from({ length: Math.max(0, pods) }, (_, i) => `${workload.name}-${first + i}`);
}

/** The labels of a StatefulSet's pod of index `i`: its template's, its name and its index. */
function statefulSetPod(statefulSet: string, templateLabels: Labels, i: number): Labels {
  return { ...templateLabels, [POD_NAME]: `${statefulSet}-${i}`, [POD_INDEX]: String(i) };
}

/** Pods of a workload that carry the same labels as far as some selectors can tell: their labels, and how many they are. */
interface PodsAlike {
  labels: Labels;
  count: number;
}

/** podLabelSets with how many pods each set of labels stands for: one it does not name stands for every pod the selectors do not name. */
function podsAlike(workload: Resource, templateLabels: Labels, pods: number, selectors: readonly LabelSelector[]): PodsAlike[] {
  if (workload.kind === 'Job' && workload.name) return [{ labels: { ...templateLabels, ...Object.fromEntries(JOB_NAMES.map((key) => [key, workload.name!])) }, count: pods }];
  if (workload.kind !== 'StatefulSet' || !workload.name) return [{ labels: templateLabels, count: pods }];
  const indexes = namedIndexes(workload, pods, selectors);
  const podOf = (i: number) => statefulSetPod(workload.name!, templateLabels, i);
  const alike = [...indexes].map((i) => ({ labels: podOf(i), count: 1 }));
  // One pod the selector does not name, for what it asks of the others (`NotIn [db-0]`).
  const other = firstUnnamed(firstOrdinal(workload), pods, indexes);
  if (other !== undefined) alike.push({ labels: podOf(other), count: pods - indexes.size });
  return alike;
}

/** The ordinals of a StatefulSet's `pods` that the selectors name, by pod name or index. */
function namedIndexes(workload: Resource, pods: number, selectors: readonly LabelSelector[]): Set<number> {
  const first = firstOrdinal(workload);
  const named = selectors.flatMap((selector) => {
    const asked = askedValues(selector);
    return [...(asked.get(POD_NAME) ?? []).map((value) => indexIn(value, `${workload.name}-`)), ...(asked.get(POD_INDEX) ?? []).map((value) => indexIn(value, ''))];
  });
  return new Set(named.filter((i): i is number => i !== undefined && i >= first && i < first + pods));
}

/** The first ordinal of the `pods` from `first` that is not `named`, if any. */
function firstUnnamed(first: number, pods: number, named: ReadonlySet<number>): number | undefined {
  for (let i = first; i < first + pods; i++) if (!named.has(i)) return i;
  return undefined;
}

/** The index of a StatefulSet's first pod: spec.ordinals.start, 0 unless written (from `start: 1` its pods are `db-1`, `db-2`…). */
function firstOrdinal(statefulSet: Resource): number {
  const start: unknown = statefulSet.object?.spec?.ordinals?.start;
  return typeof start === 'number' && Number.isInteger(start) && start >= 0 ? start : 0;
}

/** The pod index a label value names after `prefix` (`db-2` → 2), if it names one. */
function indexIn(value: string, prefix: string): number | undefined {
  if (!value.startsWith(prefix)) return undefined;
  const digits = value.slice(prefix.length);
  return /^(0|[1-9]\d{0,8})$/.test(digits) ? Number(digits) : undefined;
}
