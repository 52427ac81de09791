/** The simulator's inputs: what the cluster looks like and what runs on it. */

import type { PdbBudget } from '../manifest/pdb';
import type { NodeLossTaint } from '../manifest/scheduling';
import type { StartBudget } from './restart-readiness';

export interface SimTaint {
  key: string;
  value?: string;
  effect: string;
}

export interface SimNode {
  name: string;
  controlPlane: boolean;
  zone?: string;
  labels: Record<string, string>;
  taints: SimTaint[];
  /** Allocatable resources when known (cpu in cores, memory in bytes, GPUs). */
  capacity?: { cpu?: number; memory?: number; gpu?: number };
}

export interface SimTopology {
  /** Every node, control-plane nodes included. */
  nodes: SimNode[];
  etcd: {
    /** stacked: one member on each control-plane node; external: `members` hosts of their own. */
    mode: 'stacked' | 'external';
    members: number;
  };
  /** Set when the provider runs the control plane: the simulation is then a what-if only. */
  managed?: string;
  /** The node each CoreDNS replica runs on (one entry per replica). */
  coreDnsNodes: string[];
  /**
   * Why cluster DNS has no replica anywhere, when its workloads are known and run none (`replicas: 0`, or pods no
   * node can run): no cluster name is answered at all.
   */
  clusterDnsWithoutReplicas?: string;
  nodeLocalDns: boolean;
  /** The node controller's grace period for a silent node (seconds), where the cluster tells it (else TIMING's default). */
  nodeMonitorGrace?: number;
  /** The control-plane nodes whose scheduler and controller manager hold the leader leases, where known. */
  leaders?: { scheduler?: string; controllerManager?: string };
  /** What the builder could not know and assumed. */
  assumptions: string[];
  /** Control-plane nodes whose API server was not serving when the cluster was read: down from the start. */
  apiServersDown?: string[];
  /** Nodes NotReady when the cluster was read: tainted by the node controller, they take no new pods until an incident brings them back. */
  notReadyNodes?: string[];
  /** How long (seconds) each of those had carried the node controller's NoExecute taint when read, where its time is known. */
  notReadyTaintedFor?: Record<string, number>;
  /** Those of them whose kubelet reported NotReady (tainted not-ready); the others stopped reporting (tainted unreachable). */
  notReadyReported?: string[];
}

export type SimWorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'ReplicaSet' | 'ReplicationController' | 'Job' | 'CronJob' | 'Pod';

