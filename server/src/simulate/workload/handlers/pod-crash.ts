import { FACT } from '../../facts';
import { listedCount, loseForGood, note, type Handler } from '../run';
import { restartInPlace } from './restart';

/** A pod of the workload crashes: restarted in place, or gone for good and left to its controller. */
export const onPodCrash: Handler<'pod-crash'> = (run, { mode }, at) => {
  const { workload, label } = run;
  const slot = run.slots.find((s) => s.alive);
  if (!slot) {
    note(run, at, { reason: `${label}: no running pod left to crash`, fact: FACT.runningPods, always: true });
    return;
  }
  if (mode === 'restartable' || workload.staticPod) {
    restartInPlace(run, slot, at, `${label}: a container on ${slot.node} crashed`);
    return;
  }
  const writes = run.ctx.controlPlane.at(at).writes;
  const listed = listedCount(run);
  note(run, at, {
    reason: writes
      ? `${label}: a pod on ${slot.node} failed for good; ${run.replacer ? `the ${run.replacer} replaces it` : 'nothing owns it to replace it'}`
      : `${label}: a pod on ${slot.node} failed for good: nothing replaces it while the API is down${workload.fronted ? ` and its frozen Service keeps sending it ${listed ? `1/${listed}` : 'all'} of new connections` : ''}`,
    fact: writes ? FACT.recovery : FACT.frozenEndpoints,
  });
  loseForGood(run, slot, at, 'that failed');
};
