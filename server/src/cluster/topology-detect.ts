/* eslint-disable @typescript-eslint/no-explicit-any */
import { parseYamlValue } from '../manifest/yaml-value';
import type { Resource } from '../manifest/parse';
import type { Topology } from './topology';
import { plural } from '../words';
import { greatest } from '../extremes';
import { nodeMonitorGrace, type KubeadmControllerManager } from './node-monitor-grace';

const CONTROL_PLANE_ROLES = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];
const APISERVER_IDENTITY = 'apiserver.kubernetes.io/identity';

function labelsOf(resource: Resource): Record<string, string> {
  const labels = resource.object?.metadata?.labels;
  return labels && typeof labels === 'object' ? labels : {};
}

function annotationsOf(resource: Resource): Record<string, string> {
  const annotations = resource.object?.metadata?.annotations;
  return annotations && typeof annotations === 'object' ? annotations : {};
}

function isControlPlaneNode(node: Resource): boolean {
  const labels = labelsOf(node);
  if (CONTROL_PLANE_ROLES.some((key) => key in labels)) return true;
  const taints: any[] = Array.isArray(node.object?.spec?.taints) ? node.object.spec.taints : [];
  return taints.some((t) => CONTROL_PLANE_ROLES.includes(t?.key));
}


function names(resources: Resource[]): string {
  const list = resources.map((r) => r.name ?? '?');
  return list.length > 5 ? `${list.slice(0, 5).join(', ')}, …` : list.join(', ');
}

/** The provider that runs a hidden control plane, told by its node labels and provider IDs. */
function managedProvider(nodes: Resource[]): { provider: Topology['managed']; why: string } | undefined {
  for (const node of nodes) {
    const keys = Object.keys(labelsOf(node));
    const providerId = String(node.object?.spec?.providerID ?? '');
    const gke = keys.find((k) => k.startsWith('cloud.google.com/gke-'));
    if (gke) return { provider: 'GKE', why: `node ${node.name} has label ${gke}` };
    const eks = keys.find((k) => k.startsWith('eks.amazonaws.com/') || k === 'alpha.eksctl.io/cluster-name');
    if (eks) return { provider: 'EKS', why: `node ${node.name} has label ${eks}${providerId.startsWith('aws://') ? ` and provider ID ${providerId}` : ''}` };
    const aks = keys.find((k) => k.startsWith('kubernetes.azure.com/'));
    if (aks) return { provider: 'AKS', why: `node ${node.name} has label ${aks}${providerId.startsWith('azure://') ? ' and an azure:// provider ID' : ''}` };
  }
  return undefined;
}

function isK3s(node: Resource): boolean {
  const annotations = annotationsOf(node);
  return 'k3s.io/node-args' in annotations || labelsOf(node)['node.kubernetes.io/instance-type'] === 'k3s' || /\+k3s/.test(String(node.object?.status?.nodeInfo?.kubeletVersion ?? ''));
}

function isKind(node: Resource): boolean {
  return String(node.object?.spec?.providerID ?? '').startsWith('kind://');
}

function staticPods(pods: Resource[], component: string): Resource[] {
  return pods.filter((p) => p.namespace === 'kube-system' && (labelsOf(p).component === component || (p.name ?? '').startsWith(`${component}-`)) && (labelsOf(p).tier === 'control-plane' || 'kubernetes.io/config.mirror' in annotationsOf(p)));
}

/** The default/kubernetes EndpointSlice: one address per serving API server, and the port they serve on. */
function kubernetesSlice(resources: readonly Resource[]): { addresses: string[]; port?: number } {
  const slice = resources.find((r) => r.kind === 'EndpointSlice' && r.namespace === 'default' && (r.name === 'kubernetes' || labelsOf(r)['kubernetes.io/service-name'] === 'kubernetes'));
  if (!slice) return { addresses: [] };
  const port = Array.isArray(slice.object?.ports) ? slice.object.ports[0]?.port : undefined;
  const endpoints: any[] = Array.isArray(slice.object?.endpoints) ? slice.object.endpoints : [];
  return { addresses: endpoints.flatMap((e) => (Array.isArray(e?.addresses) ? e.addresses : [])).filter((a: unknown): a is string => typeof a === 'string'), port };
}

/** The addresses of the API servers serving when the cluster was read (the default/kubernetes EndpointSlice's). */
export function apiServerAddresses(resources: readonly Resource[]): string[] {
  return kubernetesSlice(resources).addresses;
}

