import { moreReplicasRisk } from '../fixes/safety';
import { removeField, setField } from '../fixes/yaml-edit';
import type { Fix, TextEdit } from '../fixes/edit';
import { isObject } from '../is-object';
import { describeEveryPod, describeRunning, type Inventory } from '../inventory/inventory';
import { formatIntOrPercent } from '../manifest/int-or-percent';
import type { Resource } from '../manifest/parse';
import { recreateWithRollingUpdate, resolvedMaxUnavailable, rollingUpdateFenceposts } from '../manifest/rolling-update';
import { describeResource, isHelmHook } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import type { Rule, RuleContext } from './types';

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
    title: 'Every rollout stops all replicas at once (Recreate, or a maxUnavailable of them all)',
    description:
      'A Deployment with `strategy: Recreate` kills all its pods before it starts any new one, and a RollingUpdate whose maxUnavailable comes to its whole replica count (`100%`, or a number at or above the count; a percentage rounds down, as the Deployment controller rounds it) lets the controller stop them all at once while the new ones start. Either way every rollout (a new image, a changed ConfigMap reference, a label) is a full outage lasting as long as the new pods need to start and become ready, however many replicas there are. Recreate is right only when two versions must never run side by side; otherwise a rolling update that surges one pod keeps full capacity throughout. Rollout settings the API server refuses are not judged, since it never creates or changes a Deployment with them: a maxUnavailable or maxSurge that is negative or a string but no percentage (`"3"`), a maxUnavailable over 100%, or both 0. A Recreate that also sets `rollingUpdate` (to anything but no value) is refused too ("may not be specified when strategy `type` is \'Recreate\'") and judged no outage either: the refusal is said instead, at `rollingUpdate`.',
    fix: 'Sets `maxUnavailable: 0` and `maxSurge: 1`, and `type: RollingUpdate` in place of Recreate. A `rollingUpdate` beside Recreate is removed: Recreate never reads it, and the API server refuses it there.',
    unsafeFixes: 'Unsafe when a new pod beside the old ones changes what the app does: a single-primary store image, a ReadWriteOnce volume (the surge pod cannot mount it and the rollout stalls; often the very reason for Recreate or for letting every pod go), GPUs or in-memory sessions.',
    example: ordersDeployment().replace('  selector:', '  strategy:\n    type: Recreate\n  selector:'),
  },
  check({ resources, inventory, report }) {
    for (const deployment of resources) {
      if (deployment.kind !== 'Deployment' || isHelmHook(deployment)) continue;
      if (deployment.object?.spec?.strategy?.type === 'Recreate') checkRecreate(deployment, inventory, report);
      // Left unset, maxUnavailable is 25% rounded down: below every replica count.
      else if (deployment.object?.spec?.strategy?.rollingUpdate?.maxUnavailable != null) checkRollingUpdate(deployment, inventory, report);
    }
  },
};

const STRATEGY = ['spec', 'strategy'];

function checkRecreate(deployment: Resource, inventory: Inventory, report: RuleContext['report']): void {
  const replicas = inventory.effectiveReplicas(deployment);
  if (replicas.value < 2) return;
  if (recreateWithRollingUpdate(deployment)) {
    reportRefusedRollingUpdate(deployment, report);
    return;
  }
  report({
    resource: deployment,
    path: [...STRATEGY, 'type'],
    target: 'pair',
    message: `${describeResource(deployment)}: every rollout stops ${describeEveryPod(replicas.value)} at once, an outage per deploy. It runs ${describeRunning(replicas)} with strategy Recreate, which stops them all before starting new ones, so each deploy is down until the new pods are ready.`,
    fixes: () => [rollOnePodAtATime(deployment, inventory, setField(deployment, [...STRATEGY, 'type'], 'RollingUpdate') ?? [])],
  });
}

/**
 * A Recreate that sets rollingUpdate too: the API server rejects the Deployment, so no rollout of it stops anything.
 * Removing rollingUpdate keeps the Recreate written and changes no rollout (Recreate never reads it).
 */
function reportRefusedRollingUpdate(deployment: Resource, report: RuleContext['report']): void {
  const at = [...STRATEGY, 'rollingUpdate'];
  report({
    resource: deployment,
    path: at,
    target: 'key',
    message: `${describeResource(deployment)}: strategy Recreate sets rollingUpdate too, so the API server rejects it (rollingUpdate may not be specified when the type is Recreate). It refuses the whole Deployment, which then runs no pod at all. Recreate rolls nothing: remove rollingUpdate, or set type RollingUpdate to roll by it.`,
    fixes: () => [{ title: 'Remove rollingUpdate (Recreate reads none)', preferred: true, edits: removeField(deployment, at) ?? [] }],
  });
}

function checkRollingUpdate(deployment: Resource, inventory: Inventory, report: RuleContext['report']): void {
  const fenceposts = rollingUpdateFenceposts(deployment);
  if (!fenceposts) return;
  const replicas = inventory.effectiveReplicas(deployment);
  if (replicas.value < 2 || resolvedMaxUnavailable(fenceposts, replicas.value) < replicas.value) return;
  report({
    resource: deployment,
    path: [...STRATEGY, 'rollingUpdate', 'maxUnavailable'],
    target: 'value',
    message: `${describeResource(deployment)}: every rollout stops ${describeEveryPod(replicas.value)} at once, an outage per deploy. It runs ${describeRunning(replicas)} with RollingUpdate maxUnavailable ${formatIntOrPercent(fenceposts.maxUnavailable)}, which lets the controller stop them all while the new ones start, so each deploy is down until the new pods are ready.`,
    fixes: () => [rollOnePodAtATime(deployment, inventory, [])],
  });
}

/** The fix: a rolling update that starts one new pod before it stops an old one (with `typeEdits` that make the strategy roll). */
function rollOnePodAtATime(deployment: Resource, inventory: Inventory, typeEdits: TextEdit[]): Fix {
  return {
    title: 'Roll one pod at a time (RollingUpdate, maxUnavailable 0, maxSurge 1)',
    preferred: true,
    unsafe: besideTheOld(deployment, inventory),
    edits: [...typeEdits, ...rollingUpdateEdits(deployment, [...STRATEGY, 'rollingUpdate'])],
  };
}

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
