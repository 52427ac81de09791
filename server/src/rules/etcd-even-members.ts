import type { Topology } from '../cluster/topology';
import type { Resource } from '../manifest/parse';
import { etcdQuorum, isKindCluster, isKubeadmClusterConfiguration, kindControlPlaneCount } from './control-plane-config';
import type { Report, Rule } from './types';
import { plural } from '../words';

/** "tolerates 1 failure, no more than 3 members would". */
function noBetterThanOneLess(members: number): string {
  return `tolerates ${plural(etcdQuorum(members).tolerates, 'failure')}, no more than ${plural(members - 1, 'member')} would`;
}

/** Why an even member costs: "Its quorum is 3: the extra member adds …". */
function consequence(members: number): string {
  return `Its quorum is ${etcdQuorum(members).quorum}: the extra member adds one more machine that can fail and one more vote every write waits for`;
}

function configFinding(resource: Resource): Report | undefined {
  if (isKubeadmClusterConfiguration(resource)) {
    const endpoints = resource.object?.etcd?.external?.endpoints;
    if (!Array.isArray(endpoints) || endpoints.length === 0 || endpoints.length % 2 !== 0) return undefined;
    return {
      resource,
      path: ['etcd', 'external', 'endpoints'],
      message: `External etcd with ${endpoints.length} endpoints ${noBetterThanOneLess(endpoints.length)}. ${consequence(endpoints.length)}. Use an odd number (${endpoints.length - 1} or ${endpoints.length + 1}).`,
    };
  }
  if (isKindCluster(resource)) {
    const members = kindControlPlaneCount(resource);
    if (members < 2 || members % 2 !== 0) return undefined;
    return {
      resource,
      path: ['nodes'],
      message: `kind Cluster with ${members} control-plane nodes (${members} etcd members) ${noBetterThanOneLess(members)}. ${consequence(members)}. Use ${members - 1} or ${members + 1} control-plane nodes.`,
    };
  }
  return undefined;
}

function liveFinding(name: string, topology: Topology): Report | undefined {
  const members = topology.etcd.members;
  if (topology.managed || topology.etcd.mode === 'managed' || members === undefined || members < 2 || members % 2 !== 0) return undefined;
  const endpoints = topology.etcd.endpoints?.length ? ` Members: ${topology.etcd.endpoints.join(', ')}.` : '';
  return {
    message: `Cluster ${name} runs ${members} ${topology.etcd.mode === 'unknown' ? '' : `${topology.etcd.mode} `}etcd members: it ${noBetterThanOneLess(members)}. ${consequence(members)}.${endpoints}`,
  };
}

export const etcdEvenMembers: Rule = {
  meta: {
    id: 'etcd-even-members',
    severity: 'warning',
    scenario: 'control-plane',
    title: 'An even number of etcd members',
    description:
      'etcd needs a majority (quorum = ⌊n/2⌋+1) to accept writes. An even-sized cluster tolerates no more failures than one member fewer (4 members: quorum 3, 1 failure, like 3; 2 members: quorum 2, no failure at all, worse than 1 in practice), while adding a machine that can fail and a vote every write waits for. Found in a kubeadm `ClusterConfiguration` listing external etcd endpoints, a kind `Cluster` with an even number of control-plane nodes (stacked etcd), and a live cluster\'s etcd members.',
    example: `apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: k8s-api.example.com:6443
etcd:
  external:
    endpoints:
    - https://etcd-1.example.com:2379
    - https://etcd-2.example.com:2379
    - https://etcd-3.example.com:2379
    - https://etcd-4.example.com:2379
`,
  },
  check({ file, resources, cluster, report }) {
    if (!file) {
      const finding = cluster && liveFinding(cluster.name, cluster.topology);
      if (finding) report(finding);
      return;
    }
    for (const resource of resources) {
      const finding = configFinding(resource);
      if (finding) report(finding);
    }
  },
};
