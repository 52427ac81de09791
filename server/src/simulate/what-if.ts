import { controlPlaneNodes, type SimNode, type SimTopology, type SimWorkload } from './model';
import { plural } from '../words';
import { onNode } from './on-node';

/** The same cluster as if it had `count` stacked control-plane nodes: the first ones kept, new ones added after them. */
export function withControlPlanes(topology: SimTopology, count: number | undefined): SimTopology {
  if (count === undefined) return topology;
  const current = controlPlaneNodes(topology);
  // External etcd keeps its own hosts, however many control-plane nodes there are: only those change.
  const external = topology.etcd.mode === 'external';
  if (current.length === count && (topology.etcd.mode === 'stacked' || external)) return topology;
  const template: SimNode = current[0] ?? { name: 'control-plane', controlPlane: true, labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] };
  const kept = current.slice(0, count);
  const added: SimNode[] = [];
  for (let i = kept.length + 1; i <= count; i++) added.push({ ...template, name: whatIfName(topology, i) });
  const keptNames = new Set(kept.map((n) => n.name));
  const dropped = current.filter((n) => !keptNames.has(n.name)).map((n) => n.name);
  const workers = topology.nodes.filter((n) => !n.controlPlane);
  return {
    ...topology,
    nodes: [...kept, ...added, ...workers],
    etcd: external ? topology.etcd : { mode: 'stacked', members: count },
    coreDnsNodes: topology.coreDnsNodes.map((n) => (dropped.includes(n) ? kept[0].name : n)),
    assumptions: [
      ...topology.assumptions,
      external
        ? `what-if: simulated as if the cluster had ${plural(count, 'control-plane node')} (${[...kept, ...added].map((n) => n.name).join(', ')}), its external etcd as it is`
        : `what-if: simulated as if the cluster had ${plural(count, 'stacked control-plane node')} (${[...kept, ...added].map((n) => n.name).join(', ')}) with one etcd member each`,
    ],
  };
}

function whatIfName(topology: SimTopology, index: number): string {
  const taken = new Set(topology.nodes.map((n) => n.name));
  let name = `control-plane-${index}`;
  while (taken.has(name)) name = `${name}-what-if`;
  return name;
}

/**
 * The workloads on a topology withControlPlanes changed: a DaemonSet that runs on the cluster's control-plane nodes
 * (kube-proxy, a CNI agent) runs a pod on each one the what-if adds, and none on one it leaves out (with 7 nodes,
 * kube-proxy was "1 of 5"). Another workload's pods on a node left out run on the first node kept, as the DNS
 * row's CoreDNS replicas do (they stayed on a node no failure could reach: "2/2 throughout" beside "1 of 2 gone").
 */
export function workloadsOn(topology: SimTopology, before: SimTopology, workloads: SimWorkload[]): SimWorkload[] {
  if (topology === before) return workloads;
  const was = controlPlaneNodes(before).map((n) => n.name);
  const now = controlPlaneNodes(topology).map((n) => n.name);
  const added = now.filter((n) => !was.includes(n));
  const dropped = was.filter((n) => !now.includes(n));
  return workloads.map((w) => {
    if (w.kind !== 'DaemonSet') return movedOff(w, dropped, now[0]);
    if (!was.some((n) => (onNode(w.placement, n) ?? 0) > 0)) return w;
    const placement = Object.fromEntries([...Object.entries(w.placement).filter(([n]) => !dropped.includes(n)), ...added.map((n) => [n, 1] as const)]);
    const eligible = w.eligibleNodes && [...w.eligibleNodes.filter((n) => !dropped.includes(n)), ...added];
    return { ...w, placement, replicas: Object.values(placement).reduce((a, b) => a + b, 0), ...(eligible ? { eligibleNodes: eligible } : {}) };
  });
}

/** The workload with its pods on the `dropped` nodes on `kept` instead. */
function movedOff(workload: SimWorkload, dropped: readonly string[], kept: string | undefined): SimWorkload {
  const moved = dropped.reduce((sum, n) => sum + (onNode(workload.placement, n) ?? 0), 0);
  if (moved === 0 || kept === undefined) return workload;
  const placement = Object.fromEntries(Object.entries(workload.placement).filter(([n]) => !dropped.includes(n)));
  placement[kept] = (onNode(placement, kept) ?? 0) + moved;
  const notServing = workload.notServing?.map((pod) => (dropped.includes(pod.node) ? { ...pod, node: kept } : pod));
  return { ...workload, placement, ...(notServing ? { notServing } : {}) };
}
