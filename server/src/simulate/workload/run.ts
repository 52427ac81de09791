import type { ControlPlaneTimeline } from '../control-plane';
import { EventQueue } from '../event-queue';
import { FACT, TIMING } from '../facts';
import { workloadKey, type SimTopology, type SimWorkload } from '../model';
import { nodeFailedAt, podsBackAt, type NodeIncident } from '../node-incidents';
import { onNode } from '../by-node';
import { least } from '../../extremes';
import { describeCapacity, measure, stateOf, stopping, type Slot } from '../capacity-state';
import { restartReadiness, type RestartReadiness } from '../restart-readiness';
import type { CapacityPoint, Scenario, State, TimelineEvent } from '../types';
import type { DrainPlan } from '../drain/plan';
import type { NoExecuteTaints } from '../no-execute-taints';
import { slotsAtStart } from './at-start';
import type { WorkloadEvent } from './events';

export interface SimContext {
  topology: SimTopology;
  scenario: Scenario;
  controlPlane: ControlPlaneTimeline;
  incidents: NodeIncident[];
  /** When the node controller has its NoExecute taint on each NotReady node (by the scenario's failures, not an upgrade's replacements). */
  taints: NoExecuteTaints;
  /** Nodes being drained (kubectl, the cluster autoscaler, a node upgrade), with when each is cordoned. */
  drains: DrainPlan[];
  /** The last moment simulated. */
  end: number;
}

export interface Note {
  reason: string;
  fact: string;
  /** Repeats of something already told (crash-loop cycles): they move the capacity curve, not the story. */
  repeat?: boolean;
  /** Worth telling even when the workload's state does not change. */
  always?: boolean;
  /** Bookkeeping that only matters when nothing else happened at that moment. */
  minor?: boolean;
  /** Notes of one key at one moment are one, told for how many there are (a drain evicting two of its pods at once). */
  alike?: { key: string; told: (count: number) => string };
  /** How many alike notes this one stands for. */
  count?: number;
}

const REPLACED_BY: Record<string, string> = {
  Deployment: 'ReplicaSet controller',
  ReplicaSet: 'ReplicaSet controller',
  ReplicationController: 'replication controller',
  StatefulSet: 'StatefulSet controller',
  DaemonSet: 'DaemonSet controller',
  Job: 'Job controller',
};

/** What one eviction did to a pod of this workload: the drain's report is made of these. */
export interface EvictionRecord {
  /** The drain that evicted it. */
  drain: DrainPlan;
  at: number;
  /** When the pod's containers stopped: the end of its grace period (or of its sessions, when shorter). */
  terminatedAt: number;
  /** Declared in-memory sessions were cut: the pod stopped before its sessions could end. */
  sessionsCut: boolean;
  /** When they were cut, when its node failed before the end of its grace period (otherwise at `terminatedAt`). */
  sessionsCutAt?: number;
  /** On a node whose kubelet could not confirm its end (NotReady, or failed): it served nothing, and stays Terminating until `terminatedAt`. */
  unconfirmed?: boolean;
  /** The replica (slot id): the eviction is served once a replacement of it serves (a replacement evicted before it serves serves none). */
  slot: number;
  /** The pod was already stopping (when the cluster was read, or since the node controller evicted it): its name, empty when unknown (the drain only waits for it). */
  stoppingPod?: string;
  /** It was one the node controller had evicted during the simulation: its replica was replaced then. */
  evictedBefore?: boolean;
  replacementReady?: number;
}

/** A replica's replacement that serves, from `at`, on `node`: where the replica runs from then on. */
export interface MoveRecord {
  slot: number;
  at: number;
  node: string;
}

/** A container that stopped on its node: restarted in place by the kubelet, or (no `restart`) failed for good. */
export interface CrashRecord {
  slot: number;
  at: number;
  /** What happened, without the workload's name. */
  what: string;
  /** When its container starts again, and when it serves (Infinity: never, its probes kill every start). */
  restart?: { startsAt: number; servesAt: number };
}

