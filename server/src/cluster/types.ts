import type { Resource } from '../manifest/parse';
import type { Topology } from './topology';

/** A resource type that could not be read, and why (forbidden, timed out, …). */
export interface MissingResource {
  resource: string;
  reason: string;
}

/** List items that were not objects (null, a number…): left out, and counted so that someone is told. */
export interface SkippedItems {
  resource: string;
  count: number;
}

/** Everything the engine knows about one cluster: read live, loaded from a snapshot, or the embedded demo. */
export interface ClusterInfo {
  source: 'live' | 'snapshot' | 'demo';
  /** The kubeconfig context, the snapshot's path, or "demo". */
  name: string;
  resources: Resource[];
  missing: MissingResource[];
  /** Items of a live list that were not objects and were left out. */
  skipped?: SkippedItems[];
  topology: Topology;
  /** When it was read (milliseconds since the epoch): a live read's end, a snapshot's own time; unknown for a kubectl List. */
  readAt?: number;
}
