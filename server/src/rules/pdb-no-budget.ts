import { setField } from '../fixes/yaml-edit';
import { statesBudget } from '../manifest/pdb';
import { describeResource } from '../manifest/workload';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import type { Rule } from './types';

export const pdbNoBudget: Rule = {
  meta: {
    id: 'pdb-no-budget',
    severity: 'warning',
    scenario: 'voluntary-disruption',
    title: 'PodDisruptionBudget states no budget',
    description:
      'A policy/v1 PodDisruptionBudget with neither minAvailable nor maxUnavailable requires no pod to stay healthy: the disruption controller allows as many evictions as there are healthy pods, so a node drain or an autoscaler scale-down may take every selected pod at once, exactly as if there were no PDB. It looks like protection and is none. (The old policy/v1beta1 defaulted such a PDB to minAvailable 1, and is not reported.)',
    fix: 'Adds `maxUnavailable: 1`.',
    example: documents(ordersDeployment(), examplePdb('')),
  },
  check({ resources, report }) {
    for (const pdb of resources) {
      if (pdb.kind !== 'PodDisruptionBudget' || statesBudget(pdb)) continue;
      report({
        resource: pdb,
        path: ['spec'],
        message: `${describeResource(pdb)} sets neither minAvailable nor maxUnavailable: it allows every selected pod to be evicted at once, so a node drain can take them all down together.`,
        fixes: () => [{ title: 'Allow one pod at a time (maxUnavailable: 1)', preferred: true, edits: setField(pdb, ['spec', 'maxUnavailable'], 1, 'start') ?? [] }],
      });
    }
  },
};
