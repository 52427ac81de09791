import type { ClusterInfo } from '../cluster/types';
import type { SimInputs } from './build-inputs';
import type { NodeView, PodView, SimulationInput } from './messages';
import { plural } from '../words';

/** The cluster as the simulation page draws it: control-plane nodes (with etcd) first, workers with their pods, where DNS runs. */
export function simulationInputOf({ topology, workloads }: SimInputs, cluster: Pick<ClusterInfo, 'source' | 'name'>): SimulationInput {
  const pods = new Map<string, PodView[]>();
  for (const workload of workloads) {
    let index = 0;
    for (const [node, count] of Object.entries(workload.placement)) {
      const list = pods.get(node) ?? [];
      for (let i = 0; i < count; i++) list.push({ name: `${workload.name}-${++index}`, namespace: workload.namespace, workload: workload.name, kind: workload.kind });
      pods.set(node, list);
    }
  }
  const nodes: NodeView[] = topology.nodes.map((node) => ({
    name: node.name,
    role: node.controlPlane ? 'control-plane' : 'worker',
    ...(node.zone ? { zone: node.zone } : {}),
    etcdMember: node.controlPlane && topology.etcd.mode === 'stacked',
    dns: topology.coreDnsNodes.includes(node.name),
    pods: pods.get(node.name) ?? [],
  }));
  nodes.sort((a, b) => Number(b.role === 'control-plane') - Number(a.role === 'control-plane'));
  const notes = [...topology.assumptions];
  if (topology.etcd.mode === 'external') notes.unshift(`etcd runs outside the cluster's nodes: ${plural(topology.etcd.members, 'member')}`);
  return {
    cluster: { source: cluster.source, name: cluster.name, ...(topology.managed ? { managed: topology.managed } : {}) },
    nodes,
    workloads: workloads.map((w) => ({ kind: w.kind, name: w.name, namespace: w.namespace, replicas: w.replicas, placement: w.placementSource })),
    notes,
  };
}
