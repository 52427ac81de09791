import { restartBackoff } from '../../backoff';
import type { Slot } from '../../capacity-state';
import { FACT, TIMING } from '../../facts';
import { formatSeconds } from '../../format-time';
import { nodeIsDown } from '../../node-incidents';
import { dropDeadEndpoint, emit, note, recordCrash, refreshEndpoints, type Handler, type WorkloadRun } from '../run';

/**
 * The kubelet restarts a container in place with back-off; it keeps its IP. Returns when it serves
 * again, or undefined when its probes kill every start (a crash loop). `next` says what awaits it once
 * it is back (killed again under a surge); `assumed`, what the account of `what` assumes.
 */
export function restartInPlace(run: WorkloadRun, slot: Slot, at: number, what: string, repeat = false, next?: string, assumed?: string): number | undefined {
  const { workload, label, inPlaceStart } = run;
  const why = `${label}: ${what}${assumed ? ` (${assumed})` : ''}`;
  slot.alive = false;
  countRestart(slot, at);
  const delay = restartBackoff(slot.restarts);
  const frozen = workload.fronted && !run.ctx.controlPlane.at(at).controllers;
  const unseen = frozen ? `; ${workload.probes.readiness ? 'its failing readiness probe' : 'the restart'} does not take it out of the frozen Service meanwhile` : '';
  // Not ready from the crash on (its back-off, then its start): the endpoint controller, when it acts, takes the pod
  // out of its Service within seconds; one back before it acts (the API down through the back-off) never left.
  dropDeadEndpoint(run, slot, at, `${label}: the restarted container is not ready, so its pod leaves its Service`);
  if (!inPlaceStart.comesUp) {
    recordCrash(run, { slot: slot.id, at, what, restart: { startsAt: at + delay, servesAt: Infinity } });
    note(run, at, { reason: `${why}; the kubelet restarts it in place after ${delay} s back-off: ${inPlaceStart.why}${unseen}`, fact: `${FACT.runningPods}; ${FACT.probeKills}`, repeat });
    return undefined;
  }
  const started = at + delay + inPlaceStart.after;
  const apiWait = waitForApi(run, started, slot.restarts);
  const ready = apiWait?.until ?? started;
  recordCrash(run, { slot: slot.id, at, what, restart: { startsAt: at + delay, servesAt: ready } });
  const startsIn = inPlaceStart.after ? `, serves again after its ${inPlaceStart.after} s start` : '';
  const reason = apiWait
    ? `${why}; the kubelet restarts it in place after ${delay} s back-off and it keeps its IP, but ${apiWait.why}${unseen}`
    : `${why}; the kubelet restarts it in place after ${delay} s back-off${startsIn} and it keeps its IP${unseen}`;
  note(run, at, { reason, fact: apiWait ? `${FACT.runningPods}; ${apiWait.fact}` : FACT.runningPods, repeat });
  emit(run, ready, { kind: 'container-restarted', slot, generation: slot.generation, repeat, ...(next ? { next } : {}) });
  return ready;
}

/**
 * A container that needs the API to start, started while the API is down: CoreDNS cannot list Services (its
 * ready plugin answers 503, and it answers SERVFAIL for cluster names) and serves once the API is back and it has
 * synced (kubelets are back within `reconnect`). An ingress controller gives up on the API and exits, again at each
 * start, its back-off growing to 5 min (`restarts` so far): it serves once a start meets the API, up to 5 min after
 * its return. Undefined when the API is up at `start` or the container needs none.
 */
function waitForApi(run: WorkloadRun, start: number, restarts: number): { until: number; why: string; fact: string } | undefined {
  const { workload, ctx } = run;
  const cp = ctx.controlPlane;
  if ((!workload.clusterDns && !workload.ingressController) || cp.at(start).writes) return undefined;
  if (workload.clusterDns) {
    const { at: until, when } = syncedAfter(run, start);
    return { until, why: `CoreDNS started without the API cannot sync Services: not ready, and SERVFAIL for cluster names, ${when}`, fact: FACT.dns };
  }
  const { at: until, when } = syncedAt(run, startMeetingApi(start, cp.firstWrites(start), restarts), 'until one of its starts meets the API and it has synced');
  const loop = `it gives up on it after ${formatSeconds(TIMING.ingressApiGiveUp)} and exits, and the kubelet starts it again after a back-off that grows to ${formatSeconds(TIMING.backoffCap)}`;
  return { until, why: `as an ingress controller it cannot start without the API (${loop}) ${when}`, fact: FACT.apiClients };
}

/** The start of a crash-looping container (see waitForApi) that is running when the API is back at `apiBack`, or the first after it. */
function startMeetingApi(start: number, apiBack: number, restarts: number): number {
  if (!Number.isFinite(apiBack)) return apiBack;
  let at = start;
  for (let n = restarts; at + TIMING.ingressApiGiveUp < apiBack; ) at += TIMING.ingressApiGiveUp + restartBackoff(++n);
  return Math.max(at, apiBack);
}

/** The restarted container is up again, unless its pod was replaced or its node went down meanwhile. */
export const onContainerRestarted: Handler<'container-restarted'> = (run, { slot, generation, repeat, next }, at) => {
  if (slot.generation !== generation || nodeIsDown(run.ctx.incidents, slot.node, at)) return;
  slot.alive = true;
  slot.upSince = at;
  note(run, at, { reason: `${run.label}: container restarted${next ? `; ${next}` : ''}`, fact: FACT.runningPods, repeat });
  if (!slot.listed) refreshEndpoints(run, slot, at, generation, `${run.label}: the restarted pod is ready and back in its Service`, 'ready');
};

/**
 * Counts a restart towards the container's back-off, which the kubelet starts over once it has run 10 minutes
 * without crashing since it last came back.
 */
export function countRestart(slot: Slot, at: number): void {
  const ranCleanly = slot.upSince !== undefined && at - slot.upSince >= TIMING.backoffReset;
  slot.restarts = ranCleanly ? 1 : slot.restarts + 1;
}

/** When a container that needs the API, started at `from` while it is down, has synced with it again (kubelets are back within `reconnect`), in words too. */
export function syncedAfter(run: WorkloadRun, from: number): { at: number; when: string } {
  return syncedAt(run, run.ctx.controlPlane.firstWrites(from));
}

/** When a container that meets the API at `met` has synced with it, in words too (`until`, with the moment). */
function syncedAt(run: WorkloadRun, met: number, until = 'until the API is back and synced'): { at: number; when: string } {
  const at = met + TIMING.reconnect;
  // The moment is the sync's, after the API's return: said as the API's return, it read as that.
  return { at, when: at <= run.ctx.end ? `${until} (${formatSeconds(at)})` : until };
}
