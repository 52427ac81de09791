import type { Inventory } from '../inventory/inventory';
import { declaredFacts } from '../manifest/declared';
import type { Resource } from '../manifest/parse';
import { fieldMissingFrom } from '../manifest/api-fields';
import { EVICTION_POLICY_FIELD, pdbBudget, rejectedPdb } from '../manifest/pdb';
import { podTemplateOf } from '../manifest/workload';
import type { SimWorkload } from './model';

const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
const SAFE_TO_EVICT_LOCAL_VOLUMES = 'cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes';

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
    // policy/v1 only: policy/v1beta1 drops the field.
    const alwaysAllow = guard.object?.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' && !fieldMissingFrom(guard, EVICTION_POLICY_FIELD);
    facts.disruptionBudget = { pdb: `${guard.namespace}/${guard.name}`, budget, ...(others.length ? { others } : {}), ...(alwaysAllow ? { alwaysAllowUnhealthy: true } : {}) };
  }
  const annotations = podTemplateOf(resource)?.annotations ?? {};
  const safe = annotations?.[SAFE_TO_EVICT];
  if (safe === 'true' || safe === 'false') facts.safeToEvict = safe === 'true';
  const volumes: unknown[] = Array.isArray(podSpec?.volumes) ? podSpec.volumes : [];
  // What the autoscaler counts: hostPath, and emptyDir on the node's disk, unless the pod names it safe to evict.
  const safeLocal = new Set(String(annotations?.[SAFE_TO_EVICT_LOCAL_VOLUMES] ?? '').split(',').map((n) => n.trim()).filter(Boolean));
  if (volumes.some((v: any) => v && typeof v === 'object' && !safeLocal.has(v.name) && (v.hostPath || (v.emptyDir && v.emptyDir.medium !== 'Memory')))) facts.localStorage = true;
  return facts;
}
