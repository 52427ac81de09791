import { setField } from '../fixes/yaml-edit';
import type { Rule } from './types';

export const singleReplica: Rule = {
  meta: {
    id: 'single-replica',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'One replica and no autoscaler',
    description:
      'With one replica, every node drain, node failure, eviction or rollout of a Deployment with maxUnavailable leaves the workload with no ready pod until a replacement is scheduled, pulled and ready. While the control plane is down, a lost pod is not replaced at all.',
    fix: 'Sets `replicas: 2`.',
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      if (resource.kind !== 'Deployment' && resource.kind !== 'StatefulSet') continue;
      const replicas = resource.object?.spec?.replicas;
      if (replicas !== undefined && replicas !== null && replicas !== 1) continue;
      if (inventory.hpasTargeting(resource).length > 0) continue;
      const stated = replicas === 1 ? 'replicas: 1' : 'no replicas field (defaults to 1)';
      report({
        resource,
        path: replicas === 1 ? ['spec', 'replicas'] : [],
        message: `${resource.kind} ${resource.name ?? ''} runs 1 pod (${stated}): a node drain or node failure takes it offline until a replacement is scheduled and ready, and while the control plane is down it is not replaced at all.`,
        fixes: [{ title: 'Run 2 replicas', preferred: true, edits: setField(resource, ['spec', 'replicas'], 2, 'start') ?? [] }],
      });
    }
  },
};