/** A stretch during which the workload's PDB refused an eviction from a draining node. */
export interface RefusalRecord {
  drain: DrainPlan;
  from: number;
  /** Null while it is still refused at the end. */
  to: number | null;
  /** The PDB that refused it (unset when the API itself was down). */
  pdb?: string;
  /** Its budget allows an eviction once every pod is ready: it waits on a replacement, not on the budget as written. */
  untilReady?: boolean;
}

export type Handler<K extends WorkloadEvent['kind']> = (run: WorkloadRun, event: Extract<WorkloadEvent, { kind: K }>, at: number) => void;
export type Handlers = { [K in WorkloadEvent['kind']]: Handler<K> };

/** One workload's replicas over time, the queue of what happens to them and what is told about it. */
export interface WorkloadRun {
  workload: SimWorkload;
  ctx: SimContext;
  label: string;
  queue: EventQueue;
  notes: Map<number, Note[]>;
  slots: Slot[];
  desired: number;
  /** The controller that replaces a lost pod, when one does. */
  replacer?: string;
  /** A new pod serves this long after it is scheduled: what the workload declares, else a cached image's start. */
  podStart: number;
  /** A container started again on its node: its declared start, unless its probes kill it first. */
  inPlaceStart: RestartReadiness;
  load: number;
  apiCut: boolean;
  cronFrozen: boolean;
  /** Until when a surge OOM-kills memory-limited containers of this workload (unset: no such surge). */
  surgeRelief?: number;
  /** How many of the slots (the first ones) a surge's OOM kills were started on. */
  oomLooping: number;
  pressuredNodes: { node: string; at: number }[];
  evictions: EvictionRecord[];
  moves: MoveRecord[];
  crashes: CrashRecord[];
  refusals: RefusalRecord[];
  /** Scale-downs this workload made fail: the autoscaler gave up evicting its pod. */
  gaveUp: { drain: DrainPlan; at: number; why: string }[];
  /**
   * What the run took from the nodes' future: every node a pod of it was put on, and the latest moment whose
   * schedulable nodes it looked at. A rolling upgrade re-runs only the workloads its next drain could change.
   */
  dependsOn: { nodes: Set<string>; until: number };
  handlers: Handlers;
}

export function createRun(workload: SimWorkload, ctx: SimContext, handlers: Handlers): WorkloadRun {
  const slots = slotsAtStart(workload);
  return {
    workload,
    ctx,
    label: `${workload.kind} ${workloadKey(workload)}`,
    queue: new EventQueue(),
    notes: new Map(),
    slots,
    desired: workload.kind === 'DaemonSet' ? slots.filter((s) => !stopping(s)).length : workload.replicas,
    replacer: workload.staticPod ? undefined : REPLACED_BY[workload.kind],
    podStart: workload.startSeconds ?? TIMING.assumedPodStart,
    inPlaceStart: restartReadiness(workload, 0),
    load: 1,
    oomLooping: 0,
    apiCut: false,
    cronFrozen: false,
    pressuredNodes: [],
    evictions: [],
    moves: [],
    crashes: [],
    refusals: [],
    gaveUp: [],
    dependsOn: { nodes: new Set(slots.map((s) => s.node)), until: -Infinity },
    handlers,
  };
}

/** When a pod already stopping when the cluster was read is gone: its grace period, counted from the start. */
export function stoppedBy(run: WorkloadRun): number {
  return run.workload.terminationGrace ?? TIMING.defaultTerminationGrace;
}

/** Schedules an event for this workload's handler of its kind. */
export function emit(run: WorkloadRun, at: number, event: WorkloadEvent): void {
  const handler = run.handlers[event.kind] as (run: WorkloadRun, event: WorkloadEvent, at: number) => void;
  run.queue.schedule(at, () => handler(run, event, at));
}

