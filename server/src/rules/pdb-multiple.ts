import { sameObject, type Inventory } from '../inventory/inventory';
import { asksForClusterSetLabel, asksForControllerLabel } from '../manifest/controller-labels';
import type { LabelSelector } from '../manifest/selector';
import { pdbSelector, rejectedPdb } from '../manifest/pdb';
import type { Resource } from '../manifest/parse';
import { describeResource, podTemplateOf } from '../manifest/workload';
import { namesListed, namesUpTo, sentenceList } from '../words';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import type { Rule } from './types';

/**
 * The workloads some pod of which `pdb` shares with other PDBs through the labels controllers give their pods (a
 * budget for `db-0`, `statefulset.kubernetes.io/pod-name`, beside one for every pod of the StatefulSet), which the
 * template labels do not show. A selector naming a label only the cluster knows (`pod-template-hash`) is left to it.
 */
function sharedByControllerLabels(pdb: Resource, inventory: Inventory): Map<Resource, Resource[]> {
  const shared = new Map<Resource, Resource[]>();
  const selector = pdbSelector(pdb) as LabelSelector;
  if (asksForClusterSetLabel(selector)) return shared;
  // A budget by controller labels meets any other; one by template labels only those by controller labels.
  const candidates = asksForControllerLabel(selector) ? inventory.inNamespace(pdb.namespace, 'PodDisruptionBudget') : inventory.pdbsByControllerLabels(pdb.namespace);
  const others = candidates.filter((other) => !sameObject(other, pdb) && !rejectedPdb(other) && !asksForClusterSetLabel(pdbSelector(other)));
  if (others.length === 0) return shared;
  // Only the workloads `pdb` selects some pod of: every one of the namespace against every budget by pod names took 24 s
  // for 300 such budgets beside 1,000 others over 2,000 Deployments.
  for (const carrier of inventory.workloadsSelectedBy(pdb)) {
    const sharing = others.filter((other) => inventory.selectsSomePodOf(carrier, [selector, pdbSelector(other) as LabelSelector]));
    if (sharing.length) shared.set(carrier, sharing);
  }
  return shared;
}

/**
 * The workloads whose pods `pdb` shares with other PDBs when both select them by their template labels, so every pod of
 * them. One that picks pods out by the labels controllers give them (a StatefulSet's `db-0`) is compared pod by pod
 * (sharedByControllerLabels): a budget for db-0 and one for every pod of db but db-0 share none.
 */
function sharedByTemplateLabels(pdb: Resource, inventory: Inventory): Map<Resource, Resource[]> {
  const shared = new Map<Resource, Resource[]>();
  if (asksForControllerLabel(pdbSelector(pdb))) return shared;
  const isOther = otherByTemplateLabels(pdb, inventory);
  // Workloads whose pods carry the same labels in one file have the same PDBs: each such list is gone through once.
  const byLabels = new Map<string, Resource[]>();
  for (const workload of inventory.workloadsSelectedBy(pdb)) {
    const labels = `${workload.file?.uri}|${JSON.stringify(podTemplateOf(workload)?.labels ?? null)}`;
    let others = byLabels.get(labels);
    if (!others) byLabels.set(labels, (others = inventory.pdbsSelecting(workload).filter(isOther)));
    if (others.length > 0) shared.set(workload, others);
  }
  return shared;
}

/**
 * Whether a PDB is another than `pdb` that the API server accepts and that selects by template labels alone, each PDB
 * looked at once: hundreds of PDBs over one selector asked it of every PDB for every workload (250 of each: 15 million
 * times, 4 s).
 */
function otherByTemplateLabels(pdb: Resource, inventory: Inventory): (other: Resource) => boolean {
  const known = new Map<Resource, boolean>();
  const byControllerLabels = new Set(inventory.pdbsByControllerLabels(pdb.namespace));
  return (other) => {
    let answer = known.get(other);
    // Another definition of this very PDB (written twice, or once per environment's folder) is no other PDB.
    if (answer === undefined) known.set(other, (answer = !sameObject(other, pdb) && !rejectedPdb(other) && !byControllerLabels.has(other)));
    return answer;
  };
}

/** The most PDBs and workloads the message names (hundreds over one selector made a message of 13,000 characters). */
const MAX_NAMED = 5;

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
      const shared = sharedByTemplateLabels(pdb, inventory);
      for (const [workload, others] of sharedByControllerLabels(pdb, inventory)) shared.set(workload, [...new Set([...(shared.get(workload) ?? []), ...others])]);
      if (shared.size === 0) continue;
      const otherPdbs = [...new Set([...new Set(shared.values())].flat())];
      const workloads = [...shared.keys()];
      report({
        resource: pdb,
        path: ['spec', 'selector'],
        message: `${describeResource(pdb)} shares its pods with ${otherPdbs.length === 1 ? 'another PDB' : `${otherPdbs.length} other PDBs`}: every node drain hangs on them. ${sentenceList([describeResource(pdb), ...namesUpTo(otherPdbs.map(describeResource), MAX_NAMED)])} ${otherPdbs.length === 1 ? 'both' : 'all'} select the pods of ${namesListed(workloads.map(describeResource), MAX_NAMED)}, and the eviction API refuses to evict pods with more than one PDB. Keep one PDB per pod.`,
        // The workloads first: a finding keeps 20 related locations (see MAX_RELATED), and 20 other PDBs cut them all.
        related: [
          ...workloads.map((workload) => ({ resource: workload, message: 'its pods are selected by several PDBs' })),
          ...otherPdbs.map((other) => ({ resource: other, path: ['spec', 'selector'], message: 'also selects these pods' })),
        ],
      });
    }
  },
};
