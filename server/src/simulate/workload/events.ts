import type { Slot } from '../capacity-state';
import type { ControlPlaneSegment } from '../control-plane';
import type { DrainPlan } from '../drain/plan';
import type { NodeIncident } from '../node-incidents';

/** What can happen to one workload's replicas; each kind has a handler of its own (handlers/). */
export type WorkloadEvent =
  /** A node stops (failed with the control plane, rebooted, lost): every replica on it is gone. */
  | { kind: 'node-down'; incident: NodeIncident }
  /** The node's kubelet runs the replica again after the node came back. */
  | { kind: 'pods-back'; slot: Slot; generation: number; incident: NodeIncident }
  | { kind: 'pod-crash'; mode: 'restartable' | 'permanent' }
  /** A container restarted in place is up again (the end of its back-off and start). */
  | { kind: 'container-restarted'; slot: Slot; generation: number; repeat: boolean; /** What awaits it once back. */ next?: string }
  /** The scheduler looks for a node for a replacement pod: it binds it there, or the pod stays Pending. */
  | { kind: 'replacement-scheduled'; slot: Slot; generation: number; why: string }
  /** A replacement pod bound to its node has started: it serves, or starts crash-looping. */
  | { kind: 'replacement-ready'; slot: Slot; generation: number; why: string }
  /** CoreDNS restarts (the cluster's DNS workload only). */
  | { kind: 'coredns-restart' }
  /** A CoreDNS replica restarted while the API was down has synced with it again. */
  | { kind: 'coredns-synced'; slot: Slot; generation: number }
  | { kind: 'traffic-surge'; factor: number }
  /** A surging container reaches its memory limit. */
  | { kind: 'oom-kill'; slot: Slot; generation: number; first: boolean }
  /** The HPA's new pods join. */
  | { kind: 'scale-out'; to: number; demand: number; why: string; fact: string }
  /** The control plane changes in a way that touches the workload without touching its pods. */
  | { kind: 'control-plane-change'; segment: ControlPlaneSegment; previous: { writes: boolean; controllers: boolean; scheduling: boolean } }
  /** A drain cordons the workload's node: its pods there are to be evicted. */
  | { kind: 'drain-start'; drain: DrainPlan }
  /** The cluster autoscaler deletes the node it emptied: the pods no drain evicts (a DaemonSet's) go with it. */
  | { kind: 'node-removed'; drain: DrainPlan }
  /** A drain asks the eviction API to evict the replica (first try or a retry). */
  | { kind: 'eviction-attempt'; slot: Slot; generation: number; drain: DrainPlan; firstTry: number }
  /** The PDB let the eviction through: the pod terminates and its controller replaces it. */
  | { kind: 'eviction'; slot: Slot; drain: DrainPlan }
  /** The PDB (or the API being down) refused the eviction: the drain retries. */
  | { kind: 'eviction-refused'; slot: Slot; generation: number; drain: DrainPlan; firstTry: number; why: string; pdb?: string; untilReady?: boolean };
