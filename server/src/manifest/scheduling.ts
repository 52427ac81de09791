import type { Resource } from './parse';
import type { Path } from './path';
import { parseQuantity } from './quantity';
import { isNativeSidecar, stringMap, type PodTemplate } from './workload';
import type { Labels } from './selector';
import { plural } from '../words';

/**
 * The scheduler's node filters, as far as manifests and a read-only cluster tell them: taints and
 * tolerations, nodeSelector, required node affinity, and resource requests against allocatable.
 */

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  /** When it was put on the node (a NoExecute taint's eviction countdowns start from it), where the node says. */
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** Effects that keep a pod off a node; PreferNoSchedule only makes the scheduler try elsewhere first. */
export const BLOCKING_EFFECTS = ['NoSchedule', 'NoExecute'];

export function describeTaint(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}

function asList(value: unknown): any[] {
  return Array.isArray(value) ? value.filter((v) => v && typeof v === 'object') : [];
}

interface NodeFacts {
  taints?: Taint[];
  labels?: Labels;
  allocatable?: ResourceAmounts;
}

/** Node facts read once per node object: a workspace is judged against every node, many times over. */
const nodeFacts = new WeakMap<object, NodeFacts>();

function memo<K extends keyof NodeFacts>(node: Resource, key: K, compute: () => NonNullable<NodeFacts[K]>): NonNullable<NodeFacts[K]> {
  const object = node.object;
  if (!object || typeof object !== 'object') return compute();
  let facts = nodeFacts.get(object);
  if (!facts) nodeFacts.set(object, (facts = {}));
  return (facts[key] ??= compute()) as NonNullable<NodeFacts[K]>;
}

export function nodeTaints(node: Resource): Taint[] {
  return memo(node, 'taints', () => readTaints(node));
}

function readTaints(node: Resource): Taint[] {
  return asList(node.object?.spec?.taints)
    .filter((t) => typeof t.key === 'string' && typeof t.effect === 'string')
    .map((t) => ({ key: t.key, value: t.value === undefined || t.value === null ? undefined : String(t.value), effect: t.effect, ...(typeof t.timeAdded === 'string' ? { timeAdded: t.timeAdded } : {}) }));
}

/** A node whose Ready condition says anything but True; a node that reports no condition is not judged. */
export function isNodeNotReady(node: Resource): boolean {
  const ready = nodeReadyStatus(node);
  return ready !== undefined && ready !== 'True';
}

/** What a node's Ready condition says (True, False: its kubelet reports NotReady, Unknown: it stopped reporting), if it has one. */
export function nodeReadyStatus(node: Resource): unknown {
  const conditions = node.object?.status?.conditions;
  const ready = Array.isArray(conditions) ? conditions.find((c: any) => c?.type === 'Ready') : undefined;
  return ready ? ready.status : undefined;
}

export function nodeLabels(node: Resource): Labels {
  return memo(node, 'labels', () => stringMap(node.object?.metadata?.labels));
}

export function podTolerations(podSpec: any): Toleration[] {
  return asList(podSpec?.tolerations) as Toleration[];
}

/** The NoExecute taints the node controller puts on a node that stops reporting (Ready Unknown) or reports NotReady (False). */
export type NodeLossTaint = 'node.kubernetes.io/unreachable' | 'node.kubernetes.io/not-ready';

export const NODE_LOSS_TAINTS: readonly NodeLossTaint[] = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'];

/**
 * How long a pod of this spec stays on a node carrying `taint` before the node controller evicts it, by its own
 * tolerations: the first matching one's `tolerationSeconds` (null, for ever, when it sets none), or undefined when
 * none matches and admission gives it the default (300 s). The first, not the shortest: the taint manager keeps the
 * first toleration that tolerates each taint (GetMatchingTolerations) and only then takes the least of theirs.
 */
export function nodeLossTolerationSeconds(spec: any, taint: NodeLossTaint): number | null | undefined {
  const match = podTolerations(spec).find((t) => t && toleratesTaint(t, { key: taint, effect: 'NoExecute' }));
  if (!match) return undefined;
  return typeof match.tolerationSeconds === 'number' ? Math.max(0, match.tolerationSeconds) : null;
}