function kubernetesEndpoints(resources: Resource[]): string[] {
  const { addresses, port } = kubernetesSlice(resources);
  return addresses.map((a) => (port ? `${a.includes(':') ? `[${a}]` : a}:${port}` : a));
}

interface KubeadmClusterConfiguration extends KubeadmControllerManager {
  controlPlaneEndpoint?: string;
  etcd?: { local?: unknown; external?: { endpoints?: string[] } };
}

/**
 * The most of a ClusterConfiguration read: kubeadm writes one or two kilobytes, and what is parsed here is parsed after
 * the read's deadline. Before keys were checked in one pass (parseYamlValue), a ConfigMap of 40,000 keys (0.9 MB)
 * held a 5 s read for 14 s; one of 36 MB, under the API's answer cap, ran the process out of memory.
 */
const MAX_CLUSTER_CONFIGURATION_CHARACTERS = 64 * 1024;

function kubeadmConfiguration(resources: Resource[]): KubeadmClusterConfiguration | undefined {
  const config = resources.find((r) => r.kind === 'ConfigMap' && r.namespace === 'kube-system' && r.name === 'kubeadm-config');
  const text = config?.object?.data?.ClusterConfiguration;
  if (typeof text !== 'string' || text.length > MAX_CLUSTER_CONFIGURATION_CHARACTERS) return undefined;
  try {
    const value = parseYamlValue(text);
    return value && typeof value === 'object' ? (value as KubeadmClusterConfiguration) : undefined;
  } catch {
    return undefined;
  }
}

/** The node whose instance holds a leader lease of kube-system (its holder is `<node>_<uuid>`), where one is held. */
function leaseHolderNode(resources: Resource[], name: string): string | undefined {
  const lease = resources.find((r) => r.kind === 'Lease' && r.namespace === 'kube-system' && r.name === name);
  const holder = lease?.object?.spec?.holderIdentity;
  if (typeof holder !== 'string') return undefined;
  const node = holder.split('_')[0];
  return node && node !== holder ? node : undefined;
}

