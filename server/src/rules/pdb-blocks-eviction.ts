import { replaceField } from '../fixes/yaml-edit';
import { describeSelectedReplicas, type ExpectedPods } from '../inventory/inventory';
import { countSetBy } from './count-set-by';
import { blocksAlways, countedAgainstControllers, describeBudget, disruptionsAllowed, pdbBudget, type PdbBudget } from '../manifest/pdb';
import type { Resource } from '../manifest/parse';
import { describeResource } from '../manifest/workload';
import { oneAtATime, picksSomePods, unscaledBy } from './pdb-counting';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import type { Fix } from '../fixes/edit';
import type { Rule, RuleContext } from './types';

/** `Deployment web: 3 replicas` for one workload, `5 pods of Deployment a, StatefulSet b` for several; `1 pod of 3 replicas` picked out. */
function describeGuarded(expected: ExpectedPods): string {
  if (expected.workloads.length === 1) {
    const [{ workload, replicas, selected }] = expected.workloads;
    if (expected.count === undefined) return `${describeResource(workload)}: ${workload.kind === 'DaemonSet' ? 'one pod per node' : 'its pods'}`;
    return `${describeResource(workload)}: ${workload.kind === 'Pod' ? 'a bare pod' : describeSelectedReplicas(selected, replicas)}`;
  }
  const names = describeWorkloads(expected);
  if (expected.count === undefined) return names;
  return picksSomePods(expected) ? `${expected.selected} of the ${expected.count} pods of ${names}` : `${expected.count} pods of ${names}`;
}

function describeWorkloads(expected: ExpectedPods): string {
  return expected.workloads.map(({ workload }) => describeResource(workload)).join(', ');
}

/** Why a budget over a few pods of a StatefulSet wants more of them than it selects: what it is counted against. */
function countedAgainst(budget: PdbBudget, expected: ExpectedPods): string {
  if (!picksSomePods(expected) || !countedAgainstControllers(budget) || blocksAlways(budget)) return '';
  return ` The disruption controller counts ${describeBudget(budget)} against all ${expected.count} pods of ${describeWorkloads(expected)}, not the ${expected.selected} this PDB selects.`;
}

function blocks(budget: PdbBudget, expected: ExpectedPods): boolean {
  // Workloads in view all scaled to zero by hand have no pod for a drain to wait on (once scaled up, the finding comes
  // back); an autoscaler's floor of 0 (KEDA's) is no such count: its pods come up with load, when drains meet them.
  if (expected.count === 0 && expected.workloads.length > 0 && !expected.workloads.some(({ replicas }) => replicas.hpa)) return false;
  if (blocksAlways(budget)) return true;
  return expected.count !== undefined && expected.count > 0 && disruptionsAllowed(budget, expected.count, expected.selected) === 0;
}

function reportUnscaled(pdb: Resource, budget: PdbBudget, workload: Resource, expected: ExpectedPods, report: RuleContext['report']): void {
  // A CronJob's pods are its Jobs': their controller is the Job.
  const controller = workload.kind === 'CronJob' ? 'Job (what a CronJob\'s pods belong to)' : workload.kind;
  const what = workload.kind === 'Pod' ? 'a bare pod, which no controller scales, counts for none' : `a ${controller} has no scale it can read, so the count fails`;
  report({
    resource: pdb,
    path: ['spec', budget.field],
    message: `${describeResource(pdb)} allows 0 evictions: every node drain blocks on the pods of ${describeResource(workload)}. The disruption controller counts ${describeBudget(budget)} against the pods' controllers, and ${what}: it then allows no disruption at all. A whole-number minAvailable is counted against the pods themselves.`,
    related: [{ resource: workload, message: 'the pods this PDB guards' }],
    fixes: () => [oneAtATimeFix(pdb, budget, expected)],
  });
}

/** The budget written in place of this one that lets drains evict one pod at a time (see oneAtATime), when there is one. */
function oneAtATimeFix(pdb: Resource, budget: PdbBudget, expected: ExpectedPods): Fix | undefined {
  const next = oneAtATime(expected);
  if (!next) return undefined;
  return {
    title: `Allow one pod at a time (${next.field}: ${next.value})`,
    preferred: true,
    unsafe: blocksAlways(budget) ? WRITTEN_AS_NONE : picksSomePods(expected) ? PICKED_OUT : undefined,
    edits: replaceField(pdb, ['spec', budget.field], next.field, next.value) ?? [],
  };
}

