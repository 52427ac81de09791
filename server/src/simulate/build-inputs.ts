import type { ClusterInfo } from '../cluster/types';
import { Inventory, ownedByAnother } from '../inventory/inventory';
import { autoscalerBounds } from '../manifest/autoscaler';
import { isScaledObject } from '../manifest/scaled-object';
import { resourceFromObject, type Resource } from '../manifest/parse';
import { isNodeNotReady, nodeAllocatable, nodeReadyStatus, nodeLabels, NODE_LOSS_TAINTS, nodeLossTolerationSeconds, nodeTaints, placementInput, placePod } from '../manifest/scheduling';
import { acceptedMaxSkew, HOSTNAME_TOPOLOGY, ZONE_KEYS } from '../manifest/spread';
import { selectorMatches } from '../manifest/selector';
import { declaredFacts } from '../manifest/declared';
import { portNeverResolves, probeTimings, startBudget } from '../manifest/probe';
import { containersOf, isLongRunning, podTemplateOf, type ContainerRef } from '../manifest/workload';
import { statefulSetPodNames } from '../manifest/controller-labels';
import { apiClientOf } from './api-clients';
import type { NotServing, SimNode, SimTopology, SimWorkload } from './model';
import { assumedPlacement, type SpreadRules } from './placement';
import type { StartBudget } from './restart-readiness';
import { voluntaryDisruptionFacts } from './disruption-inputs';
import { scheduleNeverFires } from './cron';
import { apiServersDown } from './api-servers-down';
import { apiServerAddresses } from '../cluster/topology-detect';
import { plural, sentenceList } from '../words';
import { compareCodeUnits } from '../sorted';
import { countOnNode, onNode } from './on-node';
import { setOwnField } from '../own-field';
import { TIMING } from './facts';

const ZONE_LABEL = 'topology.kubernetes.io/zone';
const CONTROL_PLANE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

export interface SimInputs {
  topology: SimTopology;
  workloads: SimWorkload[];
}

/**
 * The simulator's inputs from what the engine knows: a cluster (live, snapshot or demo) and the
 * workspace's manifests in one inventory. Without a cluster, a small kubeadm cluster is assumed.
 */
