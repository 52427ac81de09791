/**
 * The timings the model rests on, each with the rule of SIMULATION.md and the fact sheet it comes from,
 * so every timeline event can cite what a person would check.
 */

export const FACT = {
  quorum: 'rule 1: etcd quorum is ⌊n/2⌋+1 — facts/control-plane.md §1',
  api: 'rule 2: the API needs an API server and etcd quorum — facts/control-plane.md §1',
  controlLoops: 'rule 3: scheduler, controllers and autoscalers need the API; leases move in ~15 s — facts/control-plane.md §2, facts/data-plane.md §4',
  runningPods: 'rule 4: running pods keep running, crashed containers restart in place with back-off — facts/data-plane.md §1',
  probeKills: 'rule 4: liveness and startup probes keep killing containers locally, crash-looping a start that outlasts them — facts/data-plane.md §1',
  nothingReplaced: 'rule 5: nothing is replaced while the API is down — facts/data-plane.md §1, §6',
  frozenEndpoints: 'rule 6: endpoints are frozen — facts/data-plane.md §2',
  nodeReboot: 'rule 7: after a reboot only static pods come back — facts/data-plane.md §1, §2',
  dns: 'rule 8: CoreDNS answers from its informer cache; a restarted replica answers SERVFAIL after 5 s — facts/data-plane.md §3',
  kubeProxy: 'rule 9: kube-proxy keeps its rules and does not flush them on restart (v1.14+) — facts/data-plane.md §2',
  surge: 'rule 10: the HPA is frozen; memory limits mean OOM restarts, no limits mean node-pressure evictions — facts/data-plane.md §1, §4',
  apiClients: 'rule 11: in-cluster API clients fail at once and lose leases after ~15 s — facts/data-plane.md §5, §6',
  tokens: 'rule 12: kubelets cannot refresh projected tokens (refresh at 80 % of TTL) — facts/data-plane.md §5',
  people: 'rule 13: kubectl, logs, exec and dashboards need the API — facts/control-plane.md §2',
  recovery: 'rule 14: on recovery the node controller starts a fresh grace period and controllers replace lost pods — facts/control-plane.md §3, facts/data-plane.md §6',
  zoneDisruption: 'rule 14: the node controller taints one node of a zone every 10 s; none in a zone partially down (> 2 NotReady, ≥ 55 %) of 50 nodes or fewer, one every 100 s in a larger one, and none while every node is NotReady — facts/control-plane.md §3',
  nodeLifecycle: 'rule 14: a node is NotReady after the node-monitor grace period (50 s, 40 s before v1.32), its pods evicted 300 s later — facts/control-plane.md §3',
  eviction: 'rule 15: an eviction goes through the API and its PodDisruptionBudget: refused (429) while the budget allows no disruption — facts/voluntary-disruption.md §1',
  kubectlDrain: 'rule 16: kubectl drain cordons, evicts, retries a refused eviction every 5 s and waits each pod\'s full grace period; DaemonSet and mirror pods stay, pods without a controller stop it unless forced — facts/voluntary-disruption.md §2',
  autoscalerScaleDown: 'rule 17: the cluster autoscaler removes a node only when every pod on it can move, gives up after 2 min of refused evictions and caps graceful termination at 600 s — facts/voluntary-disruption.md §3',
  nodeUpgrade: 'rule 18: a rolling node upgrade drains one node at a time and replaces it with a fresh node before the next — facts/voluntary-disruption.md §4',
} as const;

/** The TTL the API server injects into projected service-account tokens (3607 s). */
const TOKEN_TTL = 3607;

export const TIMING = {
  /** Leader-election lease duration of the scheduler and controller manager (component-base default). */
  leaderLease: 15,
  /** The API server keeps serving reads from its watch cache this long after etcd loses quorum. */
  watchCacheGrace: 30,
  /** CoreDNS startup_timeout before serving with an unsynced API. */
  dnsStartupTimeout: 5,
  /** node-monitor-grace-period since v1.32 (40 s before), where the cluster does not tell its own. */
  nodeMonitorGrace: 50,
  /** --node-eviction-rate: nodes a second the node controller taints in a zone (one every 10 s, burst 1)… */
  nodeEvictionRate: 0.1,
  /** --unhealthy-zone-threshold: the share of NotReady nodes (more than 2 of them) that makes a zone partially disrupted. */
  unhealthyZoneThreshold: 0.55,
  /** --large-cluster-size-threshold: a partially disrupted zone of this many nodes or fewer gets no NoExecute taints at all… */
  largeZone: 50,
  /** …and a larger one --secondary-node-eviction-rate nodes a second (one every 100 s). */
  secondaryEvictionRate: 0.01,
  /** Default not-ready/unreachable toleration added by DefaultTolerationSeconds. */
  unreachableToleration: 300,
  /** Kubelets retry their lease with back-off capped at 7 s: they are back within about this long of the API. */
  reconnect: 10,
  /**
   * A restarted ingress-nginx controller tries the API this long before it exits (createApiserverClient: 10 tries,
   * 1 s × 1.5ⁿ apart, then klog.Fatalf), so without the API it crash-loops.
   */
  ingressApiGiveUp: Math.round((1.5 ** 10 - 1) / 0.5),
  /** Kubelet crash-loop back-off: first delay and cap. */
  backoffFirst: 10,
  backoffCap: 300,
  /** …which starts again from the first delay once a container has run this long without crashing. */
  backoffReset: 600,
  /** HPA sync period. */
  hpaSync: 15,
  /** The HPA leaves the replica count alone while the metric is within this share of its target (--horizontal-pod-autoscaler-tolerance). */
  hpaTolerance: 0.1,
  /** Kubelet projected-token refresh: 80 % of the injected TTL. */
  tokenRefresh: Math.round(0.8 * TOKEN_TTL),
  /** The injected projected-token TTL (where the API server does not extend it). */
  tokenTtl: TOKEN_TTL,
  /** kubectl drain waits this long before retrying an eviction the API refused with 429. */
  drainRetry: 5,
  /** The cluster autoscaler retries a refused eviction this often (EvictionRetryTime)… */
  autoscalerEvictionRetry: 10,
  /** …for at most this long (MaxPodEvictionTime), then the scale-down fails. */
  autoscalerEvictionLimit: 120,
  /** --max-graceful-termination-sec default: the autoscaler's cap on a pod's grace period. */
  autoscalerGraceCap: 600,
  /** The autoscaler stops operating when more than this many nodes… */
  autoscalerOkUnready: 3,
  /** …and more than this share of them are unready (--ok-total-unready-count, --max-total-unready-percentage). */
  autoscalerMaxUnreadyShare: 0.45,
  /** terminationGracePeriodSeconds when a pod sets none. */
  defaultTerminationGrace: 30,
  /** Assumed, not sourced: how long a node upgrade takes to bring up the fresh node once the old one is drained. */
  assumedNodeReplace: 120,
  /** Assumed, not sourced: how long a machine takes to reboot. */
  assumedReboot: 120,
  /** Assumed, not sourced: schedule a pod, start it from a cached image and pass readiness. */
  assumedPodStart: 30,
  /** Assumed, not sourced: how long a surging container runs before its memory limit or the node's memory runs out. */
  assumedSurgeToMemoryLimit: 30,
  /** Assumed: a surge pushes the node into memory pressure, then the kubelet's 10 s housekeeping evicts. */
  assumedSurgeToEviction: 60,
} as const;
