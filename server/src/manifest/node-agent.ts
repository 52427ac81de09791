import type { Resource } from './parse';
import { BLOCKING_EFFECTS, podTolerations, type Toleration } from './scheduling';
import { containersOf, describeResource, podTemplateOf, stringMap } from './workload';

/**
 * Node agents: DaemonSets that keep a node working (Service routing, pod networking, DNS, volumes,
 * logs, metrics, devices). One helper decides what counts as one, for every rule and the hover card.
 */

export type AgentRole = 'proxy' | 'network' | 'dns' | 'storage' | 'logs' | 'metrics' | 'hardware';

export interface NodeAgent {
  /** What the agent does, when its image tells; undefined for an agent known only by where it runs. */
  role?: AgentRole;
  /** The agent in words: "kube-proxy", "the CNI agent calico-node", "a DaemonSet in kube-system". */
  description: string;
}

interface KnownImage {
  role: AgentRole;
  /** Matched against the image's repository path (registry, tag and digest removed). */
  pattern: RegExp;
  name: string;
}

const KNOWN_IMAGES: readonly KnownImage[] = [
  { role: 'proxy', pattern: /(^|\/)kube-proxy(-amd64|-arm64)?$/, name: 'kube-proxy' },
  { role: 'network', pattern: /(^|\/)calico\/node$/, name: 'calico-node' },
  { role: 'network', pattern: /(^|\/)cilium\/cilium$/, name: 'cilium' },
  { role: 'network', pattern: /(^|\/)(flannel|flanneld)$/, name: 'flannel' },
  { role: 'network', pattern: /(^|\/)weave-kube$/, name: 'weave-net' },
  { role: 'network', pattern: /(^|\/)amazon-k8s-cni$/, name: 'aws-node' },
  { role: 'network', pattern: /(^|\/)antrea-(agent-)?(ubuntu|ubi)$/, name: 'antrea-agent' },
  { role: 'network', pattern: /(^|\/)kube-router$/, name: 'kube-router' },
  { role: 'dns', pattern: /(^|\/)k8s-dns-node-cache(-amd64)?$/, name: 'node-local-dns' },
  { role: 'storage', pattern: /(^|\/)csi-node-driver-registrar$/, name: 'a CSI node plugin' },
  { role: 'logs', pattern: /(^|\/)fluent-bit$/, name: 'fluent-bit' },
  { role: 'logs', pattern: /(^|\/)(fluentd[-\w]*|fluentd-elasticsearch)$/, name: 'fluentd' },
  { role: 'logs', pattern: /(^|\/)promtail$/, name: 'promtail' },
  { role: 'logs', pattern: /(^|\/)timberio\/vector$/, name: 'vector' },
  { role: 'logs', pattern: /(^|\/)filebeat$/, name: 'filebeat' },
  { role: 'metrics', pattern: /(^|\/)node-exporter$/, name: 'node-exporter' },
  { role: 'metrics', pattern: /(^|\/)datadog(hq)?\/agent$/, name: 'datadog-agent' },
  { role: 'metrics', pattern: /(^|\/)opentelemetry-collector(-contrib|-k8s)?$/, name: 'an OpenTelemetry collector agent' },
  { role: 'metrics', pattern: /(^|\/)newrelic\/infrastructure(-k8s)?$/, name: 'newrelic-infra' },
  { role: 'hardware', pattern: /(^|\/)(k8s-device-plugin|intel-gpu-plugin|k8s-device-plugin-amd)$/, name: 'a device plugin' },
  { role: 'hardware', pattern: /(^|\/)dcgm-exporter$/, name: 'dcgm-exporter (GPU metrics)' },
];

const ROLE_WORDS: Record<AgentRole, string> = {
  proxy: 'Service routing',
  network: 'pod networking',
  dns: 'node-local DNS caching',
  storage: 'volume mounts',
  logs: 'log collection',
  metrics: 'node metrics',
  hardware: 'device access',
};

/** The image's repository path: `registry.k8s.io/kube-proxy:v1.33.4` → `kube-proxy`, `docker.io/calico/node` → `calico/node`. */
export function imageRepository(image: unknown): string {
  if (typeof image !== 'string') return '';
  let path = image.trim().toLowerCase().split('@')[0];
  const lastSlash = path.lastIndexOf('/');
  const colon = path.lastIndexOf(':');
  if (colon > lastSlash) path = path.slice(0, colon);
  const parts = path.split('/');
  // A first segment with a dot or a port is a registry host, not part of the repository.
  if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0])) parts.shift();
  return parts.join('/');
}

