import { numberForDigits } from '../fixes/number-for-digits';
import type { Fix } from '../fixes/edit';
import { moreReplicasRisk } from '../fixes/safety';
import { setField } from '../fixes/yaml-edit';
import type { EffectiveReplicas, Inventory } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { describeAutoscaler } from '../manifest/autoscaler';
import { shownValue, writtenNotInteger } from '../manifest/integer-field';
import type { Resource } from '../manifest/parse';
import { describeResource, isHelmHook, podTemplateOf } from '../manifest/workload';
import { countSetBy } from './count-set-by';
import { ordersDeployment } from './example-disruption';
import type { Rule, RuleContext } from './types';

/** Why a second pod is not simply more of the same, when it is not: then `replicas: 2` is no fix. */
function singletonReason(workload: Resource): string | undefined {
  if (workload.kind !== 'Deployment') return undefined;
  const volumes = podTemplateOf(workload)?.spec.volumes;
  const claim = (Array.isArray(volumes) ? volumes : []).find((v: any) => v?.persistentVolumeClaim?.claimName)?.persistentVolumeClaim.claimName;
  if (claim) return `it mounts PersistentVolumeClaim ${claim}, which a second pod would share: redundancy needs a replicated store, not replicas: 2`;
  if (workload.object?.spec?.strategy?.type === 'Recreate') return 'its Recreate strategy says two pods must never run at once: redundancy needs the app to run as a cluster first';
  return undefined;
}

/** How long the one pod is gone. A StatefulSet never runs two copies of a pod, so a pod on a dead node is not replaced until it is known to be gone. */
const OUTAGE = {
  Deployment: 'a node drain or node failure takes it offline until a replacement is scheduled and ready',
  StatefulSet: 'a node drain takes it offline until it is rescheduled and ready, a node failure until the node comes back or someone force-deletes the pod',
};

function replicasFix(workload: Resource, inventory: Inventory): Fix[] {
  if (singletonReason(workload)) return [];
  // Only the app knows whether a second database or StatefulSet member joins a cluster or starts an empty twin.
  return [{ title: 'Run 2 replicas', preferred: true, unsafe: moreReplicasRisk(workload, inventory), edits: setField(workload, ['spec', 'replicas'], 2, 'start') ?? [] }];
}

export const singleReplica: Rule = {
  meta: {
    id: 'single-replica',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'One replica and no autoscaler',
    description:
      'With one replica, every node drain, node failure, eviction or rollout of a Deployment with maxUnavailable leaves the workload with no ready pod until a replacement is scheduled, pulled and ready. While the control plane is down, a lost pod is not replaced at all. A workload an autoscaler scales (an HPA, or a KEDA ScaledObject) has its count from it instead, and one a paused ScaledObject holds by `autoscaling.keda.sh/paused-replicas` runs that count, whatever its replicas field says. Cluster add-ons (kube-system, addon-manager labels) are left to the cluster operator, and Helm hooks and test pods (`helm.sh/hook`) run once and need no replicas.',
    fix: 'Sets `replicas: 2`; not offered for a Deployment that mounts a PersistentVolumeClaim or uses the Recreate strategy (a second pod is no replica there).',
    unsafeFixes: 'Unsafe for a StatefulSet, a single-primary store image (redis, mysql, mariadb, postgres, mongo, …), a workload with a ReadWriteOnce volume, GPUs or in-memory sessions: a second pod there is a second primary, a stuck pod, a second GPU bill or split sessions, not more of the same.',
    example: ordersDeployment().replace('replicas: 3', 'replicas: 1'),
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      if (resource.kind !== 'Deployment' && resource.kind !== 'StatefulSet') continue;
      if (isClusterAddon(resource) || isHelmHook(resource)) continue;
      const replicas = resource.object?.spec?.replicas;
      if (writtenNotInteger(replicas)) {
        reportNotInteger(resource, replicas, report);
        continue;
      }
      const count = inventory.effectiveReplicas(resource);
      if (count.heldBy) {
        if (count.value === 1) reportHeld(resource, count, count.heldBy, report);
        continue;
      }
      if (replicas !== undefined && replicas !== null && replicas !== 1) continue;
      if (inventory.hpasTargeting(resource).length > 0) continue;
      const stated = replicas === 1 ? 'replicas: 1' : 'no replicas field (the default is 1)';
      const reason = singletonReason(resource);
      report({
        resource,
        path: replicas === 1 ? ['spec', 'replicas'] : [],
        message: `${describeResource(resource)} runs 1 pod: one node drain or node failure takes it offline. With ${stated}, ${OUTAGE[resource.kind === 'StatefulSet' ? 'StatefulSet' : 'Deployment']}, and while the control plane is down it is not replaced at all.${reason ? ` No quick fix: ${reason}.` : ''}`,
        fixes: () => replicasFix(resource, inventory),
      });
    }
  },
};

/** One pod by KEDA's paused-replicas: its replicas field counts for nothing, and raising it is no fix. */
function reportHeld(resource: Resource, count: EffectiveReplicas, scaledObject: Resource, report: RuleContext['report']): void {
  report({
    resource,
    message: `${describeResource(resource)} runs 1 pod: one node drain or node failure takes it offline. ${describeAutoscaler(scaledObject)} is paused with paused-replicas "1": KEDA holds it at 1 replica whatever its replicas field says, so ${OUTAGE[resource.kind === 'StatefulSet' ? 'StatefulSet' : 'Deployment']}, and while the control plane is down it is not replaced at all. Raise paused-replicas, or remove it to have KEDA scale the workload again.`,
    related: countSetBy(count),
  });
}

/** A replica count the API server cannot decode (`replicas: "3"`, `2.5`): it rejects the workload, which then runs nothing. */
function reportNotInteger(resource: Resource, replicas: unknown, report: RuleContext['report']): void {
  report({
    resource,
    path: ['spec', 'replicas'],
    target: 'value',
    message: `${describeResource(resource)}: replicas ${shownValue(replicas)} is no integer: the API server rejects the whole ${resource.kind}, so it runs no pod at all. The replica count is a number.`,
    fixes: () => [numberForDigits(resource, ['spec', 'replicas'], replicas)],
  });
}
