import type { Inventory } from '../inventory/inventory';
import { declaredFacts } from '../manifest/declared';
import type { Resource } from '../manifest/parse';
import { autoscalerEviction } from '../manifest/autoscaler-eviction';
import { evictsUnhealthyAlways, pdbBudget, pdbSelector, rejectedPdb, type PdbBudget } from '../manifest/pdb';
import { asksForControllerLabel } from '../manifest/controller-labels';
import type { PodBudget, SimWorkload } from './model';


type DisruptionFacts = Pick<SimWorkload, 'terminationGrace' | 'sessions' | 'sessionSeconds' | 'disruptionBudget' | 'podBudgets' | 'safeToEvict' | 'localStorage'>;

/** What a PDB stating no budget allows: no eviction (the disruption controller expects 0 pods: pdb-no-budget). */
const NO_EVICTION: PdbBudget = { field: 'maxUnavailable', value: { kind: 'int', value: 0 } };

/**
 * What a drain or a scale-down needs to know of a workload: its grace period, sessions, PDBs and what the autoscaler
 * reads on its pods. `pods`: how many it is simulated with, for the budgets that pick some of them out by name.
 */
export function voluntaryDisruptionFacts(resource: Resource, inventory: Inventory, podSpec: any, pods: number): DisruptionFacts {
  const facts: DisruptionFacts = {};
  const grace = podSpec?.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && Number.isFinite(grace) && grace >= 0) facts.terminationGrace = grace;
  const declared = declaredFacts(resource);
  if (declared.sessions) facts.sessions = declared.sessions;
  if (declared.sessionSeconds !== undefined) facts.sessionSeconds = declared.sessionSeconds;
  // One the API server rejects is never created: it guards nothing.
  const guarding = inventory.pdbsSelectingAnyPodOf(resource).filter((pdb) => !rejectedPdb(pdb));
  // A budget that asks for the labels their controller gives pods selects some of a StatefulSet's (by name or index:
  // `In [db-0]`, or `NotIn [db-0]` beside its template's labels), and every one of a Job's (by its name).
  const picked = new Map<Resource, string[]>();
  for (const pdb of guarding) {
    const selector = pdbSelector(pdb);
    if (resource.kind !== 'StatefulSet' || !asksForControllerLabel(selector)) continue;
    const names = inventory.podNamesSelectedOf(resource, selector, pods);
    if (names.length < pods) picked.set(pdb, names);
  }
  const pdbs = guarding.filter((pdb) => !picked.has(pdb));
  const guard = pdbs.find((pdb) => pdbBudget(pdb)) ?? pdbs[0];
  if (guard) {
    const others = pdbs.filter((pdb) => pdb !== guard).map(pdbKey);
    // With two budgets over its pods the eviction API refuses them whatever either says.
    facts.disruptionBudget = { ...guardOf(guard), ...(others.length ? { others } : {}) };
  }
  const podBudgets = [...picked].filter(([, pods]) => pods.length).map(([pdb, pods]): PodBudget => ({ ...guardOf(pdb), pods }));
  if (podBudgets.length) facts.podBudgets = podBudgets;
  const { safeToEvict, localStorage } = autoscalerEviction(resource);
  if (safeToEvict !== undefined) facts.safeToEvict = safeToEvict;
  if (localStorage) facts.localStorage = true;
  return facts;
}

/** What the eviction API reads of a budget, over whichever pods it selects. */
function guardOf(pdb: Resource): Omit<PodBudget, 'pods'> {
  return { pdb: pdbKey(pdb), budget: pdbBudget(pdb) ?? NO_EVICTION, ...(evictsUnhealthyAlways(pdb) ? { alwaysAllowUnhealthy: true as const } : {}) };
}

function pdbKey(pdb: Resource): string {
  return `${pdb.namespace}/${pdb.name}`;
}
