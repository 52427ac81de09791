import { setField } from '../fixes/yaml-edit';
import { describeSelectedReplicas } from '../inventory/inventory';
import { pdbBudget, writtenBudgetFields } from '../manifest/pdb';
import type { Resource } from '../manifest/parse';
import { describeResource } from '../manifest/workload';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import { oneAtATime } from './pdb-counting';
import type { Rule, RuleContext } from './types';

export const pdbNoBudget: Rule = {
  meta: {
    id: 'pdb-no-budget',
    severity: 'warning',
    scenario: 'voluntary-disruption',
    title: 'PodDisruptionBudget states no budget, so it allows no eviction',
    description:
      'A PodDisruptionBudget with neither minAvailable nor maxUnavailable looks harmless and blocks everything: the disruption controller computes the pods it expects only from one of those fields, so it expects 0, and a PDB that expects 0 pods is given `disruptionsAllowed: 0`. Every eviction of a selected pod then fails (the eviction API answers 429), so node drains hang and the cluster autoscaler never removes the nodes those pods run on. This holds in policy/v1 and in the old policy/v1beta1 alike: no API version defaults a budget. A budget written in a form the API server rejects (a string that is not a percentage, such as the `\"2\"` a Helm `| quote` writes, a fraction, a negative number, a percentage over 100%) is reported too, as is one that writes both fields: such a PDB is never created, and the pods it was written for have none.',
    fix: 'Adds `maxUnavailable: 1` (one pod at a time), which is what such a PDB is usually meant to say; over bare pods, which the disruption controller counts only against a whole-number minAvailable, `minAvailable` one below their count, and nothing for the pods of a DaemonSet or a Job, whose count is the cluster\'s. A whole number written as a string is written as the number.',
    example: documents(ordersDeployment(), examplePdb('')),
  },
  check({ resources, inventory, report }) {
    for (const pdb of resources) {
      if (pdb.kind !== 'PodDisruptionBudget') continue;
      const fields = writtenBudgetFields(pdb);
      if (fields.length === 2) reportBothBudgets(pdb, report);
      else if (fields.length === 1 && !pdbBudget(pdb)) reportRejectedBudget(pdb, fields[0], report);
      if (fields.length) continue;
      const expected = inventory.expectedPods(pdb);
      const guarded = expected.workloads;
      const next = oneAtATime(expected);
      const pods = guarded.length ? `the pods of ${guarded.map(({ workload, replicas, selected }) => (workload.kind === 'Pod' ? describeResource(workload) : `${describeResource(workload)} (${describeSelectedReplicas(selected, replicas)})`)).join(', ')}` : 'every pod it selects';
      report({
        resource: pdb,
        path: ['spec'],
        message: `${describeResource(pdb)} states no budget, so it allows no eviction: node drains block. It sets neither minAvailable nor maxUnavailable: the disruption controller then expects 0 pods and allows no eviction (disruptionsAllowed 0, in policy/v1 and v1beta1 alike), so every node drain blocks on ${pods} and the autoscaler cannot remove their nodes.`,
        fixes: () => [next && { title: `Allow one pod at a time (${next.field}: ${next.value})`, preferred: true, edits: setField(pdb, ['spec', next.field], next.value, 'start') ?? [] }],
      });
    }
  },
};

/**
 * A budget written in a form the API server rejects (a string that is no percentage, such as the `"2"` a Helm
 * `| quote` writes; a fraction; below 0 or over 100%): the PDB is never created, so the pods it was written for have none.
 */
function reportRejectedBudget(pdb: Resource, field: string, report: RuleContext['report']): void {
  const written = pdb.object.spec[field];
  const whole = typeof written === 'string' && /^\s*\d+\s*$/.test(written) ? Number(written) : undefined;
  report({
    resource: pdb,
    path: ['spec', field],
    target: 'value',
    message: `${describeResource(pdb)}: ${field} ${JSON.stringify(written)} is rejected by the API server, so the PDB is never created. A budget is a whole number from 0, or a string that is a percentage up to 100% ("50%"); applying this one fails, and the pods it was written for have no budget: a drain may evict them all at once.`,
    fixes: () => [whole !== undefined ? { title: `Write ${field}: ${whole} (a number)`, preferred: true, edits: setField(pdb, ['spec', field], whole) ?? [] } : undefined],
  });
}

/** Both budgets written: the API server rejects the PDB ("minAvailable and maxUnavailable cannot be both set"). */
function reportBothBudgets(pdb: Resource, report: RuleContext['report']): void {
  const { minAvailable, maxUnavailable } = pdb.object.spec;
  report({
    resource: pdb,
    path: ['spec', 'maxUnavailable'],
    message: `${describeResource(pdb)} sets both minAvailable ${JSON.stringify(minAvailable)} and maxUnavailable ${JSON.stringify(maxUnavailable)}: the API server rejects it, so the PDB is never created. Keep the one that says what the pods need; applying this one fails, and the pods it was written for have no budget.`,
  });
}
