import { FACT, TIMING } from '../../facts';
import { note, type Handler } from '../run';
import { plural } from '../../../words';

/** The API or the controllers come or go: API clients, CronJobs and HPAs of the workload feel it. */
export const onControlPlaneChange: Handler<'control-plane-change'> = (run, { segment, previous }, at) => {
  const { workload, label } = run;
  if (workload.apiClient && segment.writes !== previous.writes) {
    run.apiCut = !segment.writes;
    note(run, at, {
      reason: segment.writes
        ? `${label} reaches the API again`
        : `${label} talks to the API itself (${workload.apiClient}): its API calls fail at once; a leader-elected one loses its lease after ~${TIMING.leaderLease} s and typically exits and crash-loops (implementation-dependent, uncertain)${workload.ingressController ? '; as an ingress controller it keeps serving its last configuration, but a restarted one cannot start' : ''}`,
      fact: FACT.apiClients,
    });
  }
  // A run does its work once its Job is made (the controller manager) and its pod bound (the scheduler).
  const runs = (s: { controllers: boolean; scheduling: boolean }) => s.controllers && s.scheduling;
  if (workload.kind === 'CronJob' && runs(segment) !== runs(previous)) {
    const schedule = workload.schedule ? ` (schedule "${workload.schedule}")` : '';
    if (workload.neverRuns) {
      // Nothing to lose: said once, when the runs stop.
      if (!runs(segment)) note(run, at, { reason: `${label}: ${workload.neverRuns}, so it starts no run anyway: the ${segment.controllers ? 'scheduler' : 'controller manager'} being down costs it nothing`, fact: FACT.nothingReplaced, always: true });
    } else {
      run.cronFrozen = !runs(segment);
      note(run, at, {
        reason: runs(segment)
          ? previous.controllers
            ? `${label}: the scheduler is back and binds the pods of the runs made meanwhile: they start now, together (with concurrencyPolicy Forbid, the first pending run kept later ones from being made)`
            : `${label}: the CronJob controller is back and starts at most one missed run (only within startingDeadlineSeconds)`
          : segment.controllers
            ? `${label}${schedule}: its runs' Jobs are made on schedule, but their pods stay Pending while no scheduler runs: no run does its work until it returns`
            : `${label}${schedule}: no run starts while the controller manager is not acting`,
        fact: runs(segment) ? FACT.recovery : FACT.nothingReplaced,
      });
    }
  }
  if (workload.hpa && segment.controllers !== previous.controllers) {
    note(run, at, {
      reason: segment.controllers ? `${label}: its HPA acts again` : `${label}: its HPA is frozen at ${plural(run.desired, 'replica')} (no scale-out or scale-in)`,
      fact: FACT.controlLoops,
      always: true,
    });
  }
};
