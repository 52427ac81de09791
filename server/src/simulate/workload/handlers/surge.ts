import { FACT, TIMING } from '../../facts';
import { formatSeconds } from '../../format-time';
import { plural } from '../../../words';
import { crashLoopNote, emit, loseForGood, note, pickNode, type Handler, type WorkloadRun } from '../run';
import { failForGood } from './pod-crash';
import { restartInPlace } from './restart';

/** Traffic grows by `factor`: the HPA scales out when the control plane lets it; meanwhile each pod carries more. */
export const onSurge: Handler<'traffic-surge'> = (run, { factor }, at) => {
  if (!(factor > 1)) return;
  const { workload, label, slots } = run;
  const cp = run.ctx.controlPlane;
  const running = slots.filter((s) => s.alive).length;
  // No pod to carry it (scaled to zero, or all gone): an HPA does not scale a workload up from zero replicas; KEDA does
  // when its triggers activate, which follow event sources (a queue, a schedule) this simulation does not see.
  const fromNone = !workload.hpa ? '' : workload.hpa.keda ? ' until KEDA activates it: its triggers scale it up from none, and the simulation does not follow them' : ', and its HPA does not scale it up from none';
  if (running === 0) return note(run, at, { reason: `${label}: traffic ×${factor}, but no pod of it runs: nothing serves it${fromNone}`, fact: FACT.surge, always: true });
  // Within its tolerance the HPA changes nothing, whatever the control plane does (the load was at its target).
  const tolerated = !!workload.hpa && factor <= 1 + TIMING.hpaTolerance;
  const hpa = tolerated ? undefined : workload.hpa;
  const scaledTo = hpa ? Math.min(hpa.max, Math.ceil(factor * running)) : running;
  const demand = factor * running;
  const { controllers: autoscaling, writes } = cp.at(at);
  run.load = factor;
  if (hpa && autoscaling && cp.at(at).scheduling) {
    const relief = cp.firstScheduling(at + TIMING.hpaSync) + run.podStart;
    note(run, at, { reason: `${label}: traffic ×${factor}; the HPA scales it from ${running} to ${plural(scaledTo, 'pod')} within ~${TIMING.hpaSync} s plus start-up`, fact: FACT.surge });
    emit(run, relief, { kind: 'scale-out', to: scaledTo, demand, why: `${label}: scaled out to ${plural(scaledTo, 'pod')}`, fact: FACT.surge });
    return;
  }
  note(run, at, {
    reason: `${label}: traffic ×${factor} on ${plural(running, 'pod')}; ${tolerated ? `within its HPA's ${TIMING.hpaTolerance * 100} % tolerance, which leaves the replica count alone` : !hpa ? 'it has no HPA' : autoscaling ? `its HPA asks for ${plural(scaledTo, 'pod')} but no scheduler binds them` : writes ? 'its HPA runs in the controller manager, which is not acting' : 'its HPA is frozen with the API'}: no scale-out, each pod carries ${factor}× its load`,
    fact: FACT.surge,
  });
  // New pods need the scheduler as well as the HPA.
  const relief = hpa ? cp.firstScheduling(cp.firstControllers(at) + TIMING.hpaSync) + run.podStart : Infinity;
  if (Number.isFinite(relief)) emit(run, relief, { kind: 'scale-out', to: scaledTo, demand, why: `${label}: the HPA acts again and scales it to ${plural(scaledTo, 'pod')}`, fact: FACT.recovery });
  overload(run, at, relief, `under ×${factor} traffic`);
};

/**
 * What pods carrying more than their load come to until `relief`: a memory limit reached (OOM kills, restarts in
 * place, again and again), or, with none, their nodes under memory pressure and the pods evicted for good.
 */