/** A budget of none that the author wrote as such: relaxing it is a decision, not a correction. */
const WRITTEN_AS_NONE = 'lets drains evict one pod at a time where the budget was written to allow none: check that no pod here must stay up (a database primary, a singleton)';

/** A budget over pods picked out of a StatefulSet by name or index: they were chosen, and may be meant to stay. */
const PICKED_OUT = 'lets drains evict one at a time the pods this budget picks out of their StatefulSet by name or index: check that none of them must stay up (a database primary)';

export const pdbBlocksEviction: Rule = {
  meta: {
    id: 'pdb-blocks-eviction',
    severity: 'warning',
    scenario: 'voluntary-disruption',
    title: 'PodDisruptionBudget allows no eviction at all',
    description:
      'A PodDisruptionBudget that allows 0 disruptions (maxUnavailable 0 or "0%", minAvailable "100%", or a minAvailable that, rounded up against the expected pods as the disruption controller does, reaches the replica count) makes every eviction of those pods fail. A budget of none is reported even when none of the pods it selects is in view: it blocks whatever it selects. Node drains for upgrades and maintenance then hang until someone deletes a pod or the PDB by hand, and the cluster autoscaler never removes the nodes they run on. The replica count is the HPA\'s minReplicas when an HPA targets the workload (a KEDA ScaledObject\'s minReplicaCount when one scales it). A maxUnavailable or a percentage over the pods of a DaemonSet, a Job or bare pods allows no eviction either: the disruption controller counts it against the pods\' controllers, and those have no scale it can read. A PDB that picks some pods of a StatefulSet out by the labels its controller gives them (`statefulset.kubernetes.io/pod-name: db-0`, `apps.kubernetes.io/pod-index`) guards those pods only, and is counted as the disruption controller counts it: a whole-number minAvailable against the pods it selects, a maxUnavailable or a percentage against all the StatefulSet\'s replicas (maxUnavailable 1 over one pod of 3 wants 2 healthy, and allows none).',
    fix: 'Replaces the budget with `maxUnavailable: 1`; over bare pods, which the disruption controller counts only against a whole-number minAvailable, and over pods picked out of a StatefulSet, with `minAvailable` one below their count. None is offered for the pods of a DaemonSet or a Job, whose count is the cluster\'s.',
    unsafeFixes: 'Unsafe when the budget is written as none (`maxUnavailable: 0` or `"0%"`, `minAvailable: "100%"`): someone may have meant it, for a database primary or a singleton, so the fix is offered and applied only with `--unsafe-fixes`. A `minAvailable` that merely reaches the replica count is fixed safely. Unsafe too over pods picked out of a StatefulSet by name or index: they were chosen, perhaps to stay up.',
    example: documents(ordersDeployment(), examplePdb('  minAvailable: 90%\n')),
  },
  check({ resources, inventory, report }) {
    for (const pdb of resources) {
      if (pdb.kind !== 'PodDisruptionBudget') continue;
      const budget = pdbBudget(pdb);
      if (!budget) continue;
      const expected = inventory.expectedPods(pdb);
      const unscaled = unscaledBy(budget, expected);
      if (unscaled) {
        reportUnscaled(pdb, budget, unscaled, expected, report);
        continue;
      }
      // A budget of none blocks whatever it selects, so it is reported even with none of its pods in view.
      if (!blocks(budget, expected)) continue;
      const scaled = describeBudget(budget, expected.workloads.length ? expected.count : undefined);
      const drains = expected.workloads.length === 1 ? `every node drain blocks on this ${expected.workloads[0].workload.kind}` : 'every node drain blocks on these pods';
      const message = expected.workloads.length
        ? `${describeResource(pdb)} allows 0 evictions: ${drains}. ${describeGuarded(expected)}, PDB ${scaled}: a drain waits until a pod is deleted by hand, and the autoscaler cannot remove its nodes.${countedAgainst(budget, expected)}`
        : `${describeResource(pdb)} allows 0 evictions: every node drain blocks on the pods it selects. It has ${scaled}, whatever pods it selects: a drain waits on each of them until it is deleted by hand, and the autoscaler cannot remove their nodes.`;
      report({
        resource: pdb,
        path: ['spec', budget.field],
        message,
        fixes: () => [oneAtATimeFix(pdb, budget, expected)],
        related: expected.workloads.flatMap(({ workload, replicas, selected }) => [
          { resource: workload, path: workload.object?.spec?.replicas === undefined ? [] : ['spec', 'replicas'], message: `the pods this PDB guards (${describeSelectedReplicas(selected, replicas)})` },
          ...countSetBy(replicas, workload),
        ]),
      });
    }
  },
};
