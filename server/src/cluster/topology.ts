import type { NodeMonitorGrace } from './node-monitor-grace';

/** What the control plane of a cluster looks like, as far as a read-only client can tell. */
export interface Topology {
  /** Names of the control-plane nodes seen (empty for a managed control plane). */
  controlPlaneNodes: string[];
  /** How many API servers / control-plane instances there are; undefined when it cannot be told. */
  controlPlaneCount: number | undefined;
  etcd: {
    mode: 'stacked' | 'external' | 'managed' | 'unknown';
    members: number | undefined;
    endpoints?: string[];
  };
  /** Addresses in the default/kubernetes EndpointSlice (one per live API server). */
  apiServerEndpoints: string[];
  /** Set for a control plane the provider runs and hides. */
  managed?: 'GKE' | 'EKS' | 'AKS';
  distribution?: 'kubeadm' | 'k3s' | 'kind' | 'unknown';
  /** kubeadm's controlPlaneEndpoint, when kubeadm-config could be read. */
  controlPlaneEndpoint?: string;
  /** The controller manager's node-monitor grace period, where its flags or its version could be seen. */
  nodeMonitorGrace?: NodeMonitorGrace;
  /** The control-plane nodes whose scheduler and controller manager held the leader leases when read. */
  leaders?: { scheduler?: string; controllerManager?: string };
  /** How each number was found, for people. */
  evidence: string[];
}
