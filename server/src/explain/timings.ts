/**
 * Timings the hovers quote, each from the fact sheets (`facts/control-plane.md`, `facts/data-plane.md`).
 */
export const HOVER_TIMING = {
  /** node-monitor-grace-period: 40 s, 50 s since v1.32 (control-plane.md §3). */
  nodeMonitorGraceOld: 40,
  nodeMonitorGrace: 50,
  /** DefaultTolerationSeconds for not-ready/unreachable NoExecute taints (control-plane.md §3). */
  unreachableToleration: 300,
  /** terminationGracePeriodSeconds default (data-plane.md §7). */
  terminationGrace: 30,
  /** Cluster Autoscaler scale-down-unneeded-time, in seconds (data-plane.md §4). */
  scaleDownUnneeded: 600,
  /** Cluster Autoscaler max-graceful-termination-sec (data-plane.md §4). */
  scaleDownMaxGrace: 600,
  /** Kubelet crash-loop back-off cap (data-plane.md §1). */
  backoffCap: 300,
  /** HPA downscale stabilization, in seconds (data-plane.md §4). */
  hpaDownscaleStabilization: 300,
  /** A Job's backoffLimit unless set: the failed pods it takes before it fails (an evicted pod counts as one). */
  jobBackoffLimit: 6,
} as const;

/** The fact sheets (docs/facts/<sheet>.md) and sections the timings above come from. */
export const TIMING_SOURCES = [
  { sheet: 'control-plane', sections: '§3' },
  { sheet: 'data-plane', sections: '§1, §4, §7' },
] as const;
