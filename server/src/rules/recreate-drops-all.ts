import { moreReplicasRisk } from '../fixes/safety';
import { setField } from '../fixes/yaml-edit';
import type { TextEdit } from '../fixes/edit';
import { isObject } from '../is-object';
import { describeEveryPod, describeRunning, type Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { describeResource, isHelmHook } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import type { Rule } from './types';

/** What a surge pod running beside the old ones changes, when it changes more than capacity. */
function besideTheOld(deployment: Resource, inventory: Inventory): string | undefined {
  const risk = moreReplicasRisk(deployment, inventory);
  return risk && `each rollout starts a new pod beside the old ones: ${risk}`;
}

export const recreateDropsAll: Rule = {
  meta: {
    id: 'recreate-drops-all',
    severity: 'info',
    scenario: 'voluntary-disruption',
    title: 'Recreate strategy stops every replica on each rollout',
    description:
      'A Deployment with `strategy: Recreate` kills all its pods before it starts any new one, so every rollout (a new image, a changed ConfigMap reference, a label) is a full outage lasting as long as the new pods need to start and become ready, however many replicas there are. Recreate is right only when two versions must never run side by side; otherwise a rolling update that surges one pod keeps full capacity throughout.',
    fix: 'Sets `type: RollingUpdate` with `maxUnavailable: 0` and `maxSurge: 1`.',
    unsafeFixes: 'Unsafe when a new pod beside the old ones changes what the app does: a single-primary store image, a ReadWriteOnce volume (the surge pod cannot mount it and the rollout stalls; often the very reason for Recreate), GPUs or in-memory sessions.',
    example: ordersDeployment().replace('  selector:', '  strategy:\n    type: Recreate\n  selector:'),
  },
  check({ resources, inventory, report }) {
    for (const deployment of resources) {
      if (deployment.kind !== 'Deployment' || isHelmHook(deployment) || deployment.object?.spec?.strategy?.type !== 'Recreate') continue;
      const replicas = inventory.effectiveReplicas(deployment);
      if (replicas.value < 2) continue;
      const strategy = ['spec', 'strategy'];
      report({
        resource: deployment,
        path: [...strategy, 'type'],
        target: 'pair',
        message: `${describeResource(deployment)}: every rollout stops ${describeEveryPod(replicas.value)} at once, an outage per deploy. It runs ${describeRunning(replicas)} with strategy Recreate, which stops them all before starting new ones, so each deploy is down until the new pods are ready.`,
        fixes: () => [
          {
            title: 'Roll one pod at a time (RollingUpdate, maxUnavailable 0, maxSurge 1)',
            preferred: true,
            unsafe: besideTheOld(deployment, inventory),
            edits: [...(setField(deployment, [...strategy, 'type'], 'RollingUpdate') ?? []), ...rollingUpdateEdits(deployment, [...strategy, 'rollingUpdate'])],
          },
        ],
      });
    }
  },
};

/**
 * maxUnavailable 0 and maxSurge 1: each set in a rollingUpdate the Deployment has (its comments and other keys
 * stay; the whole mapping was written again), or a rollingUpdate of them both.
 */
function rollingUpdateEdits(deployment: Resource, path: string[]): TextEdit[] {
  const settings = { maxUnavailable: 0, maxSurge: 1 };
  const existing = deployment.object?.spec?.strategy?.rollingUpdate;
  if (!isObject(existing) || Object.keys(existing).length === 0) return setField(deployment, path, settings) ?? [];
  return Object.entries(settings).flatMap(([key, value]) => (existing[key] === value ? [] : (setField(deployment, [...path, key], value) ?? [])));
}
