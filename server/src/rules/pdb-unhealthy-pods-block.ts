import { setField } from '../fixes/yaml-edit';
import { fieldMissingFrom } from '../manifest/api-fields';
import { describeBudget, EVICTION_POLICIES, EVICTION_POLICY_FIELD, evictsUnhealthyAlways, pdbBudget, unknownEvictionPolicy } from '../manifest/pdb';
import { describeResource } from '../manifest/workload';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import type { Resource } from '../manifest/parse';
import type { Rule, RuleContext } from './types';

export const pdbUnhealthyPodsBlock: Rule = {
  meta: {
    id: 'pdb-unhealthy-pods-block',
    severity: 'info',
    scenario: 'voluntary-disruption',
    title: 'Unhealthy pods can block drains',
    description:
      'Without `unhealthyPodEvictionPolicy: AlwaysAllow`, a running pod that is not ready (crash-looping, stuck on a broken dependency) may only be evicted while the budget is met by healthy pods. When a bad rollout or an outage leaves fewer healthy pods than the budget requires, the broken pods cannot be evicted and node drains hang on pods that serve nothing. AlwaysAllow (Kubernetes 1.26+, on by default since 1.27) lets drains remove pods that are not ready anyway. The field exists only in policy/v1: a policy/v1beta1 PDB (served until Kubernetes 1.25, before the field) is not reported, since moving it to policy/v1 changes what an empty selector means (no pods in v1beta1, every pod of the namespace in v1). A value the API server does not take (`alwaysallow`) is reported as such: that PDB is never created.',
    fix: 'Adds `unhealthyPodEvictionPolicy: AlwaysAllow`.',
    example: documents(ordersDeployment(), examplePdb('  maxUnavailable: 1\n')),
  },
  check({ resources, report }) {
    for (const pdb of resources) {
      // policy/v1beta1 has no such field, and the clusters that serve it (up to 1.25) predate it: nothing to ask for there.
      if (pdb.kind !== 'PodDisruptionBudget' || fieldMissingFrom(pdb, EVICTION_POLICY_FIELD)) continue;
      if (evictsUnhealthyAlways(pdb)) continue;
      const policy = pdb.object?.spec?.unhealthyPodEvictionPolicy;
      const unknown = unknownEvictionPolicy(pdb);
      if (unknown) {
        reportUnknownPolicy(pdb, unknown.written, report);
        continue;
      }
      const budget = pdbBudget(pdb);
      const stated = typeof policy === 'string' ? `unhealthyPodEvictionPolicy ${policy}` : 'no unhealthyPodEvictionPolicy (IfHealthyBudget)';
      report({
        resource: pdb,
        path: typeof policy === 'string' ? ['spec', 'unhealthyPodEvictionPolicy'] : [],
        message: `${describeResource(pdb)}: a node drain can hang on its pods that are not ready. ${budget ? `Its budget is ${describeBudget(budget)}, and it` : 'It'} has ${stated}: a pod that runs but is not ready may be evicted only while enough other pods are healthy to meet the budget, so when a bad rollout or an outage leaves fewer healthy than that, a node drain hangs on the very pods that serve nothing.`,
        fixes: () => [{ title: 'Let drains evict unhealthy pods (AlwaysAllow)', preferred: true, edits: setField(pdb, EVICTION_POLICY_FIELD, 'AlwaysAllow') ?? [] }],
      });
    }
  },
};

/** A policy the API server does not take (`alwaysallow`): the PDB is never created. */
function reportUnknownPolicy(pdb: Resource, policy: unknown, report: RuleContext['report']): void {
  report({
    resource: pdb,
    path: EVICTION_POLICY_FIELD,
    target: 'value',
    message: `${describeResource(pdb)}: unhealthyPodEvictionPolicy ${JSON.stringify(policy)} is rejected by the API server, so the PDB is never created: it takes ${EVICTION_POLICIES.join(' or ')}, spelt so. Applying this one fails, and the pods it was written for have no budget.`,
    fixes: () => [{ title: 'Let drains evict unhealthy pods (AlwaysAllow)', preferred: true, edits: setField(pdb, EVICTION_POLICY_FIELD, 'AlwaysAllow') ?? [] }],
  });
}
