import { appendDocument } from '../fixes/yaml-edit';
import { describeEveryPod, describeReplicas, inOneFolder, ownedByAnother, type Inventory } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import type { Resource } from '../manifest/parse';
import { describeResource, isHelmHook, podTemplateOf, workloadSelector } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import type { Rule } from './types';

/** The PodDisruptionBudget the fix writes: `name` (see pdbNameFor), `selector` (see pdbSelectorFor), one pod at a time. */
export function pdbFor(workload: Resource, name: string, selector: unknown): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name };
  const namespace = workload.object?.metadata?.namespace;
  if (typeof namespace === 'string' && namespace) metadata.namespace = namespace;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata,
    spec: { maxUnavailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow', selector },
  };
}

/**
 * The name a new PDB of the workload takes: `<name>-pdb`; `<name>-<kind>-pdb` when another workload of that name is
 * defined in its folder (a Deployment and a StatefulSet `web`, fixed in one go, both wrote `web-pdb`); and when a PDB
 * applied with it (from its folder, or the live cluster) has that name already, the first of `-2`, `-3`… that is free.
 * Applied, a second PDB of one name in a namespace replaces the first: a budget would be lost.
 */
export function pdbNameFor(workload: Resource, inventory: Inventory): string {
  const name = workload.name ?? 'workload';
  // Another workload of the folder that names its own new PDB `<its name>-pdb`.
  const workloadIn = (named: string) => inventory.namedIn(workload.namespace, named).some((r) => r !== workload && inOneFolder(r, workload) && podTemplateOf(r));
  const twin = inventory.namedIn(workload.namespace, name).some((r) => r.kind !== workload.kind && inOneFolder(r, workload) && podTemplateOf(r));
  const stem = twin ? `${name}-${workload.kind.toLowerCase()}-pdb` : `${name}-pdb`;
  const taken = (candidate: string) =>
    inventory.namedIn(workload.namespace, candidate).some((r) => r.kind === 'PodDisruptionBudget' && (!r.file || inOneFolder(r, workload))) ||
    // `web-deployment-pdb` of the Deployment `web` beside a StatefulSet `web` is also the name of a Deployment `web-deployment`'s.
    (twin && candidate === stem && workloadIn(stem.slice(0, -'-pdb'.length)));
  let candidate = stem;
  for (let n = 2; taken(candidate); n++) candidate = `${stem}-${n}`;
  return candidate;
}

/**
 * The selector a new PDB of the workload takes: its own selector, unless that also selects the pods of
 * another workload that has a budget already (two budgets over one pod make every eviction of it fail:
 * pdb-multiple); then every label of its pod template, unless those do too; else none. A workload
 * without a budget whose pods it selects is covered by it, as one app's two Deployments are.
 */
export function pdbSelectorFor(workload: Resource, inventory: Inventory): unknown {
  const others = (selector: unknown) =>
    inventory
      .podCarriersMatching(workload.namespace, selector)
      .some((r) => !ownedByAnother(r) && !(r.kind === workload.kind && r.name === workload.name) && inventory.pdbsSelecting(r).length > 0);
  const own = workloadSelector(workload);
  if (own && !others(own)) return own;
  const labels = podTemplateOf(workload)?.labels;
  const byLabels = { matchLabels: labels ?? {} };
  return labels && Object.keys(labels).length && !others(byLabels) ? byLabels : undefined;
}

export const pdbMissing: Rule = {
  meta: {
    id: 'pdb-missing',
    severity: 'warning',
    scenario: 'voluntary-disruption',
    title: 'Several replicas and no PodDisruptionBudget',
    description:
      'Without a PodDisruptionBudget, a node drain (an upgrade, a maintenance window) or the cluster autoscaler removing a node may evict every replica of the workload at once, even though there are several. A PDB makes voluntary disruptions take the pods one at a time. The replica count is the HPA\'s minReplicas when an HPA targets the workload; a PDB anywhere in the workspace (or the live cluster) counts when its selector (matchLabels and matchExpressions) matches the pod labels in the same namespace. Cluster add-ons (kube-system, addon-manager labels) are left to the cluster operator, and Helm hooks and test pods (`helm.sh/hook`) run once: they need no budget, and a PDB does not count their pods.',
    fix: 'Appends a policy/v1 PodDisruptionBudget (`<name>-pdb`; `<name>-<kind>-pdb` when another workload of that name is defined in its folder, and numbered when a PDB applied with it has the name already; the workload\'s selector, `maxUnavailable: 1`, `unhealthyPodEvictionPolicy: AlwaysAllow`) as a new document after the workload. When that selector also selects the pods of another workload that has a budget already, the new one selects every label of the pod template instead; when those do too, no fix is offered (two budgets over one pod make every eviction of it fail).',
    example: ordersDeployment(),
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      if ((resource.kind !== 'Deployment' && resource.kind !== 'StatefulSet') || isClusterAddon(resource) || isHelmHook(resource)) continue;
      const replicas = inventory.effectiveReplicas(resource);
      if (replicas.value < 2) continue;
      if (inventory.pdbsSelecting(resource).length > 0) continue;
      const selector = pdbSelectorFor(resource, inventory);
      const name = selector ? pdbNameFor(resource, inventory) : '';
      report({
        resource,
        message: `${describeResource(resource)}: ${describeReplicas(replicas)} and no PDB: a drain may evict ${describeEveryPod(replicas.value)} at once. A node drain or an autoscaler scale-down evicts without limit; a PDB makes them take the pods one at a time.`,
        fixes: () => (selector ? [{ title: `Add a PodDisruptionBudget ${name} (maxUnavailable: 1)`, preferred: true, edits: appendDocument(resource, pdbFor(resource, name, selector)) ?? [] }] : []),
        related: replicas.hpa ? [{ resource: replicas.hpa, path: ['spec', 'minReplicas'], message: 'sets the replica floor' }] : [],
      });
    }
  },
};
