import { stopping, type Slot } from '../../capacity-state';
import type { DrainPlan } from '../../drain/plan';
import { FACT, TIMING } from '../../facts';
import { formatSeconds } from '../../format-time';
import { workloadKey } from '../../model';
import { desiredHealthy } from '../../../manifest/pdb';
import { budgetsOver } from '../../budgets-over';
import { recreatedAtStart } from '../at-start';
import { dropDeadEndpoint, emit, kubeletBackAfter, kubeletConfirmsFrom, note, replace, stoppedBy, type EvictionRecord, type Handler, type WorkloadRun } from '../run';
import { firstFailure, nodeFailedAt } from '../../node-incidents';
import { plural } from '../../../words';

const DRAINER = { kubectl: 'kubectl drain', autoscaler: 'the cluster autoscaler' } as const;

function factOf(drain: DrainPlan): string {
  const by = drain.by === 'kubectl' ? FACT.kubectlDrain : FACT.autoscalerScaleDown;
  return drain.upgrade ? `${FACT.nodeUpgrade}; ${by}` : by;
}

/** The node is cordoned: every pod of the workload there is to be evicted, except those a drain leaves. */
export const onDrainStart: Handler<'drain-start'> = (run, { drain }, at) => {
  const { workload, label } = run;
  const here = run.slots.filter((s) => s.node === drain.node);
  if (!here.length || drain.halted) return;
  if (workload.kind === 'DaemonSet' || workload.staticPod) {
    const stays = workload.staticPod ? 'a static (mirror) pod cannot be evicted through the API' : 'DaemonSet pods are not evicted (the DaemonSet controller ignores the cordon)';
    note(run, at, { reason: `${label}: ${stays}: its pod on ${drain.node} keeps running`, fact: factOf(drain), always: true });
    return;
  }
  for (const slot of here) emit(run, at, { kind: 'eviction-attempt', slot, generation: slot.generation, drain, firstTry: at });
};

/**
 * The autoscaler deletes the node it emptied: a DaemonSet's pod there goes with it, and the DaemonSet runs on one node
 * fewer (its pod there was counted as serving, "5/5", after the node was gone).
 */
export const onNodeRemoved: Handler<'node-removed'> = (run, { drain }, at) => {
  const here = run.slots.filter((s) => s.node === drain.node);
  if (!here.length) return;
  for (const slot of here) slot.generation++;
  run.slots = run.slots.filter((s) => s.node !== drain.node);
  run.desired = Math.max(0, run.desired - here.length);
  note(run, at, { reason: `${run.label}: its pod on ${drain.node} goes with the node the autoscaler deleted; it runs on ${plural(run.desired, 'node')}`, fact: factOf(drain), always: true });
};

/** How many pods the PDB lets go now, or why none. */
export function evictionVerdict(run: WorkloadRun, slot: Slot, at: number): { allowed: true } | { allowed: false; why: string; pdb?: string; untilReady?: boolean } {
  if (!run.ctx.controlPlane.at(at).writes) return { allowed: false, why: 'the API is down, so the eviction request fails' };
  // The eviction API lets a pod already being deleted go whatever its budget says.
  if (stopping(slot)) return { allowed: true };
  const { names, guard } = budgetsOver(run.workload, slot.pod);
  if (!guard) return { allowed: true };
  if (names.length > 1) {
    const which = slot.pod ? `its pod ${slot.pod} is` : 'its pods are';
    return { allowed: false, pdb: names.join(' and '), why: `${which} selected by ${names.length} PodDisruptionBudgets (${names.join(', ')}): the eviction API refuses to evict a pod with more than one (it answers 500)` };
  }
  // AlwaysAllow: a pod that is not ready goes whatever the budget says.
  if (guard.alwaysAllowUnhealthy && !slot.alive) return { allowed: true };
  // The disruption controller counts the healthy pods among those the budget selects.
  const counted = guard.pods ? new Set(guard.pods) : undefined;
  const selected = counted ? run.slots.filter((s) => s.pod !== undefined && counted.has(s.pod)) : run.slots;
  const healthy = selected.filter((s) => s.alive).length;
  const needed = desiredHealthy(guard.budget, run.desired);
  // An unhealthy pod may go when the budget is met; a healthy one only when one more can be spared.
  const allowed = slot.alive ? healthy - needed : healthy >= needed ? 1 : 0;
  if (allowed > 0) return { allowed: true };
  const over = guard.pods ? ` (over ${guard.pods.length === 1 ? `pod ${guard.pods[0]}` : `${guard.pods.length} of its pods`})` : '';
  // A budget that lets one go once every pod is ready again is waiting on a replacement, not blocking for good.
  return { allowed: false, pdb: guard.pdb, untilReady: needed < (guard.pods?.length ?? run.desired), why: `its PodDisruptionBudget ${guard.pdb}${over} needs ${needed} healthy and ${healthy} ${healthy === 1 ? 'is' : 'are'}: 0 disruptions allowed, the eviction API answers 429` };
}

