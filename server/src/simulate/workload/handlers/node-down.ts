import { stopping, type Slot } from '../../capacity-state';
import { FACT, TIMING } from '../../facts';
import { nodeBackAt, tolerationOf, type NodeIncident } from '../../node-incidents';
import { formatSeconds } from '../../format-time';
import { holdReason, type TaintHold } from '../../no-execute-taints';
import { plural } from '../../../words';
import { crashLoopNote, dropDeadEndpoint, kubeletBackAfter, kubeletConfirmsFrom, emit, note, refreshEndpoints, replace, type Handler, type WorkloadRun } from '../run';

/** A node stops: its replicas are gone until the node's kubelet runs them again, or a controller replaces them. */
export const onNodeDown: Handler<'node-down'> = (run, { incident }) => {
  const { slots, workload, label, desired } = run;
  const cp = run.ctx.controlPlane;
  // A pod already stopping is gone with the node as it would be without it: nothing to tell, nothing to bring back.
  const onNode = slots.filter((s) => s.node === incident.node && !stopping(s));
  const here = onNode.filter((s) => s.alive);
  // Replicas already down there still follow the node: their return waits for it again.
  for (const slot of onNode.filter((s) => !s.alive)) slotDown(run, slot, incident);
  if (!here.length) return;
  const { writes, controllers, controllersLeaseMoving } = cp.at(incident.at);
  const consequence = workload.staticPod
    ? 'the kubelet starts static pods again from disk when the node is back'
    : !writes
      ? `nothing recreates ${here.length === 1 ? 'it' : 'them'} while the API is down`
      : controllers
        ? `the control plane notices after ${controllersLeaseMoving ? `its controller manager's lease moves (~${TIMING.leaderLease} s) and ` : ''}the ${cp.nodeMonitorGrace} s grace period`
        : 'with the controller manager down nobody marks the node NotReady or updates endpoints';
  note(run, incident.at, { reason: `${incident.what}: ${plural(here.length, 'pod')} of ${label} gone (${here.length} of ${desired}), ${consequence}`, fact: incident.fact });
  for (const slot of here) {
    slotDown(run, slot, incident);
    keepEvicting(run, slot, incident.at);
  }
};

/**
 * A drain of the node under way goes on asking to evict the pod, dead or not: its pod object stays until the node
 * controller or an eviction deletes it (a refused eviction's retries stopped with the node, the budget looking
 * blocked for minutes after the pod could go).
 */
function keepEvicting(run: WorkloadRun, slot: Slot, at: number): void {
  for (const drain of run.ctx.drains) {
    if (drain.node !== slot.node || drain.halted || at < drain.start || at >= drain.uncordonAt) continue;
    const refused = run.refusals.find((r) => r.drain === drain && r.to === null);
    if (!refused) continue;
    const every = drain.by === 'kubectl' ? TIMING.drainRetry : TIMING.autoscalerEvictionRetry;
    emit(run, at + every, { kind: 'eviction-attempt', slot, generation: slot.generation, drain, firstTry: refused.from });
  }
}