export function buildSimInputs(inventory: Inventory, cluster: ClusterInfo | undefined): SimInputs {
  // What the cluster refused (a user who may not list pods) is said first: what follows is assumed in its place.
  const assumptions: string[] = (cluster?.missing ?? []).map((m) => `${m.resource} could not be read (${m.reason}): ${Object.hasOwn(MISSING_MEANS, m.resource) ? MISSING_MEANS[m.resource] : 'left out'}`);
  const nodeResources = nodesOf(inventory, cluster, assumptions);
  const cpNames = new Set(cluster?.topology.controlPlaneNodes ?? []);
  let nodes: SimNode[] = nodeResources.map((node) => toSimNode(node, cpNames));
  let managed: string | undefined = cluster?.topology.managed;
  if (!nodes.some((n) => n.controlPlane)) {
    // A hidden control plane still has to be drawn to be failed.
    const count = managed ? 3 : (cluster?.topology.controlPlaneCount ?? 1);
    const hidden = Array.from({ length: count }, (_, i): SimNode => ({ name: `${managed ? 'managed-' : ''}control-plane-${i + 1}`, controlPlane: true, labels: {}, taints: [] }));
    nodes = [...hidden, ...nodes];
    assumptions.push(
      managed
        ? `the ${managed} control plane is hidden: drawn as ${count} control-plane nodes with stacked etcd`
        : `no control-plane node was seen: assumed ${count} (${hidden.map((n) => n.name).join(', ')}) with stacked etcd`,
    );
  }
  const cpCount = nodes.filter((n) => n.controlPlane).length;
  const etcdInfo = cluster?.topology.etcd;
  let etcd: SimTopology['etcd'] = { mode: 'stacked', members: cpCount };
  if (etcdInfo?.mode === 'external') {
    etcd = { mode: 'external', members: etcdInfo.members ?? 3 };
    if (etcdInfo.members === undefined) assumptions.push('external etcd with an unknown member count: assumed 3');
  } else if (etcdInfo && etcdInfo.mode === 'unknown' && cluster) {
    assumptions.push(`etcd topology unknown: assumed stacked, one member on each of the ${cpCount} control-plane nodes`);
  }

  // Their pods serve nothing.
  const notReady = new Set(nodeResources.filter(isNodeNotReady).map((node) => node.name!));
  // A pod that has ended, or is being deleted, is no replica: the kube-dns Service sends it nothing.
  const coreDnsPods = inventory.inNamespace('kube-system', 'Pod').filter((p) => isClusterDnsPod(p) && typeof p.object?.spec?.nodeName === 'string' && !hasEnded(p) && !p.object?.metadata?.deletionTimestamp);
  const workloads = inventory
    .resources()
    .filter((r) => isLongRunning(r) && r.name && !isControlPlanePod(r) && (!ownedByAnother(r) || isStaticPod(r)))
    .map((r) => toSimWorkload(r, inventory, nodeResources, nodes, notReady, assumptions))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  let coreDnsNodes = coreDnsPods.map((p) => String(p.object.spec.nodeName));
  // Without its pods, where the CoreDNS workload of the manifests is placed: cluster DNS and that workload are one.
  const dnsWorkloads = coreDnsNodes.length ? [] : workloads.filter((w) => w.clusterDns);
  if (dnsWorkloads.length) {
    coreDnsNodes = dnsWorkloads.flatMap((w) => Object.entries(w.placement).flatMap(([node, count]) => Array<string>(count).fill(node)));
  } else if (!coreDnsNodes.length) {
    const ready = nodes.filter((n) => !notReady.has(n.name));
    const workers = ready.filter((n) => !n.controlPlane);
    const where = assumedPlacement(2, workers.length ? workers : ready.length ? ready : nodes, { byZone: true, onePerNode: false }, 'coredns');
    coreDnsNodes = Object.entries(where).flatMap(([node, count]) => Array<string>(count).fill(node));
    assumptions.push(`CoreDNS placement unknown: assumed 2 replicas on ${coreDnsNodes.join(' and ')}`);
  }
  const nodeLocalDns = inventory.inNamespace('kube-system', 'DaemonSet').some((d) => /node-local-dns|nodelocaldns/.test(d.name ?? ''));

  const down = cluster ? apiServersDown(nodeResources.filter((n) => nodes.some((s) => s.controlPlane && s.name === n.name)), apiServerAddresses(cluster.resources)) : [];
  if (down.length) {
    assumptions.push(`the default/kubernetes EndpointSlice does not list the API server${down.length === 1 ? '' : 's'} of ${down.join(', ')}: not serving when the cluster was read, so down from the start`);
  }
  const reported = nodeResources.filter((n) => notReady.has(n.name!) && nodeReadyStatus(n) === 'False').map((n) => n.name!);
  const taintedFor = cluster?.readAt === undefined ? {} : notReadyTaintedFor(nodeResources.filter((n) => notReady.has(n.name!)), cluster.readAt);
  const grace = cluster?.topology.nodeMonitorGrace?.seconds;
  if (cluster && grace === undefined) assumptions.push(`the controller manager's flags and version were not seen: its node-monitor grace period assumed ${TIMING.nodeMonitorGrace} s, the default since v1.32 (40 s before)`);
  const leaders = cluster?.topology.leaders;
  const topology: SimTopology = {
    nodes,
    etcd,
    managed,
    ...(grace !== undefined ? { nodeMonitorGrace: grace } : {}),
    ...(leaders ? { leaders } : {}),
    coreDnsNodes,
    ...(dnsWorkloads.length && !coreDnsNodes.length ? { clusterDnsWithoutReplicas: withoutReplicas(dnsWorkloads) } : {}),
    nodeLocalDns,
    assumptions,
    ...(down.length ? { apiServersDown: down } : {}),
    ...(notReady.size ? { notReadyNodes: [...notReady] } : {}),
    ...(Object.keys(taintedFor).length ? { notReadyTaintedFor: taintedFor } : {}),
    ...(reported.length ? { notReadyReported: reported } : {}),
  };
  return { topology, workloads };
}

