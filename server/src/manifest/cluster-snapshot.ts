/* eslint-disable @typescript-eslint/no-explicit-any */

/** The key this product adds to a snapshot's List to say where it came from. */
export const SNAPSHOT_PROVENANCE_KEY = 'kubeResilience';

function isLiveObject(item: any): boolean {
  const metadata = item?.metadata;
  if (!metadata || typeof metadata !== 'object') return false;
  // The API server sets these on every object it stores; nobody writes them into a manifest by hand.
  return Boolean(metadata.uid || metadata.resourceVersion || metadata.creationTimestamp);
}

/**
 * Whether a document is a cluster snapshot (what `kube-resilience snapshot` or `kubectl get -o json`
 * writes: a List of live objects) rather than manifests someone edits and applies.
 */
export function isClusterSnapshot(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const list = value as Record<string, any>;
  if (typeof list.kind !== 'string' || !list.kind.endsWith('List') || !Array.isArray(list.items)) return false;
  if (list[SNAPSHOT_PROVENANCE_KEY] && typeof list[SNAPSHOT_PROVENANCE_KEY] === 'object') return true;
  return list.items.length > 0 && list.items.every(isLiveObject);
}