/** What the control plane looks like, from what a read-only client can see; each number says how it was found. */
export function detectTopology(resources: Resource[]): Topology {
  const evidence: string[] = [];
  const nodes = resources.filter((r) => r.kind === 'Node');
  const pods = resources.filter((r) => r.kind === 'Pod');
  const controlPlaneNodes = nodes.filter(isControlPlaneNode);
  const apiServerPods = staticPods(pods, 'kube-apiserver');
  const etcdPods = staticPods(pods, 'etcd');
  const identityLeases = resources.filter((r) => r.kind === 'Lease' && r.namespace === 'kube-system' && labelsOf(r)[APISERVER_IDENTITY] === 'kube-apiserver');
  const apiServerEndpoints = kubernetesEndpoints(resources);
  const kubeadm = kubeadmConfiguration(resources);

  const topology: Topology = {
    controlPlaneNodes: controlPlaneNodes.map((n) => n.name ?? '?'),
    controlPlaneCount: undefined,
    etcd: { mode: 'unknown', members: undefined },
    apiServerEndpoints,
    distribution: 'unknown',
    evidence,
  };
  if (controlPlaneNodes.length) evidence.push(`${plural(controlPlaneNodes.length, 'node')} with the control-plane role label or taint (${names(controlPlaneNodes)})`);
  if (apiServerPods.length) evidence.push(`${plural(apiServerPods.length, 'kube-apiserver static pod')} in kube-system (${names(apiServerPods)})`);
  if (identityLeases.length) evidence.push(`${plural(identityLeases.length, 'API server identity lease')} in kube-system`);
  if (apiServerEndpoints.length) evidence.push(`the default/kubernetes EndpointSlice lists ${plural(apiServerEndpoints.length, 'address', 'addresses')} (${apiServerEndpoints.join(', ')})`);

  const managed = controlPlaneNodes.length === 0 && apiServerPods.length === 0 ? managedProvider(nodes) : undefined;
  if (managed) {
    topology.managed = managed.provider;
    topology.etcd = { mode: 'managed', members: undefined };
    evidence.push(`managed control plane (${managed.provider}): ${managed.why}; the provider runs and hides the API servers and etcd, so their number cannot be told`);
    return topology;
  }

  if (nodes.some(isK3s)) topology.distribution = 'k3s';
  else if (nodes.some(isKind)) topology.distribution = 'kind';
  else if (kubeadm || apiServerPods.some((p) => Object.keys(annotationsOf(p)).some((k) => k.startsWith('kubeadm.kubernetes.io/')))) topology.distribution = 'kubeadm';
  if (topology.distribution !== 'unknown') evidence.push(`distribution: ${topology.distribution}`);

  const counts = [controlPlaneNodes.length, apiServerPods.length, identityLeases.length, apiServerEndpoints.length];
  const count = greatest(counts);
  topology.controlPlaneCount = count > 0 ? count : undefined;
  if (count > 0 && new Set(counts.filter((c) => c > 0)).size > 1) evidence.push(`the sources disagree (${counts.join('/')}); counting the largest, ${count}`);
  if (count === 0) evidence.push('no control-plane node, API server pod, identity lease or kubernetes endpoint was visible: the number of control planes is unknown');

  const leaders = { scheduler: leaseHolderNode(resources, 'kube-scheduler'), controllerManager: leaseHolderNode(resources, 'kube-controller-manager') };
  if (leaders.scheduler || leaders.controllerManager) {
    topology.leaders = leaders;
    evidence.push(`leader leases in kube-system: ${[leaders.scheduler && `the scheduler's on ${leaders.scheduler}`, leaders.controllerManager && `the controller manager's on ${leaders.controllerManager}`].filter(Boolean).join(', ')}`);
  }
  const grace = nodeMonitorGrace(staticPods(pods, 'kube-controller-manager'), leaders.controllerManager, kubeadm);
  if (grace) {
    topology.nodeMonitorGrace = grace;
    evidence.push(`node-monitor grace period ${grace.seconds} s (${grace.how})`);
  }

  if (kubeadm) {
    topology.controlPlaneEndpoint = kubeadm.controlPlaneEndpoint || undefined;
    evidence.push(kubeadm.controlPlaneEndpoint ? `kubeadm-config: controlPlaneEndpoint ${kubeadm.controlPlaneEndpoint}` : 'kubeadm-config has no controlPlaneEndpoint: kubeadm cannot turn this control plane into an HA one');
  }
  const external = kubeadm?.etcd?.external?.endpoints;
  if (Array.isArray(external) && external.length) {
    topology.etcd = { mode: 'external', members: external.length, endpoints: external.map(String) };
    evidence.push(`kubeadm-config lists ${plural(external.length, 'external etcd endpoint')} (${external.join(', ')})`);
  } else if (etcdPods.length) {
    topology.etcd = { mode: 'stacked', members: etcdPods.length, endpoints: etcdPods.map((p) => annotationsOf(p)['kubeadm.kubernetes.io/etcd.advertise-client-urls']).filter(Boolean) };
    evidence.push(`${plural(etcdPods.length, 'etcd static pod')} in kube-system (${names(etcdPods)}): stacked etcd`);
  } else if (topology.distribution === 'k3s') {
    const etcdNodes = nodes.filter((n) => labelsOf(n)['node-role.kubernetes.io/etcd'] === 'true');
    if (etcdNodes.length) {
      topology.etcd = { mode: 'stacked', members: etcdNodes.length };
      evidence.push(`${plural(etcdNodes.length, 'k3s server')} with the etcd role: embedded etcd`);
    } else {
      evidence.push('k3s servers without the etcd role: the datastore is SQLite or an external database through kine');
    }
  } else if (kubeadm?.etcd?.local !== undefined && controlPlaneNodes.length) {
    topology.etcd = { mode: 'stacked', members: controlPlaneNodes.length };
    evidence.push('kubeadm-config uses local etcd: one member per control-plane node');
  }
  return topology;
}

/** One sentence for a status bar's tooltip: how the control plane survives losing a member. */
export function topologyVerdict(topology: Topology): string {
  if (topology.managed) return `The control plane is managed by ${topology.managed}: its redundancy is the provider's and cannot be seen from here.`;
  const count = topology.controlPlaneCount;
  if (count === undefined) return 'How many control planes there are cannot be told from what was read.';
  if (count === 1) return 'One control plane: while it is down there is no API, and nothing is rescheduled, replaced or scaled; running pods keep serving.';
  // etcd needs a majority of its members: n members survive the loss of ⌊(n − 1) ÷ 2⌋.
  const members = topology.etcd.members ?? count;
  const survivable = Math.floor((members - 1) / 2);
  const etcd = `etcd of ${plural(members, 'member')}`;
  if (survivable === 0) return `${plural(count, 'control plane')}, but ${etcd} needs every one for a majority: losing any stops the API.`;
  const even = members % 2 === 0 ? `, no more than ${plural(members - 1, 'member')} would` : '';
  return `${plural(count, 'control plane')}: ${etcd} survives the loss of ${survivable}${even}.`;
}
