import type { ClusterInfo, MissingResource } from '../server/src/cluster/types';
import type { Topology } from '../server/src/cluster/topology';
import { Inventory } from '../server/src/inventory/inventory';
import { resourceFromObject, type Resource } from '../server/src/manifest/parse';
import { analyzeCluster } from '../server/src/rules/engine';
import { RULES } from '../server/src/rules/index';
import type { Finding, Rule } from '../server/src/rules/types';

/**
 * Hand-made clusters for tests: plain Kubernetes JSON objects turned into resources the way the
 * cluster loader does it (`resourceFromObject`).
 */

export function fromObject(object: Record<string, unknown>): Resource {
  const resource = resourceFromObject(object);
  if (!resource) throw new Error(`not a Kubernetes object: ${JSON.stringify(object)}`);
  return resource;
}

export interface NodeShape {
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  /** status.allocatable, e.g. { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' }. */
  allocatable?: Record<string, string>;
  unschedulable?: boolean;
  controlPlane?: boolean;
}

export function node(name: string, shape: NodeShape = {}): Resource {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(shape.labels ?? {}) };
  const taints = [...(shape.taints ?? [])];
  if (shape.controlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = '';
    taints.push({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
  }
  return fromObject({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { ...(taints.length ? { taints } : {}), ...(shape.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110', ...(shape.allocatable ?? {}) } },
  });
}

/** A GPU node as the NVIDIA device plugin and a tainted pool show it. */
export function gpuNode(name: string, shape: NodeShape & { gpus?: number } = {}): Resource {
  return node(name, {
    ...shape,
    labels: { 'nvidia.com/gpu.present': 'true', ...(shape.labels ?? {}) },
    taints: shape.taints ?? [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
    allocatable: { 'nvidia.com/gpu': String(shape.gpus ?? 1), ...(shape.allocatable ?? {}) },
  });
}

export interface PodShape {
  namespace?: string;
  labels?: Record<string, string>;
  nodeName?: string;
  ready?: boolean;
  annotations?: Record<string, string>;
}

export function pod(name: string, shape: PodShape = {}): Resource {
  return fromObject({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: shape.namespace ?? 'default', labels: shape.labels ?? {}, ...(shape.annotations ? { annotations: shape.annotations } : {}) },
    spec: { nodeName: shape.nodeName, containers: [{ name: 'main', image: 'example' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: shape.ready === false ? 'False' : 'True' }] },
  });
}

export function configMap(namespace: string, name: string, data: Record<string, string>): Resource {
  return fromObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
}

export function deploymentObject(namespace: string, name: string, replicas: number, labels: Record<string, string>, spec: Record<string, unknown> = {}): Resource {
  return fromObject({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: name, image: name }], ...spec } } },
  });
}

export function topology(overrides: Partial<Topology> = {}): Topology {
  return {
    controlPlaneNodes: [],
    controlPlaneCount: undefined,
    etcd: { mode: 'unknown', members: undefined },
    apiServerEndpoints: [],
    evidence: [],
    ...overrides,
  };
}

/** A cluster of these resources; the control plane is taken from nodes labelled control-plane unless `topology` says otherwise. */
export function cluster(resources: Resource[], options: { name?: string; topology?: Partial<Topology>; missing?: MissingResource[] } = {}): ClusterInfo {
  const controlPlaneNodes = resources
    .filter((r) => r.kind === 'Node' && r.object?.metadata?.labels?.['node-role.kubernetes.io/control-plane'] !== undefined)
    .map((r) => r.name ?? '');
  return {
    source: 'snapshot',
    name: options.name ?? 'test',
    resources,
    missing: options.missing ?? [],
    topology: topology({ controlPlaneNodes, controlPlaneCount: controlPlaneNodes.length || undefined, ...(options.topology ?? {}) }),
  };
}

/** Findings of one rule over a cluster's own resources (what `analyzeCluster` reports, belonging to no file). */
export function clusterFindings(rule: Rule, info: ClusterInfo): Finding[] {
  const inventory = new Inventory();
  inventory.setCluster(info.resources);
  return analyzeCluster(inventory, { cluster: info, rules: [rule] }).filter((f) => f.ruleId === rule.meta.id);
}

/** The rules that read the cluster's nodes, control plane, DNS and node agents (and their manifest counterparts). */
export const CLUSTER_AWARE_RULES = RULES.filter((r) =>
  [
    'gpu-untolerated', 'gpu-limit-mismatch', 'gpu-keeps-nodes-up', 'gpu-pool-untainted', 'control-plane-single', 'etcd-even-members', 'dns-single-point', 'unschedulable',
    'node-agent-priority', 'node-agent-untolerated', 'node-agent-missing', 'tolerates-every-taint', 'kubelet-memory-unreserved', 'kubelet-memory-eviction-off',
  ].includes(r.meta.id),
);
