import { restartBackoff } from '../../backoff';
import type { Slot } from '../../capacity-state';
import { FACT, TIMING } from '../../facts';
import { nodeIsDown } from '../../node-incidents';
import { dropDeadEndpoint, emit, note, refreshEndpoints, type Handler, type WorkloadRun } from '../run';

/**
 * The kubelet restarts a container in place with back-off; it keeps its IP. Returns when it serves
 * again, or undefined when its probes kill every start (a crash loop). `next` says what awaits it once
 * it is back (killed again under a surge).
 */
export function restartInPlace(run: WorkloadRun, slot: Slot, at: number, why: string, repeat = false, next?: string): number | undefined {
  const { workload, label, inPlaceStart } = run;
  slot.alive = false;
  slot.restarts = ranCleanly(slot, at) ? 1 : slot.restarts + 1;
  const delay = restartBackoff(slot.restarts);
  const frozen = workload.fronted && !run.ctx.controlPlane.at(at).controllers;
  const unseen = frozen ? `; ${workload.probes.readiness ? 'its failing readiness probe' : 'the restart'} does not take it out of the frozen Service meanwhile` : '';
  // Unready for longer than a back-off: the endpoint controller, when it acts, takes the pod out of its Service.
  if (!inPlaceStart.comesUp || inPlaceStart.after > 0) dropDeadEndpoint(run, slot, at, `${label}: the restarted container is not ready, so its pod leaves its Service`);
  if (!inPlaceStart.comesUp) {
    note(run, at, { reason: `${why}; the kubelet restarts it in place after ${delay} s back-off: ${inPlaceStart.why}${unseen}`, fact: `${FACT.runningPods}; ${FACT.probeKills}`, repeat });
    return undefined;
  }
  const ready = at + delay + inPlaceStart.after;
  const started = inPlaceStart.after ? `, serves again after its ${inPlaceStart.after} s start` : '';
  note(run, at, { reason: `${why}; the kubelet restarts it in place after ${delay} s back-off${started} and it keeps its IP${unseen}`, fact: FACT.runningPods, repeat });
  emit(run, ready, { kind: 'container-restarted', slot, generation: slot.generation, repeat, ...(next ? { next } : {}) });
  return ready;
}

/** The restarted container is up again, unless its pod was replaced or its node went down meanwhile. */
export const onContainerRestarted: Handler<'container-restarted'> = (run, { slot, generation, repeat, next }, at) => {
  if (slot.generation !== generation || nodeIsDown(run.ctx.incidents, slot.node, at)) return;
  slot.alive = true;
  slot.upSince = at;
  note(run, at, { reason: `${run.label}: container restarted${next ? `; ${next}` : ''}`, fact: FACT.runningPods, repeat });
  if (!slot.listed) refreshEndpoints(run, slot, at, generation, `${run.label}: the restarted pod is ready and back in its Service`, 'ready');
};

/** Whether the container ran long enough since it last came back for the kubelet to start its back-off over. */
export function ranCleanly(slot: Slot, at: number): boolean {
  return slot.upSince !== undefined && at - slot.upSince >= TIMING.backoffReset;
}
