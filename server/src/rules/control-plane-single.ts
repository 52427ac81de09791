import type { ClusterInfo } from '../cluster/types';
import { appendToSequence, setField } from '../fixes/yaml-edit';
import type { Resource } from '../manifest/parse';
import { isKindCluster, isKubeadmClusterConfiguration, kindControlPlaneCount } from './control-plane-config';
import type { Report, Rule } from './types';

const OUTAGE = 'nothing is scheduled, scaled, healed or rolled out until it is back, and a pod that dies is not replaced';

function kindFinding(resource: Resource): Report | undefined {
  if (kindControlPlaneCount(resource) !== 1) return undefined;
  const nodes = resource.object?.nodes;
  const hasNodes = Array.isArray(nodes) && nodes.length > 0;
  // Only a list is extended, and only nothing (or an empty list) is replaced: a mapping there is the user's to sort out.
  const replaceable = nodes === undefined || nodes === null || (Array.isArray(nodes) && nodes.length === 0);
  // Distinct objects: the same one twice would be written as a YAML anchor and alias.
  const controlPlanes = (count: number) => Array.from({ length: count }, () => ({ role: 'control-plane' }));
  const edits = hasNodes ? appendToSequence(resource, ['nodes'], ...controlPlanes(2)) : replaceable ? setField(resource, ['nodes'], controlPlanes(3)) : undefined;
  return {
    resource,
    path: hasNodes ? ['nodes'] : [],
    // kind runs a local development cluster in containers: a single control plane there is a fact to know, not a risk to fix.
    severity: 'info',
    message: `kind Cluster${typeof resource.object?.name === 'string' ? ` ${resource.object.name}` : ''} has 1 control-plane node: when it stops, the whole control plane stops. ${hasNodes ? '' : replaceable ? 'It has no nodes list, so kind creates one. ' : 'Its `nodes` is not a list, so kind runs one. '}The API server, scheduler, controllers and the only etcd member stop with that node: ${OUTAGE}. Three control-plane nodes keep etcd quorum through the loss of one.`,
    fixes: [edits && { title: 'Run 3 control-plane nodes', preferred: true, edits }],
  };
}

function kubeadmFinding(resource: Resource): Report | undefined {
  const endpoint = resource.object?.controlPlaneEndpoint;
  if (typeof endpoint === 'string' && endpoint.trim()) return undefined;
  return {
    resource,
    message: `kubeadm ClusterConfiguration has no controlPlaneEndpoint: its control plane can never become HA. The cluster is bound to the first control-plane node's own address, which the certificates and every kubeconfig embed, so kubeadm cannot add control-plane nodes later, and while that one is down ${OUTAGE}. Set controlPlaneEndpoint to a DNS name or load balancer before \`kubeadm init\`.`,
  };
}

/** The live cluster's control plane: one instance, or one API server answering. A managed control plane is the provider's business. */
function liveFinding(cluster: ClusterInfo): Report | undefined {
  const { topology } = cluster;
  if (topology.managed) return undefined;
  const nodeNamed = (name: string | undefined) => cluster.resources.find((r) => r.kind === 'Node' && r.name === name);
  const evidence = topology.evidence.length ? ` (${topology.evidence.join('; ')})` : '';
  if (topology.controlPlaneCount === 1) {
    const name = topology.controlPlaneNodes[0];
    const where = name ? `node ${name}` : 'one instance';
    return {
      resource: nodeNamed(name),
      message: `Cluster ${cluster.name} has a single control plane (${where}): its loss stops the control plane. When it fails or reboots, ${OUTAGE}${evidence}.`,
    };
  }
  const count = topology.controlPlaneCount;
  if (count !== undefined && count > 1 && topology.apiServerEndpoints.length === 1) {
    return {
      message: `Cluster ${cluster.name} has ${count} control-plane instances but only 1 API server serving. default/kubernetes lists 1 endpoint (${topology.apiServerEndpoints[0]}): the other API servers are not serving, so one more failure stops the control plane${evidence}.`,
    };
  }
  return undefined;
}

export const controlPlaneSingle: Rule = {
  meta: {
    id: 'control-plane-single',
    severity: 'warning',
    scenario: 'control-plane',
    title: 'A single control plane',
    description:
      'With one control-plane instance, its failure or reboot stops the API server, scheduler, controllers and (stacked) etcd together. Running pods keep running, but nothing is scheduled, scaled, healed or rolled out until it returns, and a lost pod or node is not replaced. Found in a kind `Cluster` with one control-plane node (or no `nodes` list), a kubeadm `ClusterConfiguration` without `controlPlaneEndpoint` (kubeadm cannot grow such a cluster into HA), and a live cluster with one control-plane node or one API server endpoint. A managed control plane (GKE, EKS, AKS) is the provider\'s and is not reported. A kind cluster is a local development cluster: its finding is information, not a warning.',
    fix: 'kind: adds two control-plane nodes.',
    example: `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
- role: control-plane
- role: worker
- role: worker
`,
  },
  check({ file, resources, cluster, report }) {
    if (!file) {
      const finding = cluster && liveFinding(cluster);
      if (finding) report(finding);
      return;
    }
    for (const resource of resources) {
      const finding = isKindCluster(resource) ? kindFinding(resource) : isKubeadmClusterConfiguration(resource) ? kubeadmFinding(resource) : undefined;
      if (finding) report(finding);
    }
  },
};