function overload(run: WorkloadRun, at: number, relief: number, pressure: string): void {
  const { workload, label, slots } = run;
  if (workload.memoryLimit) {
    // Pods already OOM-killed in a loop go on in it (their next kill reads the relief); the others start one.
    const looping = run.surgeRelief !== undefined && at <= run.surgeRelief;
    const firstNew = looping ? run.oomLooping : 0;
    run.surgeRelief = relief;
    run.oomLooping = slots.length;
    for (const slot of slots.slice(firstNew).filter((s) => s.alive)) emit(run, at + TIMING.assumedSurgeToMemoryLimit, { kind: 'oom-kill', slot, generation: slot.generation, first: true });
    return;
  }
  const evictAt = at + TIMING.assumedSurgeToEviction;
  run.queue.schedule(evictAt, () => {
    if (evictAt >= relief) return;
    const victims = slots.filter((s) => s.alive);
    const nodes = [...new Set(victims.map((s) => s.node))];
    for (const node of nodes) run.pressuredNodes.push({ node, at: evictAt });
    note(run, evictAt, {
      reason: `${label} has no memory limit: ${pressure} its nodes (${nodes.join(', ')}) come under memory pressure and the kubelet evicts its pods for good (assumed ~${TIMING.assumedSurgeToEviction} s to pressure)${workload.pdb ? '; its PodDisruptionBudget does not help: node-pressure eviction ignores PDBs' : ''}`,
      fact: FACT.surge,
    });
    for (const slot of victims) loseForGood(run, slot, evictAt, 'evicted under memory pressure');
  });
}

/** A surging container reaches its memory limit and is OOM-killed, again after each restart, until relief. */
export const onOomKill: Handler<'oom-kill'> = (run, { slot, generation, first }, at) => {
  if (slot.generation !== generation || !slot.alive || at >= (run.surgeRelief ?? 0) || run.load <= 1) return;
  const killed = `a container on ${slot.node} hit its memory limit under the surge and was OOM-killed`;
  if (run.workload.restartNever) return failForGood(run, slot, at, `${killed}, and with restartPolicy Never its pod failed for good`);
  // Told once: every restart while the surge lasts is killed the same way, each back-off longer (a crash loop).
  const loop = `while the surge lasts it is OOM-killed again ~${TIMING.assumedSurgeToMemoryLimit} s after each restart, each back-off twice as long up to ${formatSeconds(TIMING.backoffCap)}: it serves less and less of the time`;
  const back = restartInPlace(run, slot, at, killed, !first, loop, `assumed ~${TIMING.assumedSurgeToMemoryLimit} s after each start`);
  if (back !== undefined) emit(run, back + TIMING.assumedSurgeToMemoryLimit, { kind: 'oom-kill', slot, generation: slot.generation, first: false });
};

/** The HPA raises the replica count: new pods join, the surge spreads over more of them. */
export const onScaleOut: Handler<'scale-out'> = (run, { to, demand, why, fact }, at) => {
  const endpointsNow = run.ctx.controlPlane.at(at).controllers;
  const comesUp = run.inPlaceStart.comesUp;
  while (run.slots.length < to) {
    const node = pickNode(run, at);
    if (!node) break;
    const listed = endpointsNow && comesUp;
    run.slots.push({ id: run.slots.length, node, alive: comesUp, listed, listedIsCurrent: listed, generation: 0, restarts: 0 });
  }
  crashLoopNote(run, at, 'the new pods start');
  run.desired = Math.max(run.desired, to);
  run.load = demand / run.desired;
  note(run, at, { reason: why, fact });
  // Capped by the HPA's maxReplicas below what the traffic asks for: the pods still carry more than their load.
  if (run.load > 1) {
    const load = `${Number(run.load.toFixed(2))}×`;
    note(run, at, { reason: `${run.label}: its HPA stops at maxReplicas ${run.desired}, below the ${Math.ceil(demand)} pods the traffic asks for: each pod still carries ${load} its load`, fact: FACT.surge });
    overload(run, at, Infinity, `each pod carrying ${load} its load at the HPA's maxReplicas,`);
  }
};