export function note(run: WorkloadRun, at: number, n: Note): void {
  // A note about a later moment needs that moment in the run to be told.
  run.queue.schedule(at, () => {});
  // Never told: kept, one a crash-loop cycle of each pod, they held gigabytes of a long surge on 10,000 pods.
  if (n.repeat) return;
  const list = run.notes.get(at);
  const same = n.alike && list?.find((other) => other.alike?.key === n.alike!.key);
  if (same) {
    same.count = (same.count ?? 1) + 1;
    same.reason = same.alike!.told(same.count);
  } else if (list) list.push(n);
  else run.notes.set(at, [n]);
}

/** A container that stopped on its node, kept for what cluster DNS does (no other workload's history reads it). */
export function recordCrash(run: WorkloadRun, crash: CrashRecord): void {
  if (run.workload.clusterDns) run.crashes.push(crash);
}

export function crashLoopNote(run: WorkloadRun, at: number, what: string): void {
  if (!run.inPlaceStart.comesUp) note(run, at, { reason: `${run.label}: ${what}, but ${run.inPlaceStart.why}`, fact: FACT.probeKills, always: true });
}

export function listedCount(run: WorkloadRun): number {
  return run.slots.filter((s) => s.listed).length;
}

/** The endpoint controller catches up with a new incarnation of the replica; `why` is told if it is then `tells` (ready or not). */
export function refreshEndpoints(run: WorkloadRun, slot: Slot, from: number, generation: number, why: string, tells: 'ready' | 'not ready'): void {
  const at = run.ctx.controlPlane.firstControllers(from);
  run.queue.schedule(at, () => {
    if (slot.generation !== generation) return;
    slot.listed = slot.alive;
    slot.listedIsCurrent = slot.alive;
    // Told only while it holds: the controllers may return after the pod became ready (or stopped being so).
    if (run.workload.fronted && slot.alive === (tells === 'ready')) note(run, at, { reason: why, fact: FACT.recovery, minor: true });
  });
}

/** The endpoint controller drops a dead pod, unless the replica is serving again by then. */
export function dropDeadEndpoint(run: WorkloadRun, slot: Slot, from: number, why: string, fact: string = FACT.recovery, whyOfMany?: (count: number) => string): void {
  const at = run.ctx.controlPlane.firstControllers(from);
  run.queue.schedule(at, () => {
    if (slot.alive || !slot.listed) return;
    slot.listed = false;
    // No Service lists a workload no Service selects: nothing to tell (a node agent's pods, a batch worker).
    if (run.workload.fronted) note(run, at, { reason: why, fact, ...(whyOfMany ? { alike: { key: `endpoint|${why}`, told: (count) => (count === 1 ? why : whyOfMany(count)) } } : {}) });
  });
}

/**
 * When a node NotReady at the read is Ready again: once an incident on it ends (a reboot, a replacement), or never
 * (0 for a node that was Ready). Until then it takes no new pods, and no kubelet there confirms a pod's end.
 */
export function readyAgainAt(run: WorkloadRun, node: string): number {
  const { incidents, topology } = run.ctx;
  return topology.notReadyNodes?.includes(node) ? least(onNode(incidents, node).map((i) => kubeletBackAfter(run, node, i.at))) : 0;
}

/**
 * From when a kubelet on `node` confirms the end of a pod deleted there at `at`: at once where one runs; on a node
 * NotReady at the read, once an incident on it ends; on a node failed, rebooting or lost at `at`, once its kubelet
 * reaches the API again. Until then the pod stays Terminating, and kubectl drain waits for it.
 */
export function kubeletConfirmsFrom(run: WorkloadRun, node: string, at: number): number {
  const back = nodeFailedAt(run.ctx.incidents, node, at) ? kubeletBackAfter(run, node, at) : at;
  return Math.max(at, readyAgainAt(run, node), back);
}

/** When the kubelet of `node`, down at `from`, has reached the API again (rule 7); Infinity for a node lost for good. */
export function kubeletBackAfter(run: WorkloadRun, node: string, from: number): number {
  return podsBackAt(run.ctx.incidents, node, from, (t) => run.ctx.controlPlane.firstWrites(t));
}

