import { moreReplicasRisk } from '../fixes/safety';
import { setField } from '../fixes/yaml-edit';
import type { Inventory } from '../inventory/inventory';
import { autoscalerBounds, autoscales, describeAutoscaler, inertAutoscaler, isAutoscaler, scaleTargetRefOf } from '../manifest/autoscaler';
import type { Resource } from '../manifest/parse';
import { isScaledObject } from '../manifest/scaled-object';
import { hpaScalingDisabled, isWorkload, workloadKindWithoutScale } from '../manifest/workload';
import { exampleHpa } from './example-disruption';
import type { Rule } from './types';

const FLOOR = 2;

/**
 * The maxReplicas the fix writes beside minReplicas 2, or undefined to leave it: one below the floor is raised
 * to it (the API rejects a maximum below the minimum), and one at the floor, which left the HPA room for one
 * more pod, keeps that room (minReplicas 2 of 2 would never scale).
 */
function maxReplicasWith(max: unknown): number | undefined {
  if (typeof max !== 'number' || max > FLOOR) return undefined;
  return max < FLOOR ? FLOOR : FLOOR + 1;
}

export const hpaMinOne: Rule = {
  meta: {
    id: 'hpa-min-one',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'HPA may scale down to one pod',
    description:
      'An HPA with `minReplicas` unset or 1 scales the workload down to a single pod whenever load is low. That pod is then a single point of failure: a node failure or drain leaves no ready pod until a replacement starts, and while the control plane is down the HPA cannot scale at all, so `minReplicas` is all the capacity there is. A KEDA ScaledObject with `minReplicaCount: 1` is the same (KEDA makes an HPA of that floor); one with `minReplicaCount` 0, its default, scales to zero on purpose and is not reported.',
    fix: 'Sets `minReplicas: 2` (a ScaledObject\'s `minReplicaCount: 2`); a `maxReplicas` of 1 becomes 2 (the API rejects a maximum below the minimum), and one of 2 becomes 3, so that the HPA can still add a pod.',
    unsafeFixes: 'Unsafe when the workload it scales is a StatefulSet, a single-primary store image (redis, mysql, postgres, mongo, …), or has a ReadWriteOnce volume, GPUs or in-memory sessions: a second pod there changes what the app does or doubles its GPUs. Unsafe too when that workload is not among the resources read: nothing tells it is none of those.',
    example: exampleHpa('  minReplicas: 1\n  maxReplicas: 10\n'),
  },
  check({ resources, inventory, report }) {
    for (const hpa of resources) {
      if (!isAutoscaler(hpa)) continue;
      const spec = hpa.object?.spec ?? {};
      const bounds = autoscalerBounds(hpa);
      const min = spec[bounds.minField];
      // A ScaledObject's default floor is 0: scaled to zero on purpose, not to one pod.
      if (bounds.min !== 1 || (min !== undefined && min !== null && min !== 1)) continue;
      // One the API server rejects is never created (hpa-no-headroom says so); one that cannot scale what it names (a
      // DaemonSet, a ref without the workload's API group: FailedGetScale) runs no pod of it. A paused ScaledObject scales nothing.
      if (inertAutoscaler(hpa)) continue;
      const target = scalableTarget(hpa, inventory);
      if (target === null) continue;
      // A target scaled to zero on purpose is one the HPA does not scale at all.
      if (target && hpaScalingDisabled(target, hpa)) continue;
      const ref = scaleTargetRefOf(hpa);
      const targetName = ref ? ` of ${ref.kind ?? 'workload'} ${ref.name ?? ''}`.trimEnd() : '';
      // The headline stays within 100 characters whatever the HPA's name: what it sets is said after it.
      const stated = min === 1 ? `With ${bounds.minField} 1` : 'With no minReplicas (it defaults to 1)';
      const edits = [...(setField(hpa, ['spec', bounds.minField], FLOOR) ?? [])];
      const max = maxReplicasWith(spec[bounds.maxField]);
      if (max !== undefined) edits.push(...(setField(hpa, ['spec', bounds.maxField], max) ?? []));
      const keda = isScaledObject(hpa);
      report({
        resource: hpa,
        path: min === 1 ? ['spec', bounds.minField] : [],
        message: `${describeAutoscaler(hpa)} scales to 1 pod: a node failure takes it offline. ${stated}, at low load it runs 1 pod${targetName}, and while the control plane is down ${keda ? "KEDA's HPA" : 'the HPA'} cannot scale, so 1 pod is all the capacity there is.`,
        related: target ? [{ resource: target, message: `the workload this ${keda ? 'ScaledObject' : 'HPA'} scales` }] : [],
        fixes: () => [{ title: `Keep at least ${FLOOR} pods (${bounds.minField}: ${FLOOR}${max === undefined ? '' : `, ${bounds.maxField}: ${max}`})`, preferred: true, unsafe: target ? moreReplicasRisk(target, inventory) : unseenTarget(ref), edits }],
      });
    }
  },
};

/**
 * Why a second pod of a target that is not among the resources read may change what the app does: nothing tells it
 * is not a database (a database's HPA was raised as a safe fix when its StatefulSet was in another folder).
 */
function unseenTarget(ref: { kind?: unknown; name?: unknown } | undefined): string {
  const named = `${typeof ref?.kind === 'string' ? ref.kind : 'workload'}${typeof ref?.name === 'string' ? ` ${ref.name}` : ''}`;
  return `the ${named} it scales is not among the resources read: nothing tells what a second pod of it does (a database would get a second primary)`;
}

/**
 * The workload in view the autoscaler scales (see autoscales); undefined when it names none in view that it could scale;
 * null when it names what it cannot scale: one in view, or a kind that has no scale. One lookup, for both.
 */
function scalableTarget(hpa: Resource, inventory: Inventory): Resource | undefined | null {
  // A custom resource (an Argo Rollout) may have a scale of its own: named in view, it says no more than unseen.
  const named = inventory.namedBy(hpa).filter(isWorkload);
  if (named.length) return named.find((workload) => autoscales(hpa, workload)) ?? null;
  const kind = scaleTargetRefOf(hpa)?.kind;
  return typeof kind === 'string' && workloadKindWithoutScale(kind) ? null : undefined;
}
