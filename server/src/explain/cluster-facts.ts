import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { isPodReady } from '../manifest/workload';
import { workloadPlacement } from '../rules/unschedulable';
import { plural } from '../words';
import { markdownText } from './markdown-text';

/** Node names a line has room for; the rest are counted. */
const NODES_SHOWN = 3;

/** The workload as the cluster runs it (same kind, namespace and name), if it is deployed there. */
function deployed(workload: Resource, cluster: ClusterInfo): Resource | undefined {
  return cluster.resources.find((r) => r.kind === workload.kind && r.namespace === workload.namespace && r.name === workload.name);
}

function readyPart(workload: Resource, pods: Resource[], ready: Resource[], cluster: ClusterInfo): string {
  const status = deployed(workload, cluster)?.object;
  // The API leaves readyReplicas out when none is ready; anything but a number is read as none too.
  if (status?.status && typeof status.spec?.replicas === 'number') return `${typeof status.status.readyReplicas === 'number' ? status.status.readyReplicas : 0}/${status.spec.replicas} ready`;
  return `${ready.length}/${plural(pods.length, 'pod')} ready`;
}

/** "on w-1, w-2", "on w-1 — all on one node", "on a, b, c +2 more". */
function nodesPart(ready: Resource[], cluster: ClusterInfo): string {
  const nodes = [...new Set(ready.map((pod) => String(pod.object?.spec?.nodeName ?? 'unscheduled')))];
  const controlPlane = new Set(cluster.topology.controlPlaneNodes);
  const named = nodes.slice(0, NODES_SHOWN).map((node) => `${markdownText(node)}${controlPlane.has(node) ? ' (control plane)' : ''}`);
  const more = nodes.length > NODES_SHOWN ? ` +${nodes.length - NODES_SHOWN} more` : '';
  const warning = ready.length > 1 && nodes.length === 1 ? ' — all on one node' : '';
  return ` on ${named.join(', ')}${more}${warning}`;
}

function podsPart(workload: Resource, inventory: Inventory, cluster: ClusterInfo): string {
  const podsUnread = cluster.missing.find((m) => /^pods?$/i.test(m.resource));
  if (podsUnread) return `pods unreadable (${markdownText(podsUnread.reason)})`;
  const live = deployed(workload, cluster);
  const pods = workload.kind === 'Pod' ? (live ? [live] : []) : inventory.podsOf(workload).filter((p) => !p.file);
  if (pods.length === 0 && !live) return 'not running, no pod matches its selector';
  const ready = pods.filter(isPodReady);
  return `${readyPart(workload, pods, ready, cluster)}${ready.length ? nodesPart(ready, cluster) : ''}`;
}

/**
 * What the cluster says about a workload, in one line for its resilience card: ready replicas, the
 * nodes its pods run on, and on how many nodes its pods could run.
 */
export function liveLine(workload: Resource, inventory: Inventory, cluster: ClusterInfo): string {
  const placement = workloadPlacement(workload, cluster);
  const fits = placement ? `fits on ${placement.fitting.length} of ${plural(placement.total, 'node')} by capacity` : 'nodes unreadable';
  return `Live: ${podsPart(workload, inventory, cluster)} · ${fits}`;
}
