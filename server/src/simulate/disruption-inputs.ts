import type { Inventory } from '../inventory/inventory';
import { declaredFacts } from '../manifest/declared';
import type { Resource } from '../manifest/parse';
import { autoscalerEviction } from '../manifest/autoscaler-eviction';
import { evictsUnhealthyAlways, pdbBudget, rejectedPdb } from '../manifest/pdb';
import type { SimWorkload } from './model';


type DisruptionFacts = Pick<SimWorkload, 'terminationGrace' | 'sessions' | 'sessionSeconds' | 'disruptionBudget' | 'safeToEvict' | 'localStorage'>;

/** What a drain or a scale-down needs to know of a workload: its grace period, sessions, PDB and what the autoscaler reads on its pods. */
export function voluntaryDisruptionFacts(resource: Resource, inventory: Inventory, podSpec: any): DisruptionFacts {
  const facts: DisruptionFacts = {};
  const grace = podSpec?.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && Number.isFinite(grace) && grace >= 0) facts.terminationGrace = grace;
  const declared = declaredFacts(resource);
  if (declared.sessions) facts.sessions = declared.sessions;
  if (declared.sessionSeconds !== undefined) facts.sessionSeconds = declared.sessionSeconds;
  // One the API server rejects is never created: it guards nothing.
  const pdbs = inventory.pdbsSelecting(resource).filter((pdb) => !rejectedPdb(pdb));
  const guard = pdbs.find((pdb) => pdbBudget(pdb)) ?? pdbs[0];
  if (guard) {
    const others = pdbs.filter((pdb) => pdb !== guard).map((pdb) => `${pdb.namespace}/${pdb.name}`);
    // A PDB stating no budget allows no eviction (the disruption controller expects 0 pods: pdb-no-budget), and
    // with two budgets over its pods the eviction API refuses them whatever either says.
    const budget = pdbBudget(guard) ?? { field: 'maxUnavailable' as const, value: { kind: 'int' as const, value: 0 } };
    facts.disruptionBudget = { pdb: `${guard.namespace}/${guard.name}`, budget, ...(others.length ? { others } : {}), ...(evictsUnhealthyAlways(guard) ? { alwaysAllowUnhealthy: true } : {}) };
  }
  const { safeToEvict, localStorage } = autoscalerEviction(resource);
  if (safeToEvict !== undefined) facts.safeToEvict = safeToEvict;
  if (localStorage) facts.localStorage = true;
  return facts;
}
