import type { PodBudget, SimWorkload } from './model';

/** The budget the eviction API applies to a pod: its PDB, and the pods it counts (every pod of the workload when unset). */
export type PodGuard = Omit<PodBudget, 'pods'> & { pods?: readonly string[] };

/**
 * The budgets over a pod of the workload (`pod`: its name, where budgets pick pods out by name): `names`, those of every
 * PDB that selects it (with more than one, the eviction API evicts it never), and `guard`, the one that counts it.
 */
export function budgetsOver(workload: SimWorkload, pod: string | undefined): { names: string[]; guard?: PodGuard } {
  const whole = workload.disruptionBudget;
  const picking = pod === undefined ? [] : (workload.podBudgets ?? []).filter((b) => b.pods.includes(pod));
  const names = [...(whole ? [whole.pdb, ...(whole.others ?? [])] : []), ...picking.map((b) => b.pdb)];
  return { names, guard: whole ?? picking[0] };
}