function slotDown(run: WorkloadRun, slot: Slot, incident: NodeIncident): void {
  const { workload, label, inPlaceStart, queue } = run;
  const { controlPlane: cp, incidents } = run.ctx;
  slot.alive = false;
  const generation = ++slot.generation;
  if (workload.staticPod) {
    const nodeBack = nodeBackAt(incidents, incident.node, incident.at);
    if (!inPlaceStart.comesUp) {
      queue.schedule(nodeBack, () => crashLoopNote(run, nodeBack, `${incident.node} is back and the kubelet starts static pod ${label} again from disk`));
      return;
    }
    const ready = nodeBack + inPlaceStart.after;
    queue.schedule(ready, () => {
      if (slot.generation !== generation) return;
      slot.alive = true;
      note(run, ready, { reason: `${incident.node} is back: the kubelet restarted static pod ${label}${inPlaceStart.after ? ` (serving after its ${inPlaceStart.after} s start)` : ''}`, fact: FACT.nodeReboot });
    });
    return;
  }
  // The kubelet needs the API to learn which regular pods are bound to its node (rule 7).
  const podsBack = kubeletBackAfter(run, incident.node, incident.at);
  const notReadyAt = cp.notReadyAt(incident.at);
  if (notReadyAt < podsBack) {
    const since = cp.firstControllers(incident.at) === incident.at ? 'its kubelet stopped reporting' : cp.at(incident.at).controllers ? "a surviving controller manager took the lease over" : 'the controller manager could watch it again';
    dropDeadEndpoint(run, slot, notReadyAt, `${incident.node} marked NotReady ${cp.nodeMonitorGrace} s after ${since}: ${label}'s pods there leave its Service`, FACT.nodeLifecycle);
    // A kubelet that stops reporting leaves its node Unknown: tainted unreachable.
    const toleration = tolerationOf(workload, 'node.kubernetes.io/unreachable');
    const own = workload.nodeLossToleration?.['node.kubernetes.io/unreachable'] !== undefined;
    const { taints } = run.ctx;
    const evictAt = Number.isFinite(toleration) ? taints.evictionAt(incident.node, notReadyAt, toleration) : Infinity;
    // Pods that stay (a DaemonSet's, those tolerating the node for ever) are said to once other pods would be evicted.
    const stays = workload.kind === 'DaemonSet' || !Number.isFinite(toleration);
    const hold = taints.holdFrom(incident.node, notReadyAt);
    const evicted = stays ? taints.evictionAt(incident.node, notReadyAt, TIMING.unreachableToleration) < podsBack : evictAt < podsBack;
    const taintedAt = taints.taintedAt(incident.node, notReadyAt);
    // The node controller held back its taint (zone disruption): its pods stay bound to the node meanwhile.
    if (!stays && hold && hold.at < Math.min(evictAt, podsBack)) keptOnNode(run, incident.node, hold, evicted ? taintedAt : undefined);
    const whose = own ? 'its own toleration' : 'default toleration';
    const after = taintedAt > notReadyAt ? `after the node's taint at ${formatSeconds(taintedAt)}` : 'after NotReady';
    if (evicted) nodeControllerEvicts(run, slot, { node: incident.node, notReadyAt, evictAt, when: `${toleration} s ${after} (${whose})` });
  }
  // Restarted with new IPs (or the node's, on its network) but not ready yet: the endpoint controller lists none ready.
  if (!inPlaceStart.comesUp || inPlaceStart.after > 0) {
    const endpoints = workload.hostNetwork ? 'the endpoints mark them not ready' : 'the endpoints drop their old IPs';
    refreshEndpoints(run, slot, podsBack, generation, `${label}: its pods restarting on ${incident.node} are not ready: ${endpoints}`, 'not ready');
  }
  if (evictedStatefulPod(run, incident, notReadyAt, podsBack)) {
    // Its pod was evicted and stayed Terminating: the kubelet back confirms its end rather than starting it, and the
    // StatefulSet controller makes it again, where the scheduler puts it.
    queue.schedule(podsBack, () => {
      if (slot.generation !== generation) return;
      replace(run, slot, cp.firstScheduling(podsBack), `${label}: ${incident.node} reached the API again and its kubelet confirmed the end of the pod evicted there, so the StatefulSet controller made it again`);
    });
    return;
  }
  if (!inPlaceStart.comesUp) {
    queue.schedule(podsBack, () => {
      if (slot.generation === generation) crashLoopNote(run, podsBack, `${incident.node} reached the API again and its kubelet starts ${label}'s pods there again`);
    });
    return;
  }
  emit(run, podsBack + inPlaceStart.after, { kind: 'pods-back', slot, generation, incident });
}

/**
 * The node controller evicts a replica from an unreachable node once its toleration runs out (`when` says how):
 * a DaemonSet's pods tolerate the node and stay; a StatefulSet's pod stays Terminating (no kubelet confirms its
 * end) and nothing replaces it; another's controller replaces it elsewhere, and the pod is left Terminating on the
 * node (named when it was found on a node NotReady at the read), for a drain of it to wait on.
 */
export function nodeControllerEvicts(run: WorkloadRun, slot: Slot, how: { node: string; notReadyAt: number; evictAt: number; when: string; pod?: string }): void {
  const { workload, label } = run;
  const { node, notReadyAt, evictAt, when, pod } = how;
  const its = pod ? `its pod ${pod} on NotReady node ${node}` : `its pod on ${node}`;
  if (workload.kind === 'DaemonSet') {
    noteOnce(run, notReadyAt, `${label}: DaemonSet pods tolerate an unreachable node: not evicted, not replaced`);
  } else if (!Number.isFinite(evictAt)) {
    noteOnce(run, notReadyAt, `${label}: its pods tolerate the NotReady node for ever (a NoExecute toleration without tolerationSeconds): ${its} is not evicted, and nothing replaces it until the node is back`);
  } else if (workload.kind === 'StatefulSet') {
    note(run, evictAt, {
      reason: `${label}: ${its} is evicted but stays Terminating there, and the StatefulSet will not start another with the same name until someone force-deletes it (or taints the node out-of-service)`,
      fact: FACT.nodeLifecycle,
      always: true,
    });
  } else if (run.replacer) {
    const generation = slot.generation;
    run.queue.schedule(evictAt, () => {
      // A drain of the node evicted it first, or the node came back.
      if (slot.generation !== generation || slot.node !== node) return;
      // The evicted pod stays on the node, Terminating, for a drain of it to wait on, until a kubelet there confirms its end; its replica moves on.
      const left: Slot = { id: run.slots.length, node, alive: false, listed: false, listedIsCurrent: false, generation: 0, restarts: 0, atStart: { pod: pod ?? '', node, why: 'stopping', stuck: true, evictedAt: evictAt } };
      run.slots.push(left);
      const confirmed = kubeletConfirmsFrom(run, node, evictAt);
      if (Number.isFinite(confirmed)) run.queue.schedule(confirmed, () => void (left.node = ''));
      replace(run, slot, run.ctx.controlPlane.firstScheduling(evictAt), `${label}: ${its} was evicted ${when} (it stays Terminating there, no kubelet confirming its end), and the ${run.replacer} replaced it`);
      // A drain of the node under way (its eviction of the pod refused, or asked at this same moment) waits for it now.
      for (const drain of run.ctx.drains) {
        if (drain.node === node && !drain.halted && drain.start <= evictAt && evictAt < drain.uncordonAt) emit(run, evictAt, { kind: 'eviction-attempt', slot: left, generation: 0, drain, firstTry: evictAt });
      }
    });
  }
}

