/**
 * The simulator's contract: `simulate(topology, workloads, scenario) → timeline`.
 * The JSON the CLI prints and the webview draws is exactly `SimulationResult`.
 */

export type State = 'ok' | 'degraded' | 'down';

export type Subject =
  | { type: 'component'; name: ComponentName }
  | { type: 'node'; name: string }
  | { type: 'workload'; name: string; namespace: string; kind?: string };

/** The cluster functions the timeline has a row for. */
export type ComponentName = 'api' | 'scheduling' | 'controllers' | 'autoscaling' | 'dns' | 'service-routing' | 'kubectl' | 'etcd';

export interface TimelineEvent {
  /** Seconds from the start of the outage. */
  at: number;
  subject: Subject;
  state: State;
  /** What happens and why, in words a person can check. */
  reason: string;
  /** The fact it rests on: a rule of SIMULATION.md with its source ("rule 6: endpoints are frozen — facts/control-plane.md §2"). */
  fact: string;
}

export interface CapacityPoint {
  at: number;
  ready: number;
  desired: number;
  /** Share (0–1) of new connections sent to endpoints a Service lists that do not serve (dead, crash-looping, not ready). */
  blackholed: number;
  /** Traffic relative to what the running pods are sized for, when above 1 (a surge the frozen HPA cannot follow). */
  load?: number;
}

export interface WorkloadResult {
  kind: string;
  name: string;
  namespace: string;
  /** Whether placement came from the live cluster or was assumed by a deterministic spread. */
  placement: 'observed' | 'assumed';
  capacity: CapacityPoint[];
  /**
   * Its pods a drain or scale-down evicted: when each stopped (null: never, as one on a node whose kubelet does not
   * come back), when its replacement served (null: not within the simulated time), whether declared in-memory sessions were cut.
   */
  evictions?: { node: string; at: number; stopped: number | null; replacementReady: number | null; sessionsCut: boolean }[];
}

export interface ComponentResult {
  name: ComponentName;
  states: { at: number; state: State }[];
}

export type ScenarioEvent =
  | { kind: 'node-reboot'; node: string; at: number }
  | { kind: 'node-lost'; node: string; at: number }
  | { kind: 'pod-crash'; namespace: string; workload: string; mode: 'restartable' | 'permanent'; at: number }
  | { kind: 'traffic-surge'; namespace: string; workload: string; factor: number; at: number }
  | { kind: 'coredns-restart'; at: number }
  | { kind: 'kube-proxy-restart'; node: string; at: number }
  /** `kubectl drain NODE` at `at`. */
  | { kind: 'drain'; node: string; at: number }
  /** The cluster autoscaler scales NODE down at `at` (it has found the node unneeded). */
  | { kind: 'scale-down'; node: string; at: number }
  /** A rolling upgrade of every worker from `at`: drained one at a time, each replaced by a fresh node. */
  | { kind: 'upgrade-nodes'; at: number };

export type Failure =
  /** Nothing fails in the control plane: the scenario is its events (drains, scale-downs, upgrades …). */
  | { kind: 'none' }
  | { kind: 'apiserver' }
  | { kind: 'etcd' }
  | { kind: 'scheduler' }
  | { kind: 'controller-manager' }
  | { kind: 'nodes'; nodes: string[] };

export interface Scenario {
  fail: Failure;
  /** Outage length in seconds (with nothing failing: how long the scenario is watched). */
  duration: number;
  /** What-if: simulate as if the cluster had this many control-plane nodes. */
  controlPlanes?: number;
  events: ScenarioEvent[];
}

export interface SimulationResult {
  version: 1;
  scenario: Scenario;
  /** Ordered by `at`. */
  timeline: TimelineEvent[];
  workloads: WorkloadResult[];
  components: ComponentResult[];
  /** What the model could not know and assumed (placement, managed control plane, …). */
  assumptions: string[];
  /** The last second simulated (the outage's end plus time to show recovery). */
  end?: number;
  /** The first impacts, in plain words ("at 10 m shop/api goes down: …"). */
  summary?: string[];
  /** Every node the scenario drains, scales down or upgrades, and what emptying it took. */
  drains?: DrainResult[];
}

export interface DrainResult {
  node: string;
  by: 'kubectl' | 'autoscaler';
  start: number;
  /** When the node is empty (every evicted pod terminated); null when it never is within the simulated time. */
  end: number | null;
  /** Why the node stays (the autoscaler does not pick it, or gives up; kubectl refuses to start). */
  notRemovedBecause: string | null;
  /** Evictions a PodDisruptionBudget refused, per workload, and for how long (to: null while still refused at the end). */
  blocked: { workload: string; pdb: string; from: number; to: number | null; untilReady: boolean }[];
  evicted: { workload: string; at: number }[];
}