export interface SimWorkload {
  kind: SimWorkloadKind | string;
  namespace: string;
  name: string;
  /** Desired replicas (a DaemonSet: the nodes it runs on; a CronJob: 0, it has no pods between runs). */
  replicas: number;
  /** Pods per node. */
  placement: Record<string, number>;
  /** Its pods that were not serving when the cluster was read, each counted in `placement`. */
  notServing?: NotServing[];
  placementSource: 'observed' | 'assumed';
  probes: { liveness: boolean; readiness: boolean; startup: boolean };
  /** Seconds a new pod needs before it serves, when the workload declares it (kube-resilience/startup-seconds). */
  startSeconds?: number;
  /**
   * How long its pods stay on a node the node controller tainted before they are evicted, by taint, where its pod
   * template says (null: for ever); otherwise the default toleration admission gives every pod.
   */
  nodeLossToleration?: Partial<Record<NodeLossTaint, number | null>>;
  /** What its startup or liveness probe allows a (re)started container before killing it; unset when no probe kills during a start. */
  startBudget?: StartBudget;
  /** Its autoscaler's bounds; `keda` for a KEDA ScaledObject, whose operator (not the HPA it makes) scales it up from none. */
  hpa?: { min: number; max: number; keda?: boolean };
  pdb: boolean;
  /** Whether every container sets a memory limit, or the pod one for them all (OOM-kill in place rather than node pressure). */
  memoryLimit: boolean;
  /** Why it talks to the API itself (controller, operator, ingress controller …), when it does. */
  apiClient?: string;
  /** An ingress controller keeps serving its last configuration. */
  ingressController?: boolean;
  /** A Service selects its pods, so frozen endpoints can blackhole its traffic. */
  fronted: boolean;
  /** Its pods use their node's network (hostNetwork): one restarted on the same node keeps its IP, the node's. */
  hostNetwork?: boolean;
  /** Host ports its pods take on their node: no node runs two of its pods (the scheduler's NodePorts filter). */
  hostPorts?: number[];
  /** Required pod anti-affinity among its own pods: at most one of them per node, or per zone. */
  antiAffinity?: ('node' | 'zone')[];
  /** Its topology spread constraints that refuse to schedule (`whenUnsatisfiable: DoNotSchedule`) past their skew. */
  hardSpread?: { domain: 'node' | 'zone'; maxSkew: number }[];
  /** Its pods' restartPolicy is Never: a container that stops fails its pod, which the kubelet does not restart. */
  restartNever?: boolean;
  /** A static pod: the kubelet runs it from disk, also after a reboot. */
  staticPod?: boolean;
  /** Its pods are the cluster's DNS (CoreDNS, `k8s-app: kube-dns`): a drain that evicts them is felt by the DNS component. */
  clusterDns?: boolean;
  /** CronJob schedule. */
  schedule?: string;
  /** Why a CronJob starts no run, outage or not (suspended, or a schedule that matches no date). */
  neverRuns?: string;
  /** terminationGracePeriodSeconds of its pods, when set (30 s otherwise). */
  terminationGrace?: number;
  /** Whether killing a pod loses user sessions (kube-resilience/sessions). */
  sessions?: 'in-memory' | 'external';
  /** How long one session lasts (kube-resilience/session-seconds). */
  sessionSeconds?: number;
  /**
   * The PodDisruptionBudget that guards its pods and its budget; `others`, the further budgets that select
   * its pods too (then the eviction API refuses every eviction of them).
   */
  disruptionBudget?: { pdb: string; budget: PdbBudget; others?: string[]; /** unhealthyPodEvictionPolicy: AlwaysAllow: a pod not ready may always go. */ alwaysAllowUnhealthy?: true };
  /** The budgets over some of its pods only, those they pick out of a StatefulSet by name or index (see PodBudget). */
  podBudgets?: PodBudget[];
  /** The names of its pods on each node, in the order of its placement there: set where podBudgets pick some of them out. */
  podNames?: Record<string, string[]>;
  /** cluster-autoscaler.kubernetes.io/safe-to-evict on its pods, when written. */
  safeToEvict?: boolean;
  /** Its pods mount emptyDir or hostPath volumes (local storage the autoscaler will not throw away). */
  localStorage?: boolean;
  /** Nodes a replacement pod may be scheduled to (taints, node selectors); all workers when unset. */
  eligibleNodes?: string[];
}

/**
 * A PodDisruptionBudget over some pods of a StatefulSet only (`statefulset.kubernetes.io/pod-name: web-0`): the pods it
 * selects, by name. The disruption controller counts its healthy pods among those, and its budget as it counts any
 * (see desiredHealthy): a whole-number minAvailable against them, maxUnavailable and percentages against the replicas.
 */
export interface PodBudget {
  pdb: string;
  budget: PdbBudget;
  pods: string[];
  /** unhealthyPodEvictionPolicy: AlwaysAllow: a pod not ready may always go. */
  alwaysAllowUnhealthy?: true;
}

/**
 * A pod that did not serve when the cluster was read: on a NotReady node, with its Ready condition False, or
 * already stopping (deleted, in its grace period: its controller does not replace it, but a StatefulSet short of
 * replicas makes it again once it is gone).
 */
export interface NotServing {
  pod: string;
  node: string;
  why: 'node-not-ready' | 'not-ready' | 'stopping';
  /** Stopping on a NotReady node: no kubelet confirms its end, so it stays until the node is back. */
  stuck?: boolean;
  /** Not read so: the node controller evicted it at this moment of the simulation, and left it Terminating on its node. */
  evictedAt?: number;
}

export function workloadKey(w: { namespace: string; name: string }): string {
  return `${w.namespace}/${w.name}`;
}

export function controlPlaneNodes(topology: SimTopology): SimNode[] {
  return topology.nodes.filter((n) => n.controlPlane);
}