/** The drain asks the eviction API for one pod: let through, or refused by the PDB. */
export const onEvictionAttempt: Handler<'eviction-attempt'> = (run, event, at) => {
  const { slot, generation, drain } = event;
  if (slot.generation !== generation || slot.node !== drain.node) return;
  const verdict = evictionVerdict(run, slot, at);
  if (verdict.allowed) {
    closeRefusal(run, drain, at);
    // At once, not queued: the next attempt at this same moment must see one healthy pod fewer.
    run.handlers.eviction(run, { kind: 'eviction', slot, drain }, at);
    return;
  }
  run.handlers['eviction-refused'](run, { kind: 'eviction-refused', slot, generation, drain, firstTry: event.firstTry, why: verdict.why, pdb: verdict.pdb, untilReady: verdict.untilReady }, at);
};

function openRefusal(run: WorkloadRun, drain: DrainPlan) {
  return run.refusals.find((r) => r.drain === drain && r.to === null);
}

function closeRefusal(run: WorkloadRun, drain: DrainPlan, at: number): void {
  const open = openRefusal(run, drain);
  if (open) open.to = at;
}

/** A refused eviction: kubectl retries every 5 s for as long as it runs; the autoscaler for 2 min, then gives the node up. */
export const onEvictionRefused: Handler<'eviction-refused'> = (run, { slot, generation, drain, firstTry, why, pdb, untilReady }, at) => {
  const { label } = run;
  const fact = `${FACT.eviction}; ${factOf(drain)}`;
  if (!openRefusal(run, drain)) {
    run.refusals.push({ drain, from: at, to: null, ...(pdb ? { pdb, untilReady: !!untilReady } : {}) });
    const retry = drain.by === 'kubectl' ? `kubectl drain retries every ${TIMING.drainRetry} s and does not finish until it goes` : `the autoscaler retries every ${TIMING.autoscalerEvictionRetry} s for at most ${formatSeconds(TIMING.autoscalerEvictionLimit)}`;
    note(run, at, { reason: `${label}: the eviction of its pod on ${drain.node} is refused: ${why}; ${retry}`, fact, always: true });
  }
  if (drain.by === 'autoscaler' && at - firstTry >= TIMING.autoscalerEvictionLimit) {
    closeRefusal(run, drain, at);
    run.gaveUp.push({ drain, at, why: `the eviction of ${workloadKey(run.workload)}'s pod was refused for ${formatSeconds(at - firstTry)} (${why})` });
    note(run, at, { reason: `${label}: the cluster autoscaler gives up evicting its pod on ${drain.node} after ${formatSeconds(at - firstTry)}: the scale-down fails and the node stays`, fact, always: true });
    return;
  }
  const every = drain.by === 'kubectl' ? TIMING.drainRetry : TIMING.autoscalerEvictionRetry;
  emit(run, at + every, { kind: 'eviction-attempt', slot, generation, drain, firstTry });
};

/**
 * When the evicted pod stops, and whether its declared sessions die with it. A pod that has not served yet (a
 * replacement still starting) holds no sessions.
 */
export function termination(run: WorkloadRun, drain: DrainPlan, at: number, served = true): { terminatedAt: number; grace: number; capped: boolean; sessionsCut: boolean; sessionEnd?: number } {
  const { workload } = run;
  const own = workload.terminationGrace ?? TIMING.defaultTerminationGrace;
  const capped = drain.by === 'autoscaler' && own > TIMING.autoscalerGraceCap;
  const grace = capped ? TIMING.autoscalerGraceCap : own;
  if (workload.sessions !== 'in-memory' || !served) return { terminatedAt: at + grace, grace, capped, sessionsCut: false };
  const sessions = workload.sessionSeconds;
  // A pod that keeps its sessions until they end stops with the last one, or is killed at the end of its grace period.
  if (sessions !== undefined && sessions <= grace) return { terminatedAt: at + sessions, grace, capped, sessionsCut: false, sessionEnd: at + sessions };
  return { terminatedAt: at + grace, grace, capped, sessionsCut: true };
}