/**
 * A node new pods may land on at `t`: running, Ready, and not cordoned by a drain. A node up again is Ready once
 * its kubelet has reached the API (rule 7), as the node's own row tells.
 */
export function schedulable(run: WorkloadRun, node: string, t: number): boolean {
  return t >= readyAgainAt(run, node) && !kubeletAway(run, node, t) && !onNode(run.ctx.drains, node).some((d) => t >= d.start && t < d.uncordonAt);
}

/** Whether `node` is down at `t`, or up with a kubelet that has not reached the API since. */
function kubeletAway(run: WorkloadRun, node: string, t: number): boolean {
  return onNode(run.ctx.incidents, node).some((i) => t >= i.at && t < kubeletBackAfter(run, node, i.at));
}

/**
 * What keeps the scheduler from putting one more of this workload's pods on `node`, if anything does: a pod of its
 * own there holding the host ports it takes, its required anti-affinity (one per node or zone), or a spread
 * constraint that refuses to schedule past its skew (domains counted over the nodes it may run on).
 */
export function placementBlock(run: WorkloadRun, node: string): string | undefined {
  const { workload, slots, ctx } = run;
  // The node itself, or its zone (a node without one is a zone of its own).
  const domainOf = (domain: 'node' | 'zone', n: string) => (domain === 'node' ? n : (ctx.topology.nodes.find((x) => x.name === n)?.zone ?? n));
  const placed = slots.filter((s) => s.node !== '');
  if (workload.hostPorts?.length && placed.some((s) => s.node === node)) return `one of its pods there holds host port ${workload.hostPorts.join(', ')}`;
  for (const domain of workload.antiAffinity ?? []) {
    if (placed.some((s) => domainOf(domain, s.node) === domainOf(domain, node))) return `its required pod anti-affinity allows one of its pods per ${domain}`;
  }
  for (const { domain, maxSkew } of workload.hardSpread ?? []) {
    const counts = new Map<string, number>(eligibleNodes(run).map((n) => [domainOf(domain, n), 0]));
    // The scheduler leaves pods being deleted out of the count.
    for (const s of placed) {
      const at = domainOf(domain, s.node);
      if (!stopping(s) && counts.has(at)) counts.set(at, counts.get(at)! + 1);
    }
    const after = (counts.get(domainOf(domain, node)) ?? 0) + 1;
    if (after - Math.min(...counts.values()) > maxSkew) return `its topology spread by ${domain} (DoNotSchedule, maxSkew ${maxSkew}) would be broken`;
  }
  return undefined;
}

/** The nodes this workload's pods may land on (its node selector, affinity and tolerations allowing). */
export function eligibleNodes(run: WorkloadRun): string[] {
  return run.workload.eligibleNodes ?? run.ctx.topology.nodes.filter((n) => !n.controlPlane).map((n) => n.name);
}

/** Where the scheduler puts a new pod: the eligible schedulable node with the fewest of this workload's pods (those still starting too). */
export function pickNode(run: WorkloadRun, at: number): string | undefined {
  const count = new Map<string, number>();
  // The scheduler's spreading does not count pods being deleted.
  for (const s of run.slots) if (!stopping(s)) count.set(s.node, (count.get(s.node) ?? 0) + 1);
  const pods = (n: string) => count.get(n) ?? 0;
  const fewer = (a: string, b: string) => pods(a) - pods(b) || a.localeCompare(b);
  let best: string | undefined;
  for (const n of eligibleNodes(run)) if (schedulable(run, n, at) && !placementBlock(run, n) && (best === undefined || fewer(n, best) < 0)) best = n;
  run.dependsOn.until = Math.max(run.dependsOn.until, at);
  if (best !== undefined) run.dependsOn.nodes.add(best);
  return best;
}

/**
 * When a Pending pod of this workload finds a node after `at`: the first moment an eligible node takes new
 * pods again (uncordoned, a fresh node joined, a node back up), which makes the scheduler try it again.
 */
