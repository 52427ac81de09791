import { fieldMissingFrom } from './api-fields';
import { formatIntOrPercent, parseIntOrPercent, scaleIntOrPercent, type IntOrPercent } from './int-or-percent';
import type { Resource } from './parse';
import { isEmptySelector } from './selector';
import { plural } from '../words';

/**
 * Whether the PDB is a policy/v1beta1 one with an empty selector, which selects no pod at all: policy/v1 reads
 * `selector: {}` as every pod of the namespace, policy/v1beta1 as none (the API server stores it as a
 * requirement on a label no pod carries).
 */
export function selectsNothingAsV1beta1(pdb: Resource): boolean {
  const selector: unknown = pdb.object?.spec?.selector;
  return pdb.apiVersion === 'policy/v1beta1' && !!selector && typeof selector === 'object' && !Array.isArray(selector) && isEmptySelector(selector);
}

/** The selector the PDB applies: undefined (no pod) where its API version reads its selector so (see selectsNothingAsV1beta1). */
export function pdbSelector(pdb: Resource): unknown {
  return selectsNothingAsV1beta1(pdb) ? undefined : pdb.object?.spec?.selector;
}

/** The budget a PodDisruptionBudget states: one of minAvailable or maxUnavailable. */
export interface PdbBudget {
  field: 'minAvailable' | 'maxUnavailable';
  value: IntOrPercent;
}

/**
 * The PDB's budget, or undefined when it states none or one the API would reject: a value it does not take (a
 * negative number, a percentage over 100%), or both fields (then the PDB is never created).
 */
export function pdbBudget(pdb: Resource): PdbBudget | undefined {
  const fields = writtenBudgetFields(pdb);
  if (fields.length !== 1) return undefined;
  const value = parseIntOrPercent(pdb.object.spec[fields[0]]);
  return value && value.value >= 0 && !(value.kind === 'percent' && value.value > 100) ? { field: fields[0], value } : undefined;
}

/** The values of unhealthyPodEvictionPolicy the API server takes. */
export const EVICTION_POLICIES = ['IfHealthyBudget', 'AlwaysAllow'];

/** Where unhealthyPodEvictionPolicy sits in a PDB (policy/v1 only: policy/v1beta1 drops it as a field it does not know). */
export const EVICTION_POLICY_FIELD = ['spec', 'unhealthyPodEvictionPolicy'];

/** The unhealthyPodEvictionPolicy a policy/v1 PDB writes that the API server does not take (`alwaysallow`), if any. */
export function unknownEvictionPolicy(pdb: Resource): { written: unknown } | undefined {
  const policy: unknown = pdb.object?.spec?.unhealthyPodEvictionPolicy;
  if (policy == null || EVICTION_POLICIES.includes(policy as string) || fieldMissingFrom(pdb, EVICTION_POLICY_FIELD)) return undefined;
  return { written: policy };
}

/** Whether the PDB lets a pod that is not ready go whatever its budget says (AlwaysAllow; policy/v1 only: v1beta1 drops the field). */
export function evictsUnhealthyAlways(pdb: Resource): boolean {
  return pdb.object?.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' && !fieldMissingFrom(pdb, EVICTION_POLICY_FIELD);
}

/**
 * Whether the API server rejects the PDB, so that it is never created: a budget it does not take (see pdbBudget),
 * or an unhealthyPodEvictionPolicy it does not know.
 */
export function rejectedPdb(pdb: Resource): boolean {
  return (statesBudget(pdb) && !pdbBudget(pdb)) || unknownEvictionPolicy(pdb) !== undefined;
}

/** The budget fields a PDB writes, whatever their values. */
export function writtenBudgetFields(pdb: Resource): ('maxUnavailable' | 'minAvailable')[] {
  const spec = pdb.object?.spec;
  if (!spec || typeof spec !== 'object') return [];
  return (['maxUnavailable', 'minAvailable'] as const).filter((field) => spec[field] != null);
}

/**
 * Whether the PDB writes a budget. One that writes neither field allows no eviction at all, in
 * policy/v1 and policy/v1beta1 alike: the disruption controller then leaves its expected pod count at
 * 0, and a PDB expecting 0 pods gets disruptionsAllowed 0. No API version defaults a budget.
 */
export function statesBudget(pdb: Resource): boolean {
  return writtenBudgetFields(pdb).length > 0;
}

/** What the PDB says, for messages and cards: its budget scaled to the pods, or that it states none. */
export function describePdbBudget(pdb: Resource, expectedPods?: number): string {
  const budget = pdbBudget(pdb);
  return budget ? describeBudget(budget, expectedPods) : 'no minAvailable or maxUnavailable';
}

/** Evictions the PDB allows while every pod it selects is healthy (see disruptionsAllowed): none when it states no budget. */
export function evictionsAllowedBy(pdb: Resource, expectedPods: number, selected = expectedPods): number {
  const budget = pdbBudget(pdb);
  return budget ? disruptionsAllowed(budget, expectedPods, selected) : 0;
}

/**
 * Whether the disruption controller counts the budget against the scale of the pods' controllers (maxUnavailable, a
 * percentage) rather than against the pods the PDB selects (a whole-number minAvailable).
 */
export function countedAgainstControllers(budget: PdbBudget): boolean {
  return budget.field === 'maxUnavailable' || budget.value.kind === 'percent';
}

/** A budget that allows no disruption whatever the number of pods: maxUnavailable 0 or 0%, minAvailable 100%. */
export function blocksAlways(budget: PdbBudget): boolean {
  if (budget.field === 'maxUnavailable') return budget.value.value === 0;
  return budget.value.kind === 'percent' && budget.value.value >= 100;
}

/**
 * How many pods must stay healthy for `expectedPods`, as the disruption controller computes it:
 * percentages scaled against the expected count and rounded up.
 */
export function desiredHealthy(budget: PdbBudget, expectedPods: number): number {
  const scaled = scaleIntOrPercent(budget.value, expectedPods, true);
  return budget.field === 'minAvailable' ? scaled : Math.max(0, expectedPods - scaled);
}

/**
 * Evictions allowed while the `selected` pods are healthy: all `expectedPods` unless the PDB picks some of a
 * StatefulSet's out by name or index, while the disruption controller counts maxUnavailable and percentages against
 * every pod of their controller (maxUnavailable 1 over db-0 of 3 wants 2 healthy, and allows none).
 */
export function disruptionsAllowed(budget: PdbBudget, expectedPods: number, selected = expectedPods): number {
  return Math.max(0, selected - desiredHealthy(budget, expectedPods));
}

/** "1 eviction allowed", "0 evictions allowed". */
export function describeEvictionsAllowed(count: number): string {
  return `${plural(count, 'eviction')} allowed`;
}

/** `minAvailable 90%`, and how it scales: `minAvailable 90% rounds up to 3`. */
export function describeBudget(budget: PdbBudget, expectedPods?: number): string {
  const written = `${budget.field} ${formatIntOrPercent(budget.value)}`;
  if (budget.value.kind !== 'percent' || expectedPods === undefined) return written;
  const scaled = scaleIntOrPercent(budget.value, expectedPods, true);
  const exact = (budget.value.value * expectedPods) / 100;
  return scaled === exact ? `${written} of ${expectedPods} is ${scaled}` : `${written} rounds up to ${scaled}`;
}