/** Why an evicted pod was not serving: still starting, or never to be up (its probes kill it before it is). */
function notServing(run: WorkloadRun): string {
  return run.inPlaceStart.comesUp ? ' (not ready yet)' : ' (crash-looping: its probes kill it before it is up)';
}

/** What keeps a node's kubelet from confirming a pod's end at `at`: a failure during the simulation, or NotReady at the read. */
function awayNode(run: WorkloadRun, node: string, at: number): 'down node' | 'NotReady node' {
  return nodeFailedAt(run.ctx.incidents, node, at) ? 'down node' : 'NotReady node';
}

/** The PDB let the eviction through: the pod leaves its Service, terminates within its grace period, and its controller replaces it. */
export const onEviction: Handler<'eviction'> = (run, { slot, drain }, at) => {
  if (stopping(slot)) return waitForStopping(run, slot, drain, at);
  const { label, workload } = run;
  const cp = run.ctx.controlPlane;
  const served = slot.alive;
  const end = termination(run, drain, at, served);
  // On a NotReady or failed node no kubelet confirms the pod's end: it stays Terminating, and kubectl drain waits for it until the node is back.
  const confirmed = kubeletConfirmsFrom(run, drain.node, at);
  const stuck = drain.by === 'kubectl' && confirmed > at;
  // Its node failing before it stops kills it then, with the sessions it still held; its end is confirmed once the kubelet is back.
  const failed = stuck ? Infinity : firstFailure(run.ctx.incidents, drain.node, at, end.terminatedAt);
  const terminatedAt = stuck ? confirmed : Number.isFinite(failed) ? Math.max(end.terminatedAt, kubeletBackAfter(run, drain.node, failed)) : end.terminatedAt;
  const sessionsCut = end.sessionsCut || (end.sessionEnd !== undefined && failed < end.sessionEnd);
  slot.alive = false;
  dropDeadEndpoint(run, slot, at, `${label}: the evicted pod leaves its Service`, undefined, (count) => `${label}: the ${count} evicted pods leave its Service`);
  const record: EvictionRecord = { drain, at, terminatedAt, sessionsCut, slot: slot.id, ...(stuck ? { unconfirmed: true } : {}), ...(sessionsCut && Number.isFinite(failed) ? { sessionsCutAt: failed } : {}) };
  run.evictions.push(record);
  const grace = end.capped
    ? `its ${workload.terminationGrace} s grace period capped at ${TIMING.autoscalerGraceCap} s by --max-graceful-termination-sec`
    : `its ${end.grace} s grace period${workload.terminationGrace === undefined ? ' (the default)' : ''}`;
  // termination() tells whether the pod held sessions: cut, or kept until they end (then it stops when they do).
  const sessions = end.sessionsCut
    ? workload.sessionSeconds === undefined
      ? '; its in-memory sessions die with the pod (declare kube-resilience/session-seconds to know whether they could end first)'
      : `; its in-memory sessions last ${formatSeconds(workload.sessionSeconds)}, longer than ${formatSeconds(end.grace)}: they are cut when the pod is killed`
    : end.sessionEnd !== undefined
      ? `; it keeps its in-memory sessions until they end (${formatSeconds(workload.sessionSeconds!)}, within the grace period)`
      : '';
  const killed = Number.isFinite(failed) ? `; ${drain.node} fails at ${formatSeconds(failed)}, before it stops: it dies then${sessionsCut ? ' with its sessions' : ''}, and is gone once the kubelet is back (${formatSeconds(terminatedAt)})` : '';
  // A StatefulSet recreates a pod of the same name only once the old one is gone.
  const scheduled = workload.kind === 'StatefulSet' ? terminatedAt : at;
  // With the controller manager or the scheduler down (the API itself is up, or nothing would be evicted), it waits for them.
  const controllersBack = cp.firstControllers(scheduled);
  const created = cp.firstScheduling(scheduled);
  const madeAt = controllersBack > scheduled ? ` when the controller manager runs again (${formatSeconds(controllersBack)})` : workload.kind === 'StatefulSet' ? ' once it is gone' : ' at once';
  const pending = created > Math.max(scheduled, controllersBack) ? `; it stays Pending until the scheduler runs again (${formatSeconds(created)})` : '';
  // A replacement its probes kill before it is up never serves: the replacement's own line says why.
  const serving = run.inPlaceStart.comesUp ? `serving after ${formatSeconds(run.podStart)}` : 'which its probes kill before it is up';
  const replacer = run.replacer ? `; the ${run.replacer} creates a replacement${madeAt}${pending}, ${serving}` : '; nothing replaces it';
  const where = ` on ${drain.node}${served || stuck ? '' : notServing(run)}${drain.upgrade ? ' for the node upgrade' : ''}`;
  const what = `${stuck ? `it stays Terminating there (the ${awayNode(run, drain.node, at)}'s kubelet cannot confirm its end), so kubectl drain waits for it until the node is back or the pod is force-deleted` : `${end.grace === 0 ? 'it is killed at once (terminationGracePeriodSeconds: 0)' : `it stops within ${grace}`}${sessions}${killed}`}${replacer}`;
  const told = (count: number) => `${label}: ${DRAINER[drain.by]} evicted ${count === 1 ? 'its pod' : `${count} of its pods`}${where}; ${count === 1 ? '' : 'for each, '}${what}`;
  note(run, at, {
    reason: told(1),
    // Pods of one workload the same drain evicts at once, alike in all else, are told together.
    alike: { key: `eviction|${told(1)}`, told },
    fact: `${FACT.eviction}; ${factOf(drain)}`,
    // Told even when what serves does not change: it is why the drain never ends.
    always: stuck,
  });
  // Killed at once, the eviction's own line said so.
  if (end.sessionsCut && workload.sessionSeconds !== undefined && !Number.isFinite(failed) && end.terminatedAt > at) {
    note(run, end.terminatedAt, { reason: `${label}: the pod evicted from ${drain.node} is killed at the end of ${grace}: its in-memory sessions are cut`, fact: factOf(drain), always: true });
  }
  if (run.replacer) replace(run, slot, created, `${label}: the ${run.replacer} replaced the pod evicted from ${drain.node}`);
};

/** A pod already stopping when the cluster was read: evicting it changes nothing, and the drain waits until it is gone. */
function waitForStopping(run: WorkloadRun, slot: Slot, drain: DrainPlan, at: number): void {
  // Handed to the drain twice at one moment (its start, and the node controller's eviction that left it): waited for once.
  if (run.evictions.some((e) => e.drain === drain && e.slot === slot.id)) return;
  const pod = slot.atStart!.pod;
  const confirmed = kubeletConfirmsFrom(run, drain.node, at);
  const evictedBefore = slot.atStart!.evictedAt !== undefined;
  if (slot.atStart!.stuck && drain.by === 'kubectl' && confirmed > at) {
    // No kubelet on a NotReady node confirms the pod's end: kubectl drain waits for it as long as the node is away.
    run.evictions.push({ drain, at, terminatedAt: confirmed, sessionsCut: false, slot: slot.id, stoppingPod: pod, unconfirmed: true, ...(evictedBefore ? { evictedBefore } : {}) });
    const which = pod ? `its pod ${pod}` : 'its pod the node controller evicted';
    note(run, at, {
      reason: `${run.label}: ${which} is stuck stopping on ${drain.node}, which is ${awayNode(run, drain.node, at) === 'down node' ? 'down' : 'NotReady'} (no kubelet confirms its end): kubectl drain waits for it until the node is back, or the pod is force-deleted`,
      fact: `${FACT.eviction}; ${factOf(drain)}`,
      always: true,
    });
    return;
  }
  if (evictedBefore) {
    // The autoscaler deletes the node, and with it the pods bound to it: nothing to wait for.
    run.evictions.push({ drain, at, terminatedAt: at, sessionsCut: false, slot: slot.id, stoppingPod: pod, evictedBefore });
    return;
  }
  const gone = Math.max(at, stoppedBy(run));
  run.evictions.push({ drain, at, terminatedAt: gone, sessionsCut: false, slot: slot.id, stoppingPod: pod });
  const scaledToZero = run.workload.replicas === 0 ? ', its workload scaled to 0' : '';
  note(run, at, {
    reason: `${run.label}: its pod ${pod} on ${drain.node} is already stopping (deleted${scaledToZero}): ${DRAINER[drain.by]} waits until it is gone at ${formatSeconds(gone)} (its ${stoppedBy(run)} s grace period, counted from when the cluster was read); ${recreatedAtStart(run) ? 'the StatefulSet controller recreates it then' : 'nothing replaces it'}`,
    fact: `${FACT.eviction}; ${factOf(drain)}`,
    always: true,
  });
}
