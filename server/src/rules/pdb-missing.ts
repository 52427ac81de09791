import type { Fix } from '../fixes/edit';
import { appendDocument } from '../fixes/yaml-edit';
import { describeEveryPod, describeReplicas, inOneFolder, ownedByAnother, type Inventory } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { countSetBy } from './count-set-by';
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
function pdbNameFor(workload: Resource, inventory: Inventory): string {
  const name = workload.name ?? 'workload';
  // The other workloads of the folder named so, each of which names its own new PDB `<its name>-pdb`.
  const workloadsNamed = (named: string) => inventory.namedIn(workload.namespace, named).filter((r) => r !== workload && inOneFolder(r, workload) && podTemplateOf(r));
  const twin = workloadsNamed(name).some((r) => r.kind !== workload.kind);
  const stem = twin ? `${name}-${workload.kind.toLowerCase()}-pdb` : `${name}-pdb`;
  const taken = (candidate: string) =>
    inventory.namedIn(workload.namespace, candidate).some((r) => r.kind === 'PodDisruptionBudget' && (!r.file || inOneFolder(r, workload))) ||
    // `web-deployment-pdb` of the Deployment `web` beside a StatefulSet `web` is also the name of a Deployment `web-deployment`'s.
    (twin && candidate === stem && workloadsNamed(stem.slice(0, -'-pdb'.length)).length > 0);
  let candidate = stem;
  for (let n = 2; taken(candidate); n++) candidate = `${stem}-${n}`;
  return candidate;
}

/** The PDB a fix of the workload adds, by its name and selector; undefined when no selector would do (see pdbSelectorFor). */
export function newPdbOf(workload: Resource, inventory: Inventory): NewPdb | undefined {
  const selector = pdbSelectorFor(workload, inventory);
  return selector ? { name: pdbNameFor(workload, inventory), selector } : undefined;
}

export interface NewPdb {
  name: string;
  selector: unknown;
}

/** The fix that appends that PDB after the workload. */
export function addPdbFix(workload: Resource, pdb: NewPdb): Fix {
  return { title: `Add a PodDisruptionBudget ${pdb.name} (maxUnavailable: 1)`, edits: appendDocument(workload, pdbFor(workload, pdb.name, pdb.selector)) ?? [] };
}

/**
 * The selector a new PDB of the workload takes: its own selector, unless that also selects the pods of
 * another workload that has a budget already (two budgets over one pod make every eviction of it fail:
 * pdb-multiple); then every label of its pod template, unless those do too; else none. A workload
 * without a budget whose pods it selects is covered by it, as one app's two Deployments are.
 */
function pdbSelectorFor(workload: Resource, inventory: Inventory): unknown {
  const others = (selector: unknown) =>
    inventory
      .podCarriersMatching(workload.namespace, selector)
      .some((r) => !ownedByAnother(r) && !(r.kind === workload.kind && r.name === workload.name) && inventory.pdbsSelectingAnyPodOf(r).length > 0);
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
      'Without a PodDisruptionBudget, a node drain (an upgrade, a maintenance window) or the cluster autoscaler removing a node may evict every replica of the workload at once, even though there are several. A PDB makes voluntary disruptions take the pods one at a time. The replica count is the HPA\'s minReplicas when an HPA targets the workload (a KEDA ScaledObject\'s minReplicaCount when one scales it, its `autoscaling.keda.sh/paused-replicas` when one holds it paused); a PDB anywhere in the workspace (or the live cluster) counts when its selector (matchLabels and matchExpressions) matches the pod labels in the same namespace, those the controller gives each pod too (a budget for a StatefulSet\'s pod `db-0` by `statefulset.kubernetes.io/pod-name`: pdb-blocks-eviction says what it allows). Cluster add-ons (kube-system, addon-manager labels) are left to the cluster operator, and Helm hooks and test pods (`helm.sh/hook`) run once: they need no budget, and a PDB does not count their pods.',
    fix: 'Appends a policy/v1 PodDisruptionBudget (`<name>-pdb`; `<name>-<kind>-pdb` when another workload of that name is defined in its folder, and numbered when a PDB applied with it has the name already; the workload\'s selector, `maxUnavailable: 1`, `unhealthyPodEvictionPolicy: AlwaysAllow`) as a new document after the workload. When that selector also selects the pods of another workload that has a budget already, the new one selects every label of the pod template instead; when those do too, no fix is offered (two budgets over one pod make every eviction of it fail).',
    example: ordersDeployment(),
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      if ((resource.kind !== 'Deployment' && resource.kind !== 'StatefulSet') || isClusterAddon(resource) || isHelmHook(resource)) continue;
      const replicas = inventory.effectiveReplicas(resource);
      if (replicas.value < 2) continue;
      if (inventory.pdbsSelectingAnyPodOf(resource).length > 0) continue;
      const pdb = newPdbOf(resource, inventory);
      report({
        resource,
        message: `${describeResource(resource)}: ${describeReplicas(replicas)} and no PDB: a drain may evict ${describeEveryPod(replicas.value)} at once. A node drain or an autoscaler scale-down evicts without limit; a PDB makes them take the pods one at a time.`,
        fixes: () => (pdb ? [{ ...addPdbFix(resource, pdb), preferred: true }] : []),
        related: countSetBy(replicas),
      });
    }
  },
};
