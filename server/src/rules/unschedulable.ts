import { plural } from '../words';
import type { ClusterInfo } from '../cluster/types';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { describePlacement, placePod, placementInput, type Placement, type ReasonKind, type ResourceAmounts, type Toleration, podLevelRequestPath, podRequests } from '../manifest/scheduling';
import { describeResource, isPodReady, isWorkload, podTemplateOf } from '../manifest/workload';
import type { Rule } from './types';

/** The cluster's nodes, or undefined when they are not known (no cluster, or the nodes could not be read). */
export function knownNodes(cluster: ClusterInfo | undefined): Resource[] | undefined {
  if (!cluster) return undefined;
  if (cluster.missing.some((m) => /^nodes?$/i.test(m.resource))) return undefined;
  const nodes = cluster.resources.filter((r) => r.kind === 'Node');
  return nodes.length ? nodes : undefined;
}

/** Extended resources (a vendor's `domain/name`), which admission plugins and GPU rules treat specially. */
export function isExtendedResource(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('hugepages-');
}

/**
 * Tolerations the cluster adds on admission: GKE runs ExtendedResourceToleration, which tolerates a
 * taint keyed by each extended resource the pod requests.
 */
export function admissionTolerations(requests: ResourceAmounts, cluster: ClusterInfo | undefined): Toleration[] {
  if (cluster?.topology.managed !== 'GKE') return [];
  return Object.keys(requests)
    .filter(isExtendedResource)
    .map((key) => ({ key, operator: 'Exists' }));
}

/** Cluster autoscalers that can add a node no existing node resembles. */
export function autoscalerIn(cluster: ClusterInfo): string | undefined {
  for (const r of cluster.resources) {
    if (r.kind === 'ConfigMap' && r.name === 'cluster-autoscaler-status') return 'the cluster autoscaler';
    if ((r.kind === 'Deployment' || r.kind === 'Pod') && /cluster-autoscaler/.test(r.name ?? '')) return 'the cluster autoscaler';
    if ((r.kind === 'Deployment' || r.kind === 'Pod') && /^karpenter/.test(r.name ?? '')) return 'Karpenter';
    if (r.kind === 'NodePool' && r.apiVersion.startsWith('karpenter.sh/')) return 'Karpenter';
  }
  return undefined;
}

/** On how many of the cluster's nodes a workload's pods could run, and why not on the others; undefined when unknown. */
export function workloadPlacement(workload: Resource, cluster: ClusterInfo | undefined): Placement | undefined {
  const nodes = knownNodes(cluster);
  const template = podTemplateOf(workload);
  if (!nodes || !template) return undefined;
  const extra = admissionTolerations(podRequests(template.spec), cluster);
  return placePod(placementInput(workload.kind, template, extra), nodes);
}

const REASON_FIELD: Record<ReasonKind, string> = {
  cordoned: 'tolerations',
  'node-name': 'nodeName',
  taint: 'tolerations',
  'node-selector': 'nodeSelector',
  'node-affinity': 'affinity',
  resources: 'containers',
};

export const unschedulable: Rule = {
  meta: {
    id: 'unschedulable',
    severity: 'error',
    scenario: 'scheduling',
    title: 'Pods that fit on no node of the cluster',
    description:
      'Checks, against the nodes of the live cluster (or snapshot), on how many nodes the pods could run: taints without a toleration (NoSchedule and NoExecute block, PreferNoSchedule does not), nodeSelector, required node affinity, and the pod\'s requests (its pod-level CPU and memory requests where it sets them, else the sum of containers versus the largest init container; plus overhead) against each node\'s allocatable CPU, memory and extended resources such as GPUs. When no node fits, the pods stay Pending for good, and a rollout or replacement never becomes ready. It judges capacity, not the room running pods leave free, so a pod that fits may still wait. Nothing is reported when there is no cluster or its nodes could not be read (unknown is not zero), when pods of the workload already run ready in the cluster, and DaemonSets are left out: running on no node is how they wait for matching nodes.',
    needsCluster: true,
  },
  check({ resources, cluster, file, inventory, report }) {
    if (!file || !cluster) return;
    for (const resource of resources) {
      if (!isWorkload(resource) || resource.kind === 'DaemonSet') continue;
      const placement = workloadPlacement(resource, cluster);
      if (!placement || placement.fitting.length > 0) continue;
      if (resource.object?.spec?.replicas === 0) continue;
      // Its pods run already: something admits them that the model does not know (a webhook adding tolerations).
      if (inventory.podsOf(resource).some(isPodReady)) continue;
      const template = podTemplateOf(resource)!;
      const nodeName = template.spec.nodeName;
      if (typeof nodeName === 'string' && nodeName && !placement.fitting.length && placement.reasons.every((r) => r.kind === 'node-name')) {
        report({
          resource,
          path: [...template.path, 'spec', 'nodeName'],
          message: `${describeResource(resource)} is bound to node ${nodeName}, which cluster ${cluster.name} lacks: its pods never start. nodeName bypasses the scheduler, so none of the cluster's ${plural(placement.total, 'node')} takes them.`,
        });
        continue;
      }
      const main = placement.reasons[0];
      // A request the pod sets for itself is what does not fit, not its containers'.
      const podLevel = main?.kind === 'resources' && main.resource ? podLevelRequestPath(template.spec, main.resource) : undefined;
      const path: Path = main ? [...template.path, 'spec', ...(podLevel ?? [REASON_FIELD[main.kind]])] : [];
      const autoscaler = autoscalerIn(cluster);
      const pending = `its pods stay Pending${autoscaler ? ` unless ${autoscaler} can add a node that matches` : ''}`;
      report({
        resource,
        path,
        severity: autoscaler ? 'warning' : undefined,
        message: `${describeResource(resource)} fits on no node of cluster ${cluster.name}: its pods would stay Pending. It ${describePlacement(placement)}, so ${pending} (judged on allocatable capacity, not on the room left by running pods).`,
      });
    }
  },
};