export function nextSchedulable(run: WorkloadRun, at: number): { at: number; node: string } | undefined {
  const candidates = eligibleNodes(run);
  const moments = [...run.ctx.drains.map((d) => ({ node: d.node, t: d.uncordonAt })), ...run.ctx.incidents.map((i) => ({ node: i.node, t: kubeletBackAfter(run, i.node, i.at) }))];
  // A node lost for good, or a drain never undone, comes back at Infinity: never.
  const times = moments.filter(({ node, t }) => candidates.includes(node) && t > at && Number.isFinite(t)).map(({ t }) => t);
  for (const t of times.sort((a, b) => a - b)) {
    const node = candidates.find((n) => schedulable(run, n, t) && !placementBlock(run, n));
    if (node) {
      run.dependsOn.until = Math.max(run.dependsOn.until, t);
      return { at: t, node };
    }
  }
  run.dependsOn.until = Infinity;
  return undefined;
}

/** A new pod for this replica, scheduled by the control plane; one that crash-loops is told when it is bound. */
export function replace(run: WorkloadRun, slot: Slot, scheduledAt: number, why: string): void {
  const generation = ++slot.generation;
  // The replica now waits for a node: what happens to its old node no longer concerns it.
  slot.node = '';
  emit(run, scheduledAt, { kind: 'replacement-scheduled', slot, generation, why });
}

/** A pod gone for good: the control plane must notice, drop it from the Service and replace it. */
export function loseForGood(run: WorkloadRun, slot: Slot, at: number, cause: string): void {
  const cp = run.ctx.controlPlane;
  slot.alive = false;
  const known = cp.at(at).writes ? at : cp.firstWrites(at) + TIMING.reconnect;
  dropDeadEndpoint(run, slot, known, `${run.label}: the dead pod is removed from its Service`);
  if (run.replacer) replace(run, slot, cp.firstScheduling(known), `${run.label}: the ${run.replacer} replaced the pod ${cause}`);
}

/** Runs the queue to the end, one capacity snapshot and at most one timeline event per moment. */
export function runToEnd(run: WorkloadRun): { capacity: CapacityPoint[]; events: TimelineEvent[] } {
  const { workload, queue, slots, ctx } = run;
  const capacity: CapacityPoint[] = [];
  const events: TimelineEvent[] = [];
  let lastState: State = 'ok';
  // Moment 0 is measured before and after its events: what was told the first time is not told again.
  const told = new Set<Note>();
  const snapshot = (at: number) => {
    const point = measure(at, slots, run.desired, workload.fronted, run.load);
    const previous = capacity[capacity.length - 1];
    const moved = !previous || previous.ready !== point.ready || previous.blackholed !== point.blackholed || previous.load !== point.load || previous.desired !== point.desired;
    if (moved) capacity.push(point);
    const state = stateOf(point, run.apiCut || run.cronFrozen);
    const fresh = (run.notes.get(at) ?? []).filter((n) => !n.repeat && !told.has(n));
    const chosen = fresh.some((n) => !n.minor) ? fresh.filter((n) => !n.minor) : fresh;
    if (chosen.length && (state !== lastState || moved || chosen.some((n) => n.always))) {
      for (const n of chosen) told.add(n);
      events.push({
        at,
        subject: { type: 'workload', name: workload.name, namespace: workload.namespace, kind: workload.kind },
        state,
        reason: [...new Set(chosen.map((n) => n.reason)), describeCapacity(point, state)].filter(Boolean).join('. '),
        fact: [...new Set(chosen.map((n) => n.fact))].join('; '),
      });
    }
    lastState = state;
  };
  snapshot(0);
  while (queue.size) {
    const at = queue.nextAt();
    if (at > ctx.end) break;
    while (queue.size && queue.nextAt() === at) queue.pop()!.run();
    snapshot(at);
  }
  const last = capacity[capacity.length - 1];
  if (last.at < ctx.end) capacity.push({ ...last, at: ctx.end });
  return { capacity, events };
}