/**
 * How long each node had carried the node controller's NoExecute taint when the cluster was read (`readAt`), by the
 * taint's `timeAdded`; a node without one (or with a time after the read: another clock) is left out.
 */
function notReadyTaintedFor(nodes: readonly Resource[], readAt: number): Record<string, number> {
  const since: Record<string, number> = {};
  for (const node of nodes) {
    const added = nodeTaints(node)
      .filter((t) => t.effect === 'NoExecute' && (NODE_LOSS_TAINTS as readonly string[]).includes(t.key))
      .map((t) => Date.parse(String(t.timeAdded)));
    const first = Math.min(...added.filter((time) => time <= readAt));
    if (Number.isFinite(first)) since[node.name!] = Math.floor((readAt - first) / 1000);
  }
  return since;
}

/** What the simulation takes instead of a resource type the cluster did not let be read. */
const MISSING_MEANS: Record<string, string> = {
  pods: "each workload's pods are placed as assumed below and counted from its spec, all running and ready (its status may say fewer)",
  nodes: 'the nodes are assumed below',
  poddisruptionbudgets: 'drains are simulated with the workspace\'s budgets only',
  horizontalpodautoscalers: 'replica counts are the workloads\' own',
  scaledobjects: 'replica counts are the workloads\' own, as if KEDA scaled none of them',
};

/** The nodes the cluster's pods are bound to, by name, sorted. */
function nodesNamedByPods(inventory: Inventory): string[] {
  const names = new Set<string>();
  for (const pod of inventory.ofKind('Pod')) {
    const node = pod.object?.spec?.nodeName;
    if (!pod.document && typeof node === 'string' && node) names.add(node);
  }
  return [...names].sort(compareCodeUnits);
}

/**
 * The cluster's nodes, each once and by name; else, when none could be read (a user who may not list
 * nodes), those its pods run on; else an assumed kubeadm cluster. What was left out or assumed is said.
 */
function nodesOf(inventory: Inventory, cluster: ClusterInfo | undefined, assumptions: string[]): Resource[] {
  const listed = inventory.ofKind('Node');
  // A node without a name cannot be drained, failed or told apart; one listed twice (two snapshots joined) is one node.
  const named = new Map(listed.filter((node) => node.name).map((node) => [node.name, node]));
  const nameless = listed.filter((node) => !node.name).length;
  if (nameless) assumptions.push(`${plural(nameless, 'node')} without a name left out`);
  if (listed.length - nameless > named.size) assumptions.push(`${plural(listed.length - nameless - named.size, 'node')} listed twice counted once`);
  if (named.size) return [...named.values()];
  const podNodes = nodesNamedByPods(inventory);
  if (podNodes.length) {
    // A node running the control plane's own static pods is a control-plane node.
    const controlPlane = new Set(inventory.ofKind('Pod').filter(isControlPlanePod).map((pod) => pod.object?.spec?.nodeName));
    assumptions.push(`${noNodes(cluster)}: its pods run on ${plural(podNodes.length, 'node')} (${podNodes.slice(0, 8).join(', ')}${podNodes.length > 8 ? ', …' : ''}), known by name only (linux/amd64; a control plane where its static pods run)`);
    return podNodes.map((name) => assumedNode(name, controlPlane.has(name)));
  }
  assumptions.push(
    cluster
      ? `${noNodes(cluster)}: assumed 1 control-plane node (control-plane) and 3 workers (worker-1…3), linux/amd64`
      : 'no cluster given: assumed a kubeadm cluster with 1 control-plane node (control-plane, stacked etcd) and 3 workers (worker-1…3), linux/amd64; pass --demo, --snapshot or --context for a real one',
  );
  return [assumedNode('control-plane', true), ...['worker-1', 'worker-2', 'worker-3'].map((name) => assumedNode(name, false))];
}

