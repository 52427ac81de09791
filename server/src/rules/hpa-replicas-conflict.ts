import { removeField } from '../fixes/yaml-edit';
import { autoscalerBounds, describeAutoscaler } from '../manifest/autoscaler';
import type { Resource } from '../manifest/parse';
import { isScaledObject } from '../manifest/scaled-object';
import { describeResource, hpaPausedBy, isScalable } from '../manifest/workload';
import { documents, exampleHpa, ordersDeployment } from './example-disruption';
import type { Rule } from './types';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The replica count the person wrote. A workload read from a cluster always has spec.replicas (the
 * API server defaults it and the HPA writes it), so there only what `kubectl apply` last sent counts.
 */
function writtenReplicas(workload: Resource): unknown {
  if (workload.node) return workload.object?.spec?.replicas;
  const applied = workload.object?.metadata?.annotations?.[LAST_APPLIED];
  if (typeof applied !== 'string') return undefined;
  try {
    return JSON.parse(applied)?.spec?.replicas;
  } catch {
    return undefined;
  }
}

// Said of the fix wherever it is offered: applied as it stands, it can stop every pod but one.
const ONE_TIME_DROP = 'the first client-side kubectl apply without it deletes spec.replicas from the live object, which then runs 1 pod until the HPA scales out again: run kubectl apply edit-last-applied (remove it there) first';

export const hpaReplicasConflict: Rule = {
  meta: {
    id: 'hpa-replicas-conflict',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'Workload sets replicas while an HPA scales it',
    description:
      'When a HorizontalPodAutoscaler owns a workload\'s scale, a `spec.replicas` in the manifest fights it: every `kubectl apply` or GitOps sync writes the manifest\'s number back, so a workload the HPA had scaled out for load drops to that number until the HPA notices and scales again, in the middle of the surge it was handling. The Kubernetes documentation advises removing `spec.replicas` from manifests of autoscaled workloads. A KEDA ScaledObject owns the scale as the HPA it makes does (between its minReplicaCount and maxReplicaCount).',
    fix: 'Removes `spec.replicas`.',
    unsafeFixes:
      'Always unsafe: the first client-side `kubectl apply` without the field deletes it from the live object, where it then defaults to 1, and every pod but one is stopped until the HPA scales out again (the Kubernetes documentation warns of this one-time drop). Remove the field from the live object first (`kubectl apply edit-last-applied`, or a server-side apply that hands the field over to the HPA), then from the manifest.',
    example: documents(ordersDeployment(), exampleHpa('  minReplicas: 2\n  maxReplicas: 10\n')),
  },
  check({ resources, inventory, report }) {
    for (const workload of resources) {
      const replicas = writtenReplicas(workload);
      if (!isScalable(workload) || replicas === undefined || replicas === null) continue;
      const hpa = inventory.hpasTargeting(workload)[0];
      // replicas: 0 under an HPA with a floor is how its scaling is paused (the HPA controller leaves the target alone);
      // under one that scales to zero it is a conflict like any other.
      if (!hpa || hpaPausedBy(replicas, hpa)) continue;
      const { min, max } = autoscalerBounds(hpa);
      report({
        resource: workload,
        path: ['spec', 'replicas'],
        message: `${describeResource(workload)} sets replicas: ${replicas} under an autoscaler: every apply resets its scale to ${replicas}. ${describeAutoscaler(hpa)} scales it between ${min} and ${max ?? '?'}; each apply undoes that until the autoscaler reacts again.`,
        fixes: () => [{ title: `Leave the scale to ${isScaledObject(hpa) ? 'KEDA' : 'the HPA'} (remove spec.replicas)`, preferred: true, unsafe: ONE_TIME_DROP, edits: removeField(workload, ['spec', 'replicas']) ?? [] }],
        related: [{ resource: hpa, path: ['spec', 'scaleTargetRef'], message: 'scales this workload' }],
      });
    }
  },
};
