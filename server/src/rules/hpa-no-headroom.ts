import { describeResource, hpaScalingDisabled, rejectedHpa } from '../manifest/workload';
import { exampleHpa } from './example-disruption';
import type { Rule } from './types';

export const hpaNoHeadroom: Rule = {
  meta: {
    id: 'hpa-no-headroom',
    severity: 'info',
    scenario: 'involuntary-disruption',
    title: 'HPA cannot scale out',
    description:
      'An HPA whose `maxReplicas` is not above its `minReplicas` can never add a pod: a load surge, or the extra load on the survivors when a node with some replicas dies, finds no headroom, and the autoscaler only reports that it is limited. Either give it room above the floor or drop the HPA and set the replica count directly. A `maxReplicas` below `minReplicas` (or below 1) is reported as what it is: the API server rejects the HPA, so it is never created.',
    example: exampleHpa('  minReplicas: 3\n  maxReplicas: 3\n'),
  },
  check({ resources, inventory, report }) {
    for (const hpa of resources) {
      if (hpa.kind !== 'HorizontalPodAutoscaler') continue;
      const { minReplicas, maxReplicas } = hpa.object?.spec ?? {};
      const min = typeof minReplicas === 'number' ? minReplicas : 1;
      if (typeof maxReplicas !== 'number' || maxReplicas > min) continue;
      const target = inventory.scaleTargetOf(hpa);
      // A target scaled to zero on purpose is one the HPA does not scale at all.
      if (target && hpaScalingDisabled(target, hpa)) continue;
      const floor = `minReplicas ${min}${typeof minReplicas === 'number' ? '' : ' (the default)'}`;
      report({
        resource: hpa,
        path: ['spec', 'maxReplicas'],
        message: rejectedHpa(hpa)
          ? `${describeResource(hpa)}: maxReplicas ${maxReplicas} is below ${maxReplicas < 1 ? '1' : floor}: the API server rejects it, so the HPA is never created, and its workload runs the replicas it states.`
          : `${describeResource(hpa)}: maxReplicas ${maxReplicas} ≤ ${floor}: it can never add a pod. A load surge or the loss of a node finds no headroom.`,
        related: target ? [{ resource: target, message: 'the workload this HPA scales' }] : [],
      });
    }
  },
};
