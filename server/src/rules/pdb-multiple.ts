import { sameObject } from '../inventory/inventory';
import { rejectedPdb } from '../manifest/pdb';
import type { Resource } from '../manifest/parse';
import { describeResource } from '../manifest/workload';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import type { Rule } from './types';

export const pdbMultiple: Rule = {
  meta: {
    id: 'pdb-multiple',
    severity: 'error',
    scenario: 'voluntary-disruption',
    title: 'Several PodDisruptionBudgets select the same pods',
    description:
      'The eviction API refuses to evict a pod that more than one PodDisruptionBudget selects ("This pod has more than one PodDisruptionBudget, which the eviction subresource does not support"), whatever the budgets say. A node drain then retries those pods forever, and the cluster autoscaler never removes their nodes. Each pod must be selected by at most one PDB.',
    example: documents(ordersDeployment(), examplePdb('  maxUnavailable: 1\n'), examplePdb('  minAvailable: 2\n', 'orders-min')),
  },
  check({ resources, inventory, report }) {
    for (const pdb of resources) {
      // A PDB the API server rejects is never created: it shares no pod (pdb-no-budget says why).
      if (pdb.kind !== 'PodDisruptionBudget' || rejectedPdb(pdb)) continue;
      const shared = new Map<Resource, Resource[]>();
      for (const workload of inventory.workloadsSelectedBy(pdb)) {
        // Another definition of this very PDB (written twice, or once per environment's folder) is no other PDB.
        const others = inventory.pdbsSelecting(workload).filter((other) => !sameObject(other, pdb) && !rejectedPdb(other));
        if (others.length > 0) shared.set(workload, others);
      }
      if (shared.size === 0) continue;
      const otherPdbs = [...new Set([...shared.values()].flat())];
      const workloads = [...shared.keys()];
      report({
        resource: pdb,
        path: ['spec', 'selector'],
        message: `${describeResource(pdb)} shares its pods with ${otherPdbs.length === 1 ? 'another PDB' : `${otherPdbs.length} other PDBs`}: every node drain hangs on them. ${describeResource(pdb)} and ${otherPdbs.map(describeResource).join(', ')} ${otherPdbs.length === 1 ? 'both' : 'all'} select the pods of ${workloads.map(describeResource).join(', ')}, and the eviction API refuses to evict pods with more than one PDB. Keep one PDB per pod.`,
        related: [
          ...otherPdbs.map((other) => ({ resource: other, path: ['spec', 'selector'], message: 'also selects these pods' })),
          ...workloads.map((workload) => ({ resource: workload, message: 'its pods are selected by several PDBs' })),
        ],
      });
    }
  },
};
