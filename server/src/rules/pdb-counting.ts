import type { ExpectedPods } from '../inventory/inventory';
import { countedAgainstControllers, type PdbBudget } from '../manifest/pdb';
import type { Resource } from '../manifest/parse';
import { isScalable } from '../manifest/workload';

/**
 * The workload whose pods the disruption controller cannot count against the budget, when it is written as
 * maxUnavailable or a percentage: it scales those against the pods' controllers, and one with no scale (a DaemonSet,
 * a Job) fails the count, a bare pod counts for none; either way the PDB is given `disruptionsAllowed: 0`. A
 * whole-number minAvailable is counted against the pods themselves.
 */
export function unscaledBy(budget: PdbBudget, expected: ExpectedPods): Resource | undefined {
  if (!countedAgainstControllers(budget)) return undefined;
  const unscalable = expected.workloads.find(({ workload }) => !isScalable(workload) && workload.kind !== 'Pod');
  if (unscalable) return unscalable.workload;
  const bare = expected.workloads.filter(({ workload }) => workload.kind === 'Pod');
  return bare.length > 0 && bare.length === expected.workloads.length ? bare[0].workload : undefined;
}

const ONE_UNAVAILABLE: PdbBudget = { field: 'maxUnavailable', value: { kind: 'int', value: 1 } };

/**
 * Whether the PDB selects only some of its workloads' pods (a StatefulSet's db-0, by the name its controller gives it),
 * while the disruption controller counts maxUnavailable and percentages against all of them.
 */
export function picksSomePods(expected: ExpectedPods): boolean {
  return expected.selected !== undefined && expected.count !== undefined && expected.selected < expected.count;
}

/**
 * The budget that lets drains evict these pods one at a time: `maxUnavailable: 1`, or, for bare pods (which the
 * disruption controller counts only against a whole-number minAvailable) and pods picked out of a StatefulSet (for
 * which it counts maxUnavailable 1 against all of the StatefulSet's), minAvailable one below their count.
 * Undefined when no written number does it: the pods of a DaemonSet or a Job, whose count is the cluster's.
 */
export function oneAtATime(expected: ExpectedPods): { field: PdbBudget['field']; value: number } | undefined {
  if (picksSomePods(expected)) return { field: 'minAvailable', value: Math.max(0, expected.selected! - 1) };
  if (!unscaledBy(ONE_UNAVAILABLE, expected)) return { field: 'maxUnavailable', value: 1 };
  const bareOnly = expected.workloads.every(({ workload }) => workload.kind === 'Pod');
  return bareOnly && expected.count !== undefined ? { field: 'minAvailable', value: Math.max(0, expected.count - 1) } : undefined;
}
