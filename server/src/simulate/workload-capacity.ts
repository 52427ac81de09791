import { FACT } from './facts';
import type { SimWorkload } from './model';
import type { TimelineEvent, WorkloadResult } from './types';
import { HANDLERS } from './workload/handlers';
import { stopping, type Slot } from './capacity-state';
import { formatSeconds } from './format-time';
import { atStartNote } from './workload/at-start';
import { nodeControllerEvicts } from './workload/handlers/node-down';
import { notReadyTaintOf, tolerationOf } from './node-incidents';
import { createRun, emit, note, replace, runToEnd, stoppedBy, type CrashRecord, type EvictionRecord, type MoveRecord, type RefusalRecord, type SimContext, type WorkloadRun } from './workload/run';

export type { SimContext } from './workload/run';

export interface WorkloadSimulation {
  result: WorkloadResult;
  events: TimelineEvent[];
  /** Nodes pushed into memory pressure by this workload's surge. */
  pressuredNodes: { node: string; at: number }[];
  evictions: EvictionRecord[];
  moves: MoveRecord[];
  crashes: CrashRecord[];
  refusals: RefusalRecord[];
  gaveUp: WorkloadRun['gaveUp'];
  dependsOn: WorkloadRun['dependsOn'];
}

/** Serving capacity of one workload over the simulated time: the scenario's events, each run by its handler. */
export function simulateWorkload(workload: SimWorkload, ctx: SimContext): WorkloadSimulation {
  const run = createRun(workload, ctx, HANDLERS);
  if (run.slots.length < run.desired && !workload.eligibleNodes?.length && workload.eligibleNodes !== undefined) {
    note(run, 0, { reason: `${run.label}: no node of the cluster can run its pods (taints, node selectors or resources it asks for), so ${run.desired - run.slots.length} of ${run.desired} stay Pending`, fact: FACT.recovery, always: true });
  }
  const atStart = atStartNote(run);
  if (atStart) note(run, 0, atStart);
  // A pod already stopping is gone by the end of its grace period, drained or not; one stuck on a NotReady node stays.
  for (const slot of run.slots.filter((s) => stopping(s) && !s.atStart!.stuck)) run.queue.schedule(stoppedBy(run), () => goneAtStart(run, slot));
  for (const slot of run.slots.filter((s) => s.atStart?.why === 'node-not-ready')) {
    const at = notReadyEvictionAt(run, slot.node);
    // Pods that tolerate the node for ever are told so at the start.
    run.queue.schedule(Number.isFinite(at) ? at : 0, () => evictedFromNotReady(run, slot, at));
  }
  for (const incident of ctx.incidents) emit(run, incident.at, { kind: 'node-down', incident });
  for (const event of ctx.scenario.events) {
    if (event.kind === 'coredns-restart' && workload.clusterDns) emit(run, event.at, { kind: 'coredns-restart' });
    if ((event.kind !== 'pod-crash' && event.kind !== 'traffic-surge') || event.namespace !== workload.namespace || event.workload !== workload.name) continue;
    if (event.kind === 'pod-crash') emit(run, event.at, { kind: 'pod-crash', mode: event.mode });
    else emit(run, event.at, { kind: 'traffic-surge', factor: event.factor });
  }
  let previous = { writes: true, controllers: true, scheduling: true };
  for (const segment of ctx.controlPlane.segments) {
    if (segment.writes !== previous.writes || segment.controllers !== previous.controllers || segment.scheduling !== previous.scheduling) emit(run, segment.from, { kind: 'control-plane-change', segment, previous });
    previous = { writes: segment.writes, controllers: segment.controllers, scheduling: segment.scheduling };
  }
  for (const drain of ctx.drains) {
    emit(run, drain.start, { kind: 'drain-start', drain });
    // Only a DaemonSet has a pod bound to the node itself, which goes with it (another's pods were evicted first).
    if (drain.removedAt !== undefined && run.workload.kind === 'DaemonSet') emit(run, drain.removedAt, { kind: 'node-removed', drain });
  }

  const { capacity, events } = runToEnd(run);
  // A pod the node controller evicted during the simulation was its replica's, which was replaced then: a drain that waits for it evicts no replica.
  const evictions = run.evictions.filter((e) => !e.evictedBefore);
  return {
    result: {
      kind: workload.kind,
      name: workload.name,
      namespace: workload.namespace,
      placement: workload.placementSource,
      capacity,
      ...(evictions.length ? { evictions: evictions.map((e) => ({ node: e.drain.node, at: e.at, stopped: Number.isFinite(e.terminatedAt) ? e.terminatedAt : null, replacementReady: e.replacementReady ?? null, sessionsCut: e.sessionsCut })) } : {}),
    },
    events,
    pressuredNodes: run.pressuredNodes,
    evictions: run.evictions,
    moves: run.moves,
    crashes: run.crashes,
    refusals: run.refusals,
    gaveUp: run.gaveUp,
    dependsOn: run.dependsOn,
  };
}

/** The node controller evicts a pod of a node NotReady at the read at `at` (unless something replaced it already, or the node is back). */
function evictedFromNotReady(run: WorkloadRun, slot: Slot, at: number): void {
  if (slot.generation !== 0 || slot.atStart?.why !== 'node-not-ready') return;
  const { pod, node } = slot.atStart;
  const toleration = tolerationOf(run.workload, notReadyTaintOf(run.ctx.topology, node));
  // The node is back (its taint gone) before a finite toleration runs out: nothing evicts the pod.
  if (Number.isFinite(toleration) && !Number.isFinite(at)) return;
  nodeControllerEvicts(run, slot, { node, notReadyAt: Number.isFinite(at) ? at : 0, evictAt: at, pod, when: `once its ${toleration} s toleration ran out` });
}

/** When the node controller evicts this workload's pods from a node NotReady at the read (Infinity: they tolerate it for ever, told at 0, or the node is back first). */
function notReadyEvictionAt(run: WorkloadRun, node: string): number {
  const { topology, taints } = run.ctx;
  const toleration = tolerationOf(run.workload, notReadyTaintOf(topology, node));
  return Number.isFinite(toleration) ? taints.evictionAt(node, 0, toleration) : Infinity;
}

/** A pod already stopping when the cluster was read is gone: a StatefulSet short of its replicas makes it again. */
function goneAtStart(run: WorkloadRun, slot: Slot): void {
  slot.node = '';
  if (run.workload.kind !== 'StatefulSet' || run.slots.filter((s) => !stopping(s)).length >= run.desired) return;
  const pod = slot.atStart!.pod;
  delete slot.atStart;
  const at = stoppedBy(run);
  replace(run, slot, run.ctx.controlPlane.firstScheduling(at), `${run.label}: the StatefulSet controller recreated ${pod}, gone at ${formatSeconds(at)}`);
}