/** Whether the node controller evicted the StatefulSet's pod on the node before its kubelet was back (it stays Terminating until then). */
function evictedStatefulPod(run: WorkloadRun, incident: NodeIncident, notReadyAt: number, podsBack: number): boolean {
  const { workload } = run;
  if (workload.kind !== 'StatefulSet' || notReadyAt >= podsBack) return false;
  const toleration = tolerationOf(workload, 'node.kubernetes.io/unreachable');
  return Number.isFinite(toleration) && run.ctx.taints.evictionAt(incident.node, notReadyAt, toleration) < podsBack;
}

/** Pods the node controller leaves on a NotReady node it does not taint (zone disruption): bound to it, and not replaced until it does (`taintedAt`). */
function keptOnNode(run: WorkloadRun, node: string, hold: TaintHold, taintedAt: number | undefined): void {
  const { label } = run;
  const until = taintedAt !== undefined ? ` until the node controller taints it at ${formatSeconds(taintedAt)}` : ', not evicted and not replaced';
  const reason = (count: number) => `${label}: ${count === 1 ? 'its pod' : `its ${count} pods`} on NotReady ${node} ${count === 1 ? 'stays' : 'stay'} bound there${until}: ${holdReason(hold)}`;
  note(run, hold.at, { reason: reason(1), fact: FACT.zoneDisruption, always: true, alike: { key: `kept|${node}|${hold.at}`, told: reason } });
}

/** Pods that stay on the node are said to once: a node failing again meanwhile (a reboot during a failure) changes nothing for them. */
function noteOnce(run: WorkloadRun, at: number, reason: string): void {
  for (const told of run.notes.values()) if (told.some((n) => n.reason === reason)) return;
  note(run, at, { reason, fact: FACT.nodeLifecycle, always: true });
}

/**
 * The node reached the API again and its kubelet restarted the replica there, with a new pod IP; on the node's
 * network (hostNetwork) with the IP it had, which endpoints that still list it reach again, frozen or not.
 */
export const onPodsBack: Handler<'pods-back'> = (run, { slot, generation, incident }, at) => {
  if (slot.generation !== generation) return;
  const { label, inPlaceStart } = run;
  const sameIp = !!run.workload.hostNetwork && incident.kind !== 'replaced';
  slot.alive = true;
  slot.listedIsCurrent = sameIp && slot.listed;
  // Endpoints matter only where a Service lists the pods.
  const frozen = run.workload.fronted && !run.ctx.controlPlane.at(at).controllers;
  const started = inPlaceStart.comesUp && inPlaceStart.after ? ` (serving after its ${inPlaceStart.after} s start)` : '';
  const restarted =
    incident.kind === 'replaced'
      ? `The fresh ${incident.node} has joined: ${label}'s pods start there${started}`
      : `${incident.node} reached the API again: its kubelet restarted ${label}'s pods there${started}`;
  note(run, at, { ...podsBackReason(run, restarted, { frozen, sameIp, listed: slot.listed }), always: frozen });
  refreshEndpoints(run, slot, at, generation, `${label}: endpoints updated with the restarted pods`, 'ready');
};

/** What the endpoints make of pods restarted on a node: only where a Service lists them, and frozen while the controller manager is down. */
function podsBackReason(run: WorkloadRun, restarted: string, { frozen, sameIp, listed }: { frozen: boolean; sameIp: boolean; listed: boolean }): { reason: string; fact: string } {
  if (!run.workload.fronted) return { reason: restarted, fact: FACT.recovery };
  if (!frozen) return { reason: `${restarted} (${sameIp ? "the node's IP: they use its network" : 'new pod IPs'})`, fact: FACT.recovery };
  if (sameIp && listed) return { reason: `${restarted}: they use the node's network, so the IP the frozen endpoints list is theirs again`, fact: FACT.frozenEndpoints };
  const unlisted = sameIp ? 'the frozen endpoints, which dropped them when the node went NotReady, do not list them' : 'with new pod IPs the frozen endpoints do not list';
  return { reason: `${restarted}, but ${unlisted} until the controller manager returns`, fact: FACT.frozenEndpoints };
}