/** Kubernetes' Toleration.ToleratesTaint: an empty key with Exists tolerates every taint; an empty effect every effect. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  const operator = toleration.operator || 'Equal';
  if (!toleration.key) return operator === 'Exists';
  if (toleration.key !== taint.key) return false;
  if (operator === 'Exists') return true;
  if (operator !== 'Equal') return false;
  return String(toleration.value ?? '') === (taint.value ?? '');
}

/** The node's taints that keep this pod off it: blocking effects that no toleration matches. */
export function untoleratedTaints(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint[] {
  return taints.filter((taint) => BLOCKING_EFFECTS.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

/** Taints the node lifecycle controller sets for a node's conditions: transient, never a pool's design. */
export function isConditionTaint(taint: Taint): boolean {
  return taint.key.startsWith('node.kubernetes.io/') || taint.key.startsWith('node.cloudprovider.kubernetes.io/');
}

/** Tolerations the DaemonSet controller adds to every pod of a DaemonSet. */
const DAEMONSET_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** nodeSelector: every entry must be a label of the node. */
export function matchesNodeSelector(nodeSelector: unknown, labels: Labels): boolean {
  return Object.entries(stringMap(nodeSelector)).every(([key, value]) => labels[key] === value);
}

interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: unknown[];
}

function requirementHolds(requirement: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = asValues(requirement.values);
  const present = value !== undefined;
  switch (requirement.operator) {
    case 'In':
      return present && values.includes(value);
    case 'NotIn':
      return !present || !values.includes(value);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    case 'Gt':
    case 'Lt': {
      if (!present || values.length !== 1) return false;
      const have = Number.parseInt(value, 10);
      const bound = Number.parseInt(values[0], 10);
      if (!/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0])) return false;
      return requirement.operator === 'Gt' ? have > bound : have < bound;
    }
    default:
      return false;
  }
}

function asValues(values: unknown): string[] {
  return Array.isArray(values) ? values.map(String) : [];
}

/** One nodeSelectorTerm: all its expressions and fields must hold; a term with neither matches no node. */
function termMatches(term: any, node: Resource): boolean {
  const expressions = asList(term?.matchExpressions) as NodeSelectorRequirement[];
  const fields = asList(term?.matchFields) as NodeSelectorRequirement[];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = nodeLabels(node);
  const fieldValue = (key: string | undefined) => (key === 'metadata.name' ? (node.name ?? undefined) : undefined);
  return (
    expressions.every((r) => typeof r.key === 'string' && requirementHolds(r, Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined)) &&
    fields.every((r) => r.key === 'metadata.name' && (r.operator === 'In' || r.operator === 'NotIn') && requirementHolds(r, fieldValue(r.key)))
  );
}

/** requiredDuringSchedulingIgnoredDuringExecution: any one of the nodeSelectorTerms (an empty list matches nothing). */
export function matchesRequiredNodeAffinity(podSpec: any, node: Resource): boolean {
  const required = podSpec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required || typeof required !== 'object') return true;
  return asList(required.nodeSelectorTerms).some((term) => termMatches(term, node));
}

export type ResourceAmounts = Record<string, number>;

/** The quantities of a resource list (requests, limits, overhead, allocatable) that parse. */
function amountsOf(list: unknown): ResourceAmounts {
  const amounts: ResourceAmounts = {};
  if (!list || typeof list !== 'object') return amounts;
  for (const [name, raw] of Object.entries(list)) {
    const amount = parseQuantity(raw);
    if (amount !== undefined) amounts[name] = amount;
  }
  return amounts;
}

/** A container's requests; a resource with only a limit is requested at that limit, as the API server defaults it. */
function containerRequests(container: any): ResourceAmounts {
  return { ...amountsOf(container?.resources?.limits), ...amountsOf(container?.resources?.requests) };
}

function add(into: ResourceAmounts, amounts: ResourceAmounts): ResourceAmounts {
  for (const [name, amount] of Object.entries(amounts)) into[name] = (into[name] ?? 0) + amount;
  return into;
}

function maxOf(into: ResourceAmounts, amounts: ResourceAmounts): ResourceAmounts {
  for (const [name, amount] of Object.entries(amounts)) into[name] = Math.max(into[name] ?? 0, amount);
  return into;
}

/**
 * Resources a pod can request for itself as a whole (spec.resources, PodLevelResources: beta and on by default
 * since Kubernetes 1.34). Hugepages can be too, but nothing here weighs them.
 */
const POD_LEVEL_RESOURCES = ['cpu', 'memory'];

/**
 * The pod's own requests, which take precedence over its containers' (component-helpers' PodRequests): per
 * resource, the request written, else its pod-level limit when no container requests it, as the API server
 * defaults it (when containers do, it defaults to theirs, which is what they add up to already).
 */
