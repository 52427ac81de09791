import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { describePlacement } from '../manifest/scheduling';
import { isPodReady } from '../manifest/workload';
import { workloadPlacement } from '../rules/unschedulable';
import { plural } from '../words';

/** The workload as the cluster runs it (same kind, namespace and name), if it is deployed there. */
function deployed(workload: Resource, cluster: ClusterInfo): Resource | undefined {
  return cluster.resources.find((r) => r.kind === workload.kind && r.namespace === workload.namespace && r.name === workload.name);
}

function readyLine(workload: Resource, pods: Resource[], ready: Resource[], cluster: ClusterInfo): string {
  const live = deployed(workload, cluster);
  const status = live?.object?.status;
  const wanted = live?.object?.spec?.replicas;
  if (status && typeof wanted === 'number') return `Ready replicas: ${status.readyReplicas ?? 0} of ${wanted} in cluster ${cluster.name}`;
  return `Ready pods: ${ready.length} of ${pods.length} matching its selector in cluster ${cluster.name}`;
}

function nodesLine(ready: Resource[], cluster: ClusterInfo): string {
  const perNode = new Map<string, number>();
  for (const pod of ready) {
    const node = String(pod.object?.spec?.nodeName ?? 'unscheduled');
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const controlPlane = new Set(cluster.topology.controlPlaneNodes);
  const list = [...perNode].map(([node, n]) => `${node}${controlPlane.has(node) ? ' (control plane)' : ''}: ${plural(n, 'pod')}`).join(', ');
  const warning = ready.length > 1 && perNode.size === 1 ? ' — all on one node: it dies with that node' : '';
  return `Nodes of its ready pods: ${list}${warning}`;
}

/**
 * What the cluster says about a workload, one line each, for its resilience card: ready replicas,
 * the nodes its pods run on, and on how many nodes its pods could run.
 */
export function clusterFacts(workload: Resource, inventory: Inventory, cluster: ClusterInfo): string[] {
  const lines: string[] = [];
  const podsUnread = cluster.missing.find((m) => /^pods?$/i.test(m.resource));
  if (podsUnread) {
    lines.push(`Pods could not be read from cluster ${cluster.name} (${podsUnread.reason})`);
  } else {
    const live = deployed(workload, cluster);
    const pods = workload.kind === 'Pod' ? (live ? [live] : []) : inventory.podsOf(workload).filter((p) => !p.file);
    const ready = pods.filter(isPodReady);
    if (pods.length === 0 && !live) lines.push(`Not running in cluster ${cluster.name}: no pod matches its selector`);
    else {
      lines.push(readyLine(workload, pods, ready, cluster));
      if (ready.length) lines.push(nodesLine(ready, cluster));
    }
  }
  const placement = workloadPlacement(workload, cluster);
  if (placement) lines.push(`Could run: ${describePlacement(placement)} (by capacity, not free room)`);
  else lines.push(`Could run: unknown, the nodes of cluster ${cluster.name} could not be read`);
  return lines;
}