/** Why cluster DNS workloads placed nowhere run no replica: scaled to zero, or no node takes their pods. */
function withoutReplicas(dnsWorkloads: readonly SimWorkload[]): string {
  const names = sentenceList(dnsWorkloads.map((w) => `${w.namespace}/${w.name}`));
  const run = dnsWorkloads.length > 1 ? 'run' : 'runs';
  return dnsWorkloads.every((w) => w.replicas === 0) ? `${names} ${run} no replica (replicas: 0)` : `${names} ${run} no replica: no node of the cluster can run ${dnsWorkloads.length > 1 ? 'their' : 'its'} pods, so they stay Pending`;
}

/** Why the simulation knows no node of a cluster: it listed none, or refused to. */
function noNodes(cluster: ClusterInfo | undefined): string {
  return cluster?.missing.some((m) => m.resource === 'nodes') ? 'no node could be read' : 'the cluster listed no nodes';
}

/** A node known by name only; a control-plane one labelled and tainted as kubeadm does. */
function assumedNode(name: string, controlPlane: boolean): Resource {
  return resourceFromObject({
    apiVersion: 'v1',
    kind: 'Node',
    // With the labels every kubelet sets: `nodeSelector: {kubernetes.io/os: linux}`, in most manifests, found no node.
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...(controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : {}) } },
    spec: controlPlane ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {},
  })!;
}

function toSimNode(node: Resource, cpNames: Set<string>): SimNode {
  const labels = nodeLabels(node);
  const allocatable = nodeAllocatable(node);
  return {
    name: node.name!,
    controlPlane: cpNames.has(node.name!) || CONTROL_PLANE_LABELS.some((l) => l in labels),
    zone: labels[ZONE_LABEL],
    labels,
    taints: nodeTaints(node),
    capacity: { cpu: allocatable.cpu, memory: allocatable.memory, gpu: allocatable['nvidia.com/gpu'] },
  };
}

/** A CoreDNS (or kube-dns) pod, as kubeadm and most distributions label it. */
function isClusterDnsPod(pod: Resource): boolean {
  return pod.object?.metadata?.labels?.['k8s-app'] === CLUSTER_DNS_LABEL;
}

const CLUSTER_DNS_LABEL = 'kube-dns';

/** Its pod template's own tolerations of the node controller's NoExecute taints, where it has any. */
function nodeLossToleration(spec: any, kind: string): SimWorkload['nodeLossToleration'] {
  // A DaemonSet's pods stay on a NotReady node whatever they say: the simulator knows them by their kind.
  if (kind === 'DaemonSet') return undefined;
  const own: NonNullable<SimWorkload['nodeLossToleration']> = {};
  for (const taint of NODE_LOSS_TAINTS) {
    const seconds = nodeLossTolerationSeconds(spec, taint);
    if (seconds !== undefined) own[taint] = seconds;
  }
  return Object.keys(own).length ? own : undefined;
}

