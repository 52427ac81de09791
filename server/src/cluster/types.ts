import type { Resource } from '../manifest/parse';
import type { Topology } from './topology';

/** A resource type that could not be read, and why (forbidden, timed out, …). */
export interface MissingResource {
  resource: string;
  reason: string;
}

/** Everything the engine knows about one cluster: read live, loaded from a snapshot, or the embedded demo. */
export interface ClusterInfo {
  source: 'live' | 'snapshot' | 'demo';
  /** The kubeconfig context, the snapshot's path, or "demo". */
  name: string;
  resources: Resource[];
  missing: MissingResource[];
  topology: Topology;
}
