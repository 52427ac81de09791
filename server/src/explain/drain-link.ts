import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { isWorkload } from '../manifest/workload';
import { SIMULATE_WORKLOAD_COMMAND, type SimulateWorkloadArgs } from '../simulate/messages';

/** The workload a finding on this resource is about: itself, or the one a PodDisruptionBudget guards. */
function workloadOf(resource: Resource, inventory: Inventory): Resource | undefined {
  if (isWorkload(resource)) return resource;
  if (resource.kind === 'PodDisruptionBudget') return inventory.expectedPods(resource).workloads[0]?.workload;
  return undefined;
}

/**
 * A command link for a finding's hover: opens the simulator with a `kubectl drain` of the node the
 * workload runs on (the client finds the node in the cluster's drawing).
 */
export function drainLink(resource: Resource, inventory: Inventory): string | undefined {
  const workload = workloadOf(resource, inventory);
  if (!workload?.name || ['DaemonSet', 'CronJob'].includes(workload.kind)) return undefined;
  const args: SimulateWorkloadArgs = { namespace: workload.namespace, name: workload.name, kind: workload.kind, drain: true };
  // encodeURIComponent leaves ( ) ' * ! alone: a `)` in a name ended the link there, and the rest read as Markdown.
  const query = encodeURIComponent(JSON.stringify([args])).replace(/[()'*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[Simulate a drain of its node](command:${SIMULATE_WORKLOAD_COMMAND}?${query} "kubectl drain, PDBs and grace periods, in the simulator")`;
}