/** Node feature discovery only labels nodes (NVIDIA's runs from the device plugin's image): losing it for a while costs no node anything. */
function labelsNodesOnly(container: any): boolean {
  const words = [container?.name, ...(Array.isArray(container?.command) ? container.command : [])].map(String).join(' ');
  return /feature-discovery/.test(words);
}

function knownImageOf(resource: Resource): KnownImage | undefined {
  for (const { container } of containersOf(resource)) {
    if (labelsNodesOnly(container)) continue;
    const repository = imageRepository(container?.image);
    const known = KNOWN_IMAGES.find((k) => k.pattern.test(repository));
    if (known) return known;
  }
  return undefined;
}

/** The node agent a DaemonSet is, or undefined: a known agent image, a DaemonSet in kube-system, or one on the host's network. */
export function nodeAgentOf(resource: Resource): NodeAgent | undefined {
  if (resource.kind !== 'DaemonSet') return undefined;
  const known = knownImageOf(resource);
  if (known) {
    const description = known.role === 'network' ? `the CNI agent ${known.name}` : known.name;
    return { role: known.role, description };
  }
  if (resource.namespace === 'kube-system') return { description: 'a DaemonSet in kube-system' };
  if (podTemplateOf(resource)?.spec?.hostNetwork === true) return { description: 'a DaemonSet on the host network' };
  return undefined;
}

/** "Service routing", "pod networking": what a node runs without when the agent is gone ("this agent" when unknown). */
export function agentDuty(agent: NodeAgent): string {
  return agent.role ? ROLE_WORDS[agent.role] : 'this agent';
}

/** Agents without which a node cannot serve pods: Service routing and pod networking. */
export function isNetworkAgent(agent: NodeAgent | undefined): boolean {
  return agent?.role === 'proxy' || agent?.role === 'network';
}

/** Whether a toleration matches every taint of an effect: `operator: Exists` without a key (an empty effect covers all). */
export function catchAllFor(toleration: Toleration, effect: string): boolean {
  return toleration.operator === 'Exists' && !toleration.key && (!toleration.effect || toleration.effect === effect);
}

/** The blocking effects (NoSchedule, NoExecute) whose every taint the pod spec tolerates. */
export function effectsToleratedEverywhere(podSpec: unknown): string[] {
  const tolerations = podTolerations(podSpec);
  return BLOCKING_EFFECTS.filter((effect) => tolerations.some((t) => catchAllFor(t, effect)));
}

/** The toleration that tolerates every taint of every effect, when the pod spec has one. */
export function toleratesEveryTaint(podSpec: unknown): boolean {
  return effectsToleratedEverywhere(podSpec).length === BLOCKING_EFFECTS.length;
}

const PLATFORM_LABELS = new Set(['kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch']);

/**
 * Whether the pod spec picks a kind of node (a GPU pool, the control plane) rather than every node
 * of its platform: a nodeSelector or required node affinity term on a label other than the OS and
 * architecture, in every term. Terms that only exclude (NotIn, DoesNotExist) pick nothing.
 */
export function targetsSomeNodes(podSpec: any): boolean {
  if (Object.keys(stringMap(podSpec?.nodeSelector)).some((key) => !PLATFORM_LABELS.has(key))) return true;
  const terms = podSpec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!Array.isArray(terms) || terms.length === 0) return false;
  // Terms are ORed: one that admits every node of the platform admits the agent everywhere.
  return terms.every(
    (term: any) =>
      Array.isArray(term?.matchFields) && term.matchFields.length > 0 ||
      (Array.isArray(term?.matchExpressions) ? term.matchExpressions : []).some(
        (e: any) => e && typeof e.key === 'string' && !PLATFORM_LABELS.has(e.key) && !['NotIn', 'DoesNotExist'].includes(e.operator),
      ),
  );
}

/** "DaemonSet kube-system/node-local-dns", with what the agent is when its name does not say it: "DaemonSet logging/collector (fluent-bit)". */
export function describeNodeAgent(resource: Resource, agent: NodeAgent): string {
  const base = describeResource(resource);
  if (!agent.role) return base;
  const name = agent.description.replace(/^the CNI agent /, '');
  return (resource.name ?? '').includes(name) ? base : `${base} (${agent.description})`;
}
