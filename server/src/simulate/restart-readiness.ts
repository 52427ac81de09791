import { TIMING } from './facts';
import type { SimWorkload } from './model';

/** How long the kubelet lets a freshly started container take before a probe kills it: the tightest container's. */
export interface StartBudget {
  seconds: number;
  probe: 'startup' | 'liveness';
  container: string;
  /** The arithmetic, for a reason a person can check: "initialDelaySeconds 0 + 3 × 10 s". */
  formula: string;
}

export type RestartReadiness = { comesUp: true; after: number } | { comesUp: false; why: string };

/**
 * How long until a (re)started container serves, or never: a start that outlasts what its probes allow
 * is killed before it is up, restarted with back-off and killed again, for as long as it runs (rule 4).
 * `assumedStart` is used when the workload declares no start of its own.
 */
export function restartReadiness(workload: Pick<SimWorkload, 'startSeconds' | 'startBudget'>, assumedStart: number): RestartReadiness {
  const start = workload.startSeconds;
  const budget = workload.startBudget;
  if (start === undefined) return { comesUp: true, after: assumedStart };
  if (!budget || start <= budget.seconds) return { comesUp: true, after: start };
  const killer =
    budget.probe === 'liveness'
      ? `liveness kills container ${budget.container} after ${budget.seconds} s (${budget.formula}) and there is no startup probe`
      : `the startup probe of container ${budget.container} gives up after ${budget.seconds} s (${budget.formula})`;
  return {
    comesUp: false,
    why: `it needs ${start} s to start (kube-resilience/startup-seconds) while ${killer}: the kubelet kills it before it is up, again and again (back-off ${TIMING.backoffFirst} s, ${2 * TIMING.backoffFirst} s, ${4 * TIMING.backoffFirst} s … capped at ${TIMING.backoffCap} s), so it never serves`,
  };
}