function podLevelRequests(podSpec: any, containers: ResourceAmounts): { amounts: ResourceAmounts; fields: PodLevelFields } {
  const requests = amountsOf(podSpec?.resources?.requests);
  const limits = amountsOf(podSpec?.resources?.limits);
  const amounts: ResourceAmounts = {};
  const fields: PodLevelFields = {};
  for (const name of POD_LEVEL_RESOURCES) {
    if (Object.hasOwn(requests, name)) [amounts[name], fields[name]] = [requests[name], 'requests'];
    else if (Object.hasOwn(limits, name) && !Object.hasOwn(containers, name)) [amounts[name], fields[name]] = [limits[name], 'limits'];
  }
  return { amounts, fields };
}

/** Which field of the pod's own `spec.resources` each resource's request was taken from. */
type PodLevelFields = Record<string, 'requests' | 'limits'>;

/**
 * What the scheduler reserves for a pod: the sum of its containers (with sidecars: init containers
 * that keep running) versus the largest init container that runs alone before them, or the pod's own
 * requests where it sets them; plus overhead.
 */
export function podRequests(podSpec: any): ResourceAmounts {
  return podRequestsAndFields(podSpec).requests;
}

/**
 * Where the pod's request of `name` is written when the pod sets it for itself (`spec.resources`): the path
 * in the pod spec a finding about it points at; undefined when its containers decide it.
 */
export function podLevelRequestPath(podSpec: any, name: string): Path | undefined {
  const field = podRequestsAndFields(podSpec).fields[name];
  return field && ['resources', field, name];
}

function podRequestsAndFields(podSpec: any): { requests: ResourceAmounts; fields: PodLevelFields } {
  const sidecars: ResourceAmounts = {};
  const initPeak: ResourceAmounts = {};
  for (const init of asList(podSpec?.initContainers)) {
    const own = containerRequests(init);
    if (isNativeSidecar(init)) {
      add(sidecars, own);
      maxOf(initPeak, sidecars);
    } else {
      maxOf(initPeak, add({ ...sidecars }, own));
    }
  }
  const running = add({ ...sidecars }, asList(podSpec?.containers).reduce<ResourceAmounts>((sum, c) => add(sum, containerRequests(c)), {}));
  const containers = maxOf(running, initPeak);
  const podLevel = podLevelRequests(podSpec, containers);
  const total = { ...containers, ...podLevel.amounts };
  add(total, amountsOf(podSpec?.overhead));
  for (const [name, amount] of Object.entries(total)) if (amount === 0) delete total[name];
  return { requests: total, fields: podLevel.fields };
}

/** What the node offers pods: status.allocatable, else status.capacity. */
export function nodeAllocatable(node: Resource): ResourceAmounts {
  return memo(node, 'allocatable', () => readAllocatable(node));
}

function readAllocatable(node: Resource): ResourceAmounts {
  const status = node.object?.status ?? {};
  return amountsOf(status.allocatable && typeof status.allocatable === 'object' ? status.allocatable : status.capacity);
}

/** Resources the scheduler compares; ephemeral-storage and hugepages are left out (capacity is often not reported). */
function isCompared(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name === 'pods' || name.includes('/');
}

export function formatAmount(name: string, amount: number): string {
  if (name === 'memory') return formatMemory(amount);
  if (name === 'cpu') return amount < 1 ? `${Math.round(amount * 1000)}m CPU` : `${+amount.toFixed(3)} CPU`;
  return `${+amount.toFixed(3)} ${name}`;
}

