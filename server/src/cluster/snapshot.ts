/* eslint-disable @typescript-eslint/no-explicit-any */
import { parseYamlValue } from '../manifest/yaml-value';
import { SNAPSHOT_PROVENANCE_KEY as PROVENANCE_KEY } from '../manifest/cluster-snapshot';
import { resourceFromObject } from '../manifest/parse';
import { describeFileError, readRegularFileBounded } from '../files/read-bounded';
import { decodeManifest } from '../inventory/manifest-files';
import { ClusterError } from './errors';
import { DEFAULT_READ_LIMITS, heapOverLimit } from './read-limits';
import { slimObject } from './slim';
import { detectTopology } from './topology-detect';
import type { ClusterInfo, MissingResource } from './types';

/** What this product adds to a `kubectl get -o json` List: where it came from and what could not be read. */
export interface SnapshotProvenance {
  context: string;
  server?: string;
  takenAt: string;
  missing: MissingResource[];
}

/**
 * A cluster as a Kubernetes `v1` `List`, in pieces, so that 150,000 pods never need to become one
 * string.
 */
export function* snapshotChunks(cluster: ClusterInfo, provenance: SnapshotProvenance): Generator<string> {
  yield `{\n  "apiVersion": "v1",\n  "kind": "List",\n  "metadata": {"resourceVersion": ""},\n  "${PROVENANCE_KEY}": ${JSON.stringify(provenance)},\n  "items": [`;
  let batch: string[] = [];
  for (let index = 0; index < cluster.resources.length; index++) {
    batch.push(`${index ? ',' : ''}\n    ${JSON.stringify(cluster.resources[index].object)}`);
    if (batch.length >= 500) {
      yield batch.join('');
      batch = [];
    }
  }
  if (batch.length) yield batch.join('');
  yield '\n  ]\n}\n';
}

/** How many items are made resources between two looks at the heap. */
const HEAP_CHECK_EVERY = 10_000;

/** Near the longest string V8 makes: a larger snapshot could not be parsed anyway. */
const MAX_SNAPSHOT_BYTES = 512 * 1024 * 1024;

function parseText(text: string, path: string): any {
  const trimmed = text.trimStart();
  if (!trimmed) throw new ClusterError('snapshot', `snapshot ${path} is empty`);
  try {
    return trimmed.startsWith('{') ? JSON.parse(text) : parseYamlValue(text, { maxAliasCount: 100 });
  } catch (error) {
    // The reader recurses once a level: a file nested tens of thousands deep exhausts the stack.
    if (error instanceof RangeError || /Maximum call stack size exceeded/.test((error as Error).message)) throw new ClusterError('snapshot', `snapshot ${path} is nested too deeply to read (tens of thousands of levels): no cluster writes that`);
    throw new ClusterError('snapshot', `snapshot ${path} is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** A cluster from a snapshot file: our own, or what `kubectl get … -A -o json` printed. */
export function loadSnapshot(path: string): ClusterInfo {
  let text: string;
  try {
    // With a byte-order mark (UTF-8, or UTF-16 as PowerShell's `kubectl get -o json > x.json` writes), read as manifests are.
    text = decodeManifest(readRegularFileBounded(path, MAX_SNAPSHOT_BYTES)).text;
  } catch (error) {
    throw new ClusterError('snapshot', `cannot read snapshot ${path}: ${describeFileError(error)}`);
  }
  return snapshotFromValue(parseText(text, path), path);
}

/** The items, with those of a List among them in its place (two `kubectl get -o json` Lists joined), a few levels deep. */
function flattenedLists(items: unknown[], depth = 0): unknown[] {
  return items.flatMap((item: any) =>
    depth < 4 && item && typeof item === 'object' && typeof item.kind === 'string' && item.kind.endsWith('List') && Array.isArray(item.items) ? flattenedLists(item.items, depth + 1) : [item],
  );
}

export function snapshotFromValue(value: any, name: string): ClusterInfo {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ClusterError('snapshot', `snapshot ${name} is not a Kubernetes List object`);
  if (typeof value.kind === 'string' && !value.kind.endsWith('List')) {
    throw new ClusterError('snapshot', `snapshot ${name} is a ${value.kind}, not a List (make one with "kube-resilience snapshot" or "kubectl get … -A -o json")`);
  }
  const items: unknown = value.items;
  if (!Array.isArray(items)) {
    throw new ClusterError('snapshot', `snapshot ${name} has no "items" array (expected a v1 List, as "kubectl get … -o json" prints)`);
  }
  const all = flattenedLists(items);
  // Bounded as a live read is: by objects, and by what the process may hold while they are made resources.
  const { maxObjects, maxHeapBytes } = DEFAULT_READ_LIMITS;
  if (all.length > maxObjects) throw new ClusterError('snapshot', `snapshot ${name} holds ${all.length.toLocaleString('en')} objects, more than the ${maxObjects.toLocaleString('en')} a cluster read takes (no cluster Kubernetes supports holds that many)`);
  const resources = all.map((item, index) => {
    const full = index % HEAP_CHECK_EVERY === 0 ? heapOverLimit(maxHeapBytes) : undefined;
    if (full) throw new ClusterError('snapshot', `snapshot ${name} is too large to load: ${full}`);
    const resource = item && typeof item === 'object' ? resourceFromObject(slimObject(item)) : undefined;
    if (!resource) throw new ClusterError('snapshot', `snapshot ${name}: item ${index} has no apiVersion and kind (kubectl prints both on every item)`);
    return resource;
  });
  const provenance = value[PROVENANCE_KEY] as Partial<SnapshotProvenance> | undefined;
  const missing = Array.isArray(provenance?.missing) ? provenance.missing.filter((m): m is MissingResource => typeof m?.resource === 'string' && typeof m.reason === 'string') : [];
  // Ours remember the context they were taken from, which names the cluster better than a file path.
  const clusterName = typeof provenance?.context === 'string' && provenance.context ? provenance.context : name;
  const readAt = typeof provenance?.takenAt === 'string' ? Date.parse(provenance.takenAt) : NaN;
  return { source: 'snapshot', name: clusterName, resources, missing, topology: detectTopology(resources), ...(Number.isFinite(readAt) ? { readAt } : {}) };
}
