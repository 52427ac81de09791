import { FACT } from '../../facts';
import { formatSeconds } from '../../format-time';
import type { Slot } from '../../capacity-state';
import { listedCount, loseForGood, note, recordCrash, type Handler, type WorkloadRun } from '../run';
import { restartInPlace } from './restart';

/** A pod of the workload crashes: restarted in place, or gone for good and left to its controller. */
export const onPodCrash: Handler<'pod-crash'> = (run, { mode }, at) => {
  const { workload, label } = run;
  const slot = run.slots.find((s) => s.alive);
  if (!slot) {
    note(run, at, { reason: `${label}: no running pod left to crash`, fact: FACT.runningPods, always: true });
    return;
  }
  // A pod whose restartPolicy is Never is not restarted: its crashed container fails it (a Job makes another).
  if ((mode === 'restartable' && !workload.restartNever) || workload.staticPod) {
    restartInPlace(run, slot, at, `a container on ${slot.node} crashed`);
    return;
  }
  failForGood(run, slot, at, mode === 'permanent' ? `a pod on ${slot.node} failed for good` : `a container on ${slot.node} crashed, and with restartPolicy Never its pod failed for good`);
};

/** A pod gone for good (`what` says how): left to its controller, which replaces it when the control plane lets it. */
export function failForGood(run: WorkloadRun, slot: Slot, at: number, what: string): void {
  const { workload, label } = run;
  const cp = run.ctx.controlPlane;
  recordCrash(run, { slot: slot.id, at, what });
  const writes = cp.at(at).writes;
  // With the API up but the controller manager down, nothing replaces it either, and its endpoints stay as they are.
  const controllersBack = cp.firstControllers(at);
  const listed = listedCount(run);
  const frozenService = (lead: string) => (workload.fronted ? `${lead}its frozen Service keeps sending it ${listed ? `1/${listed}` : 'all'} of new connections` : '');
  const replaced = !run.replacer
    ? 'nothing owns it to replace it'
    : controllersBack > at
      ? `the ${run.replacer} replaces it only when the controller manager runs again (${formatSeconds(controllersBack)})${frozenService('; until then ')}`
      : `the ${run.replacer} replaces it`;
  note(run, at, {
    reason: writes ? `${label}: ${what}; ${replaced}` : `${label}: ${what}: nothing replaces it while the API is down${frozenService(' and ')}`,
    fact: writes && controllersBack <= at ? FACT.recovery : FACT.frozenEndpoints,
  });
  loseForGood(run, slot, at, 'that failed');
}