function formatMemory(bytes: number): string {
  for (const [unit, size] of [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
    if (bytes >= size) return `${+(bytes / size).toFixed(1)}${unit} memory`;
  }
  return `${bytes} bytes of memory`;
}

export type ReasonKind = 'cordoned' | 'node-name' | 'taint' | 'node-selector' | 'node-affinity' | 'resources';

/** Why a pod cannot run on a node: the first of the scheduler's filters it fails, in the scheduler's order. */
export interface NodeVerdict {
  node: Resource;
  fits: boolean;
  kind?: ReasonKind;
  reason?: string;
  /** The resource the node lacks, when that is why. */
  resource?: string;
}

export interface PodPlacementInput {
  spec: any;
  /** Tolerations added on admission (DaemonSet controller, a managed cluster's plugins). */
  extraTolerations?: Toleration[];
}

/** What a pod brings to every node it is judged against, worked out once. */
interface PreparedPod {
  spec: any;
  tolerations: Toleration[];
  nodeSelector: [string, string][];
  requests: ResourceAmounts;
}

function preparePod(input: PodPlacementInput): PreparedPod {
  return {
    spec: input.spec,
    tolerations: [...podTolerations(input.spec), ...(input.extraTolerations ?? [])],
    nodeSelector: Object.entries(stringMap(input.spec?.nodeSelector)),
    requests: podRequests(input.spec),
  };
}

const CORDON: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export function judgeNode(input: PodPlacementInput, node: Resource): NodeVerdict {
  return judgePrepared(preparePod(input), node);
}

function judgePrepared(pod: PreparedPod, node: Resource): NodeVerdict {
  const { spec, tolerations } = pod;
  if (node.object?.spec?.unschedulable === true && !tolerations.some((t) => toleratesTaint(t, CORDON))) {
    return { node, fits: false, kind: 'cordoned', reason: 'cordoned' };
  }
  if (typeof spec?.nodeName === 'string' && spec.nodeName && spec.nodeName !== node.name) {
    return { node, fits: false, kind: 'node-name', reason: `not the node named in nodeName (${spec.nodeName})` };
  }
  const blocking = untoleratedTaints(nodeTaints(node), tolerations);
  if (blocking.length) return { node, fits: false, kind: 'taint', reason: `tainted ${blocking.map(describeTaint).join(', ')} without a toleration` };
  const labels = nodeLabels(node);
  const missing = pod.nodeSelector.filter(([k, v]) => labels[k] !== v);
  if (missing.length) {
    return { node, fits: false, kind: 'node-selector', reason: `without the label ${missing.map(([k, v]) => `${k}=${v}`).join(', ')} (nodeSelector)` };
  }
  if (!matchesRequiredNodeAffinity(spec, node)) return { node, fits: false, kind: 'node-affinity', reason: 'outside the required node affinity' };
  const allocatable = nodeAllocatable(node);
  for (const [name, amount] of Object.entries(pod.requests)) {
    if (!isCompared(name)) continue;
    const offered = allocatable[name];
    if (offered === undefined || offered === 0) {
      if (name === 'cpu' || name === 'memory' || name === 'pods') continue; // not reported: unknown, not zero
      return { node, fits: false, kind: 'resources', reason: `without ${name}`, resource: name };
    }
    if (offered < amount) return { node, fits: false, kind: 'resources', reason: `with less than ${formatAmount(name, amount)} allocatable`, resource: name };
  }
  return { node, fits: true };
}

export interface Placement {
  total: number;
  fitting: Resource[];
  /** Why the other nodes do not fit, most common first: "3 tainted … without a toleration". */
  reasons: PlacementReason[];
  requests: ResourceAmounts;
}

/** Why some of the nodes do not fit, and on how many. */
export interface PlacementReason {
  kind: ReasonKind;
  reason: string;
  resource?: string;
  count: number;
}

/** On how many of the nodes the pod could run, judged on capacity (not on the room running pods leave). */
export function placePod(input: PodPlacementInput, nodes: readonly Resource[]): Placement {
  const pod = preparePod(input);
  const fitting: Resource[] = [];
  const counts = new Map<string, PlacementReason>();
  for (const node of nodes) {
    const verdict = judgePrepared(pod, node);
    if (verdict.fits) {
      fitting.push(node);
      continue;
    }
    const entry = counts.get(verdict.reason!) ?? { kind: verdict.kind!, reason: verdict.reason!, resource: verdict.resource, count: 0 };
    entry.count++;
    counts.set(verdict.reason!, entry);
  }
  const reasons = [...counts.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return { total: nodes.length, fitting, reasons, requests: pod.requests };
}

export function describePlacement(placement: Placement): string {
  const head = `fits on ${placement.fitting.length} of ${plural(placement.total, 'node')}`;
  if (!placement.reasons.length) return head;
  return `${head}: ${placement.reasons.map((r) => `${r.count} ${r.reason}`).join(', ')}`;
}

/** The pod template's placement input, with the tolerations the DaemonSet controller adds. */
export function placementInput(kind: string, template: PodTemplate, extraTolerations: Toleration[] = []): PodPlacementInput {
  return { spec: template.spec, extraTolerations: [...(kind === 'DaemonSet' ? DAEMONSET_TOLERATIONS : []), ...extraTolerations] };
}
