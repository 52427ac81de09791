/** A node being emptied: by `kubectl drain` (a person, a node upgrade) or by the cluster autoscaler's scale-down. */
export interface DrainPlan {
  node: string;
  by: 'kubectl' | 'autoscaler';
  /** When the node is cordoned and evictions start. */
  start: number;
  /** When the node takes new pods again (a failed scale-down uncordons it); Infinity when it never does. */
  uncordonAt: number;
  /** Why no pod is evicted at all (kubectl refuses a pod without a controller; the autoscaler does not pick the node). */
  halted?: string;
  /** The drain belongs to a rolling node upgrade. */
  upgrade?: boolean;
  /** When the cluster autoscaler deletes the node it emptied (its DaemonSet pods go with it); unset while unknown or never. */
  removedAt?: number;
}
