import type { SimNode, SimTopology, SimWorkload } from '../../server/src/simulate/model';

export interface ClusterShape {
  controlPlanes?: number;
  workers?: number;
  /** Where the CoreDNS replicas run: node names. Default: two on the first two workers. */
  coreDns?: string[];
  etcd?: SimTopology['etcd'];
  managed?: string;
}

/** A hand-made kubeadm-like cluster: control-plane nodes cp-1…, workers worker-1…, zones a/b/c. */
export function cluster(shape: ClusterShape = {}): SimTopology {
  const cps = shape.controlPlanes ?? 1;
  const workers = shape.workers ?? 3;
  const zones = ['a', 'b', 'c'];
  const nodes: SimNode[] = [];
  for (let i = 1; i <= cps; i++) {
    nodes.push({ name: `cp-${i}`, controlPlane: true, zone: zones[(i - 1) % 3], labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] });
  }
  for (let i = 1; i <= workers; i++) nodes.push({ name: `worker-${i}`, controlPlane: false, zone: zones[(i - 1) % 3], labels: {}, taints: [] });
  return {
    nodes,
    etcd: shape.etcd ?? { mode: 'stacked', members: cps },
    managed: shape.managed,
    coreDnsNodes: shape.coreDns ?? ['worker-1', 'worker-2'],
    nodeLocalDns: false,
    assumptions: [],
  };
}

export function workload(name: string, placement: Record<string, number>, extra: Partial<SimWorkload> = {}): SimWorkload {
  const replicas = Object.values(placement).reduce((a, b) => a + b, 0);
  return {
    kind: 'Deployment',
    namespace: 'shop',
    name,
    replicas,
    placement,
    placementSource: 'observed',
    probes: { liveness: true, readiness: true, startup: false },
    pdb: false,
    memoryLimit: true,
    fronted: true,
    ...extra,
  };
}
