import type { Resource } from '../manifest/parse';

/** Cluster-definition documents that describe a control plane: kind's Cluster and kubeadm's ClusterConfiguration. */

export function isKindCluster(resource: Resource): boolean {
  return resource.kind === 'Cluster' && resource.apiVersion.startsWith('kind.x-k8s.io/');
}

export function isKubeadmClusterConfiguration(resource: Resource): boolean {
  return resource.kind === 'ClusterConfiguration' && resource.apiVersion.startsWith('kubeadm.k8s.io/');
}

/** How many control-plane nodes a kind Cluster creates: nodes whose role is control-plane (the default role); one when `nodes` is absent. */
export function kindControlPlaneCount(resource: Resource): number {
  const nodes = resource.object?.nodes;
  if (!Array.isArray(nodes) || nodes.length === 0) return 1;
  return nodes.filter((n) => n && typeof n === 'object' && (n.role === undefined || n.role === 'control-plane')).length;
}

/** etcd arithmetic: quorum = ⌊n/2⌋+1, and the failures it survives. */
export function etcdQuorum(members: number): { quorum: number; tolerates: number } {
  const quorum = Math.floor(members / 2) + 1;
  return { quorum, tolerates: members - quorum };
}