/** A pod whose containers have all stopped for good (Succeeded or Failed): it holds a node's record, not a replica. */
function hasEnded(pod: Resource): boolean {
  const phase = pod.object?.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function isStaticPod(resource: Resource): boolean {
  return resource.kind === 'Pod' && !!resource.object?.metadata?.annotations?.['kubernetes.io/config.mirror'];
}

/** The control plane's own static pods are the control plane, not workloads. */
function isControlPlanePod(resource: Resource): boolean {
  return resource.kind === 'Pod' && resource.namespace === 'kube-system' && resource.object?.metadata?.labels?.tier === 'control-plane';
}

/**
 * A replica count the simulation can hold: a whole number from 0 to 10,000. Each replica is followed pod by
 * pod: a Deployment of 10 million replicas took 2.8 GB and a drain of it ran for minutes, a billion ran out
 * of memory; -1 or 2.5 made "Serving -1/-1".
 */
function simulatedCount(written: number): number {
  return Number.isFinite(written) ? Math.min(MAX_SIMULATED_REPLICAS, Math.max(0, Math.floor(written))) : 0;
}

const MAX_SIMULATED_REPLICAS = 10_000;

/**
 * The pods observed on each node, scaled to the count a workload is simulated with when its own count could not be
 * (50,000 pods simulated as 10,000 said "16667 of 10000" were lost with one node, and took minutes): each node keeps
 * its share, the largest remainders rounded up.
 */
function scaledTo(observed: Record<string, number>, count: number): Record<string, number> {
  const total = Object.values(observed).reduce((a, b) => a + b, 0);
  if (total <= count) return observed;
  const shares = Object.entries(observed).map(([node, pods]) => ({ node, exact: (pods * count) / total }));
  const placed = shares.map((s) => ({ ...s, pods: Math.floor(s.exact) }));
  let left = count - placed.reduce((sum, s) => sum + s.pods, 0);
  for (const share of [...placed].sort((a, b) => b.exact - b.pods - (a.exact - a.pods) || compareCodeUnits(a.node, b.node))) {
    if (left <= 0) break;
    share.pods++;
    left--;
  }
  return Object.fromEntries(placed.filter((s) => s.pods > 0).map((s) => [s.node, s.pods]));
}

/**
 * Pod names given to an assumed placement, in the order of its nodes: which of a StatefulSet's pods runs where is
 * not known until they run.
 */
function namedInOrder(placement: Record<string, number>, names: readonly string[]): Record<string, string[]> {
  const named: Record<string, string[]> = {};
  let next = 0;
  for (const [node, count] of Object.entries(placement).sort(([a], [b]) => a.localeCompare(b))) setOwnField(named, node, names.slice(next, (next += count)));
  return named;
}

function replicasOf(resource: Resource, inventory: Inventory, eligible: number): number {
  switch (resource.kind) {
    case 'DaemonSet':
      return eligible;
    case 'CronJob':
      return 0;
    case 'Job': {
      const parallelism = resource.object?.spec?.parallelism;
      return typeof parallelism === 'number' ? parallelism : 1;
    }
    case 'Pod':
      return 1;
    default: {
      // A live cluster's count is what runs now (an HPA may have moved it above its minimum).
      const current = resource.object?.spec?.replicas;
      if (!resource.document && typeof current === 'number') return current;
      const effective = inventory.effectiveReplicas(resource);
      // A count that is no integer (2.5) is none the API server takes: what can be simulated of it is, and said so.
      return effective.source === 'default' && typeof current === 'number' ? current : effective.value;
    }
  }
}

const listOf = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/** The failure domain a topology key spreads over: a node, a zone, or one the model does not know. */
function domainOf(key: unknown): 'node' | 'zone' | undefined {
  return key === HOSTNAME_TOPOLOGY ? 'node' : ZONE_KEYS.includes(String(key)) ? 'zone' : undefined;
}

/** Whether a spread or affinity term is about the pods of these labels (a workload's own). */
function ownTerm(labels: Record<string, string>): (term: any) => boolean {
  return (term) => !!term && selectorMatches(term.labelSelector, labels);
}

/** How an assumed placement spreads the pods: by zone when any spread or anti-affinity term of their own asks, one a node when required. */
function spreadRules(podSpec: any, labels: Record<string, string>, hard: Pick<SimWorkload, 'antiAffinity'>): SpreadRules {
  const own = ownTerm(labels);
  const anti = podSpec?.affinity?.podAntiAffinity;
  const terms = [...listOf(podSpec?.topologySpreadConstraints), ...listOf(anti?.requiredDuringSchedulingIgnoredDuringExecution), ...listOf(anti?.preferredDuringSchedulingIgnoredDuringExecution).map((t) => t?.podAffinityTerm)];
  return {
    byZone: terms.some((t) => own(t) && domainOf(t.topologyKey) === 'zone'),
    onePerNode: !!hard.antiAffinity?.includes('node'),
  };
}

/** The host ports its containers take (each once). */
function hostPortsOf(containers: ContainerRef[]): number[] {
  const ports = containers.flatMap(({ container }) => (Array.isArray(container.ports) ? container.ports : []).map((p: { hostPort?: unknown }) => p?.hostPort));
  return [...new Set(ports.filter((p): p is number => Number.isInteger(p) && p > 0))].sort((a, b) => a - b);
}

/**
 * What the scheduler will not break when it places one of its pods: required anti-affinity among its own pods, and
 * spread constraints that refuse to schedule (by node or zone); terms on other topologies are left out.
 */
function hardPlacementRules(podSpec: any, labels: Record<string, string>): Pick<SimWorkload, 'antiAffinity' | 'hardSpread'> {
  const own = ownTerm(labels);
  const antiAffinity = [...new Set(listOf(podSpec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).filter(own).map((t) => domainOf(t.topologyKey)).filter((d): d is 'node' | 'zone' => !!d))];
  const hardSpread = listOf(podSpec?.topologySpreadConstraints)
    .filter((t) => own(t) && t.whenUnsatisfiable === 'DoNotSchedule' && domainOf(t.topologyKey) && acceptedMaxSkew(t.maxSkew))
    .map((t) => ({ domain: domainOf(t.topologyKey)!, maxSkew: t.maxSkew as number }));
  return { ...(antiAffinity.length ? { antiAffinity } : {}), ...(hardSpread.length ? { hardSpread } : {}) };
}

/** A startup probe bounds a container's start; without one, its liveness probe does (same arithmetic). */
function tightestStartBudget(containers: ContainerRef[]): StartBudget | undefined {
  let tightest: StartBudget | undefined;
  for (const { container, name } of containers) {
    const probe = container.startupProbe ?? container.livenessProbe;
    // A liveness probe the kubelet can never run restarts nothing.
    if (!probe || (!container.startupProbe && portNeverResolves(container, probe))) continue;
    const kind = container.startupProbe ? 'startupProbe' : 'livenessProbe';
    const t = probeTimings(probe, kind);
    // Timings the API server refuses bound no start: they are no seconds, their defaults included.
    if (!t) continue;
    const seconds = startBudget(t);
    if (tightest && tightest.seconds <= seconds) continue;
    tightest = { seconds, probe: kind === 'startupProbe' ? 'startup' : 'liveness', container: name, formula: `initialDelaySeconds ${t.initialDelaySeconds} + ${t.failureThreshold} × ${t.periodSeconds} s` };
  }
  return tightest;
}

/** Why a pod the cluster runs was not serving when it was read, if it was not. */
function notServingWhy(pod: Resource, node: string, notReady: Set<string>): NotServing['why'] | undefined {
  if (pod.object?.metadata?.deletionTimestamp) return 'stopping';
  if (notReady.has(node)) return 'node-not-ready';
  const conditions = Array.isArray(pod.object?.status?.conditions) ? pod.object.status.conditions : [];
  return conditions.some((c: any) => c?.type === 'Ready' && c?.status === 'False') ? 'not-ready' : undefined;
}

function toSimWorkload(resource: Resource, inventory: Inventory, nodeResources: Resource[], nodes: SimNode[], notReady: Set<string>, assumptions: string[]): SimWorkload {
  const template = podTemplateOf(resource);
  const spec = template?.spec ?? {};
  const labels = template?.labels ?? {};
  const hard = hardPlacementRules(spec, labels);
  const isDaemonSet = resource.kind === 'DaemonSet';
  const eligible = (template ? placePod(placementInput(resource.kind, template), nodeResources).fitting : []).map((n) => n.name!);
  const containers = containersOf(resource);
  const hostPorts = hostPortsOf(containers);
  const images = containers.map((c) => String(c.container.image ?? ''));
  const apiClient = apiClientOf(images);
  const startBudget = tightestStartBudget(containers);
  const hpa = inventory.hpasTargeting(resource)[0];
  const written = replicasOf(resource, inventory, eligible.length);
  const replicas = simulatedCount(written);
  if (replicas !== written) assumptions.push(`${resource.namespace}/${resource.name} (${resource.kind}) has ${written} replicas: simulated as ${replicas}`);

  const pods = resource.kind === 'Pod' ? [resource] : inventory.podsOf(resource);
  const observed: Record<string, number> = {};
  const observedNames: Record<string, string[]> = {};
  const notServing: NotServing[] = [];
  // Pods read from the cluster, on a node or not (all Pending): what runs is known, even when it is nothing.
  let livePods = 0;
  for (const pod of pods) {
    if (pod.document || hasEnded(pod)) continue;
    livePods++;
    const node = pod.object?.spec?.nodeName;
    if (typeof node !== 'string' || !node) continue;
    countOnNode(observed, node);
    const named = onNode(observedNames, node);
    if (named) named.push(pod.name ?? '');
    else setOwnField(observedNames, node, [pod.name ?? '']);
    const why = notServingWhy(pod, node, notReady);
    if (why) notServing.push({ pod: pod.name ?? '(a pod without a name)', node, why, ...(why === 'stopping' && notReady.has(node) ? { stuck: true } : {}) });
  }
  const hasObserved = livePods > 0;
  // A guess of where pods run puts none where they would serve nothing, unless nothing else can run them.
  const fitting = nodes.filter((n) => eligible.includes(n.name));
  const readyFitting = fitting.filter((n) => !notReady.has(n.name));
  const spreadNodes = readyFitting.length ? readyFitting : fitting;
  const placement = hasObserved
    ? replicas !== written && !isDaemonSet
      ? scaledTo(observed, replicas)
      : observed
    : isDaemonSet
      ? Object.fromEntries(eligible.map((n) => [n, 1]))
      : assumedPlacement(replicas, spreadNodes, spreadRules(spec, labels, hard), `${resource.namespace}/${resource.name}`);

  const tolerated = nodeLossToleration(spec, resource.kind);
  const workload: SimWorkload = {
    kind: resource.kind,
    namespace: resource.namespace,
    name: resource.name!,
    // A DaemonSet wants the pods it has, those not yet on a node (Pending) too.
    replicas: isDaemonSet ? Math.max(livePods, Object.values(placement).reduce((a, b) => a + b, 0)) : replicas,
    placement,
    placementSource: hasObserved ? 'observed' : 'assumed',
    ...(notServing.length ? { notServing } : {}),
    probes: {
      liveness: containers.some((c) => !!c.container.livenessProbe),
      readiness: containers.some((c) => !!c.container.readinessProbe),
      startup: containers.some((c) => !!c.container.startupProbe),
    },
    ...(declaredFacts(resource).startupSeconds !== undefined ? { startSeconds: declaredFacts(resource).startupSeconds } : {}),
    ...(tolerated ? { nodeLossToleration: tolerated } : {}),
    ...(startBudget ? { startBudget } : {}),
    pdb: inventory.pdbsSelectingAnyPodOf(resource).length > 0,
    // A pod-level limit (spec.resources) caps its containers together: a surge past it is OOM-killed in the pod too.
    memoryLimit: spec.resources?.limits?.memory !== undefined || (containers.length > 0 && containers.every((c) => c.container.resources?.limits?.memory !== undefined)),
    fronted: inventory.servicesFronting(resource).length > 0,
    ...(spec.hostNetwork === true ? { hostNetwork: true } : {}),
    ...(spec.restartPolicy === 'Never' ? { restartNever: true } : {}),
    ...(hostPorts.length ? { hostPorts } : {}),
    ...hard,
    eligibleNodes: eligible,
  };
  if (hpa) {
    const { min, max } = autoscalerBounds(hpa);
    workload.hpa = { min, max: max ?? replicas, ...(isScaledObject(hpa) ? { keda: true } : {}) };
  }
  if (apiClient) {
    workload.apiClient = apiClient.what;
    if (apiClient.ingress) workload.ingressController = true;
  }
  Object.assign(workload, voluntaryDisruptionFacts(resource, inventory, spec, replicas));
  if (workload.podBudgets) workload.podNames = placement === observed ? observedNames : namedInOrder(placement, statefulSetPodNames(resource, replicas));
  if (isStaticPod(resource)) workload.staticPod = true;
  // Its pods as read from the cluster, or as its manifest labels them.
  if (resource.namespace === 'kube-system' && (pods.some(isClusterDnsPod) || labels['k8s-app'] === CLUSTER_DNS_LABEL)) workload.clusterDns = true;
  if (resource.kind === 'CronJob') {
    const schedule = resource.object?.spec?.schedule;
    if (typeof schedule === 'string') workload.schedule = schedule;
    if (resource.object?.spec?.suspend === true) workload.neverRuns = 'it is suspended (suspend: true)';
    else if (typeof schedule === 'string' && scheduleNeverFires(schedule)) workload.neverRuns = `its schedule "${schedule}" matches no date`;
  }
  return workload;
}
