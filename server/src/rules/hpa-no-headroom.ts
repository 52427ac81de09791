import { numberForDigits } from '../fixes/number-for-digits';
import { shownValue } from '../manifest/integer-field';
import { autoscalerBounds, boundNotInteger, describeAutoscaler, inertAutoscaler, isAutoscaler } from '../manifest/autoscaler';
import { isScaledObject, pausedScaledObject } from '../manifest/scaled-object';
import { hpaScalingDisabled } from '../manifest/workload';
import { exampleHpa } from './example-disruption';
import type { Rule } from './types';

export const hpaNoHeadroom: Rule = {
  meta: {
    id: 'hpa-no-headroom',
    severity: 'info',
    scenario: 'involuntary-disruption',
    title: 'HPA cannot scale out',
    description:
      'An HPA whose `maxReplicas` is not above its `minReplicas` can never add a pod: a load surge, or the extra load on the survivors when a node with some replicas dies, finds no headroom, and the autoscaler only reports that it is limited. Either give it room above the floor or drop the HPA and set the replica count directly. A `maxReplicas` below `minReplicas` (or below 1) is reported as what it is: the API server rejects the HPA, so it is never created. A KEDA ScaledObject is read by its `minReplicaCount` (default 0) and `maxReplicaCount` (default 100): KEDA refuses one whose maximum is below its minimum, and makes no HPA. A bound written as no integer (`minReplicas: "2"`, `2.5`) is reported too: the API server cannot decode it and rejects the object; digits in quotes are written as the number.',
    example: exampleHpa('  minReplicas: 3\n  maxReplicas: 3\n'),
  },
  check({ resources, inventory, report }) {
    for (const hpa of resources) {
      // A paused ScaledObject scales nothing: KEDA removes its HPA.
      if (!isAutoscaler(hpa) || (isScaledObject(hpa) && pausedScaledObject(hpa))) continue;
      const target = inventory.scaleTargetOf(hpa);
      const related = target ? [{ resource: target, message: `the workload this ${isScaledObject(hpa) ? 'ScaledObject' : 'HPA'} scales` }] : [];
      const notInteger = boundNotInteger(hpa);
      if (notInteger) {
        report({
          resource: hpa,
          path: ['spec', notInteger.field],
          target: 'value',
          message: `${describeAutoscaler(hpa)}: ${notInteger.field} ${shownValue(notInteger.value)} is no integer: the API server rejects it, so it never scales anything, and its workload runs the replicas it states.`,
          related,
          fixes: () => [numberForDigits(hpa, ['spec', notInteger.field], notInteger.value)],
        });
        continue;
      }
      // The headroom of a ScaledObject is above its floor while it scales, not its idle count.
      const { activeMin: min, max, minField, maxField } = autoscalerBounds(hpa);
      if (max === undefined || max > min) continue;
      // A target scaled to zero on purpose is one the HPA does not scale at all.
      if (target && hpaScalingDisabled(target, hpa)) continue;
      const floor = `${minField} ${min}${typeof hpa.object?.spec?.[minField] === 'number' ? '' : ' (the default)'}`;
      const keda = isScaledObject(hpa);
      const refusedBy = keda ? 'KEDA refuses it, so it makes no HPA' : 'the API server rejects it, so the HPA is never created';
      report({
        resource: hpa,
        path: ['spec', maxField],
        message:
          inertAutoscaler(hpa) && (max < min || max < 1)
            ? `${describeAutoscaler(hpa)}: ${maxField} ${max} is below ${max < 1 ? '1' : floor}: ${refusedBy}, and its workload runs the replicas it states.`
            : `${describeAutoscaler(hpa)}: ${maxField} ${max} ≤ ${floor}: it can never add a pod. A load surge or the loss of a node finds no headroom.`,
        related,
      });
    }
  },
};
