/* eslint-disable @typescript-eslint/no-explicit-any */
import { createHash } from 'node:crypto';
import { apiGet, ApiGetError } from './api-get';
import type { ApiConnection } from './connection';
import { ByteBudget, DEFAULT_READ_LIMITS, heapOverLimit, ObjectBudget, ReadDeadline, waitOrAbort, type ReadLimits } from './read-limits';
import { printable } from '../printable';
import { slimObject } from './slim';
import { withArticle } from '../words';
import type { MissingResource, SkippedItems } from './types';
import { isObject } from '../is-object';

/** One kind of object read from the API server: a list (all namespaces or one) or a single object. */
export interface ResourceType {
  /** How it is named in `missing` and in messages: the kubectl resource name. */
  name: string;
  apiVersion: string;
  kind: string;
  path: string;
  single?: boolean;
  /** A list of a custom resource, served only where its CRD is installed: a 404 says there is none, and is no failed read. */
  optional?: boolean;
}

/**
 * What is read, and nothing else. Never Secrets: nothing here needs them, and a read-only advisor
 * should not be able to leak them.
 */
export const RESOURCE_TYPES: readonly ResourceType[] = [
  { name: 'nodes', apiVersion: 'v1', kind: 'Node', path: '/api/v1/nodes' },
  { name: 'pods', apiVersion: 'v1', kind: 'Pod', path: '/api/v1/pods' },
  { name: 'deployments', apiVersion: 'apps/v1', kind: 'Deployment', path: '/apis/apps/v1/deployments' },
  { name: 'statefulsets', apiVersion: 'apps/v1', kind: 'StatefulSet', path: '/apis/apps/v1/statefulsets' },
  { name: 'daemonsets', apiVersion: 'apps/v1', kind: 'DaemonSet', path: '/apis/apps/v1/daemonsets' },
  { name: 'replicasets', apiVersion: 'apps/v1', kind: 'ReplicaSet', path: '/apis/apps/v1/replicasets' },
  { name: 'jobs', apiVersion: 'batch/v1', kind: 'Job', path: '/apis/batch/v1/jobs' },
  { name: 'cronjobs', apiVersion: 'batch/v1', kind: 'CronJob', path: '/apis/batch/v1/cronjobs' },
  { name: 'poddisruptionbudgets', apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', path: '/apis/policy/v1/poddisruptionbudgets' },
  { name: 'horizontalpodautoscalers', apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', path: '/apis/autoscaling/v2/horizontalpodautoscalers' },
  { name: 'scaledobjects', apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', path: '/apis/keda.sh/v1alpha1/scaledobjects', optional: true },
  { name: 'services', apiVersion: 'v1', kind: 'Service', path: '/api/v1/services' },
  { name: 'endpointslices', apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', path: '/apis/discovery.k8s.io/v1/endpointslices' },
  { name: 'limitranges', apiVersion: 'v1', kind: 'LimitRange', path: '/api/v1/limitranges' },
  { name: 'leases (kube-system)', apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', path: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases' },
  { name: 'configmap kube-system/kubeadm-config', apiVersion: 'v1', kind: 'ConfigMap', path: '/api/v1/namespaces/kube-system/configmaps/kubeadm-config', single: true },
  { name: 'configmap kube-system/coredns', apiVersion: 'v1', kind: 'ConfigMap', path: '/api/v1/namespaces/kube-system/configmaps/coredns', single: true },
];

export interface ReadOptions {
  /** Time allowed to open the TCP/TLS connection of one request. */
  connectTimeoutMs: number;
  /** Cancels the read. */
  signal?: AbortSignal;
  limits?: Partial<ReadLimits>;
  /** Items per page of a list. */
  pageSize?: number;
  /** Resource types read at the same time. */
  concurrency?: number;
  types?: readonly ResourceType[];
  /** Time the read spent before its first request (a credential plugin), counted against its deadline. */
  spentMs?: number;
}

export interface ReadResult {
  objects: any[];
  missing: MissingResource[];
  /** Resource types that answered (a missing single ConfigMap counts as answered). */
  answered: number;
  /** Lists that answered (an optional one absent does not count): none means no Kubernetes API answered (a wrong URL, a proxy answering 404 to all). */
  listsAnswered: number;
  skipped: SkippedItems[];
}

interface TypeRead {
  connectTimeoutMs: number;
  signal: AbortSignal;
  limits: ReadLimits;
  budget: ByteBudget;
  objects: ObjectBudget;
  pageSize: number;
  /** Why no connection could be opened to the server, once one request found so: the types not read yet are not asked. */
  unreachable?: string;
}

/**
 * Reads every resource type, a few at a time, within one deadline for the whole read; a type that
 * fails (or is not reached by then) is recorded in `missing` and the rest still count.
 */
export async function readCluster(connection: ApiConnection, options: ReadOptions): Promise<ReadResult> {
  const types = options.types ?? RESOURCE_TYPES;
  const limits = { ...DEFAULT_READ_LIMITS, ...options.limits };
  const deadline = new ReadDeadline(limits.timeoutMs, options.signal, options.spentMs);
  const read: TypeRead = { connectTimeoutMs: options.connectTimeoutMs, signal: deadline.signal, limits, budget: new ByteBudget(limits.maxTotalBytes), objects: new ObjectBudget(limits.maxObjects), pageSize: options.pageSize ?? 500 };
  const perType: any[][] = types.map(() => []);
  const missing: (MissingResource | undefined)[] = types.map(() => undefined);
  const absent: boolean[] = types.map(() => false);
  const skipped: SkippedItems[] = [];
  let next = 0;
  const worker = async () => {
    while (next < types.length) {
      const index = next++;
      const type = types[index];
      if (options.signal?.aborted) return;
      try {
        if (deadline.signal.aborted) throw new ApiGetError(undefined, deadline.reason);
        // A server no request could connect to is not tried type by type: a stalled TLS handshake took four rounds
        // of the connect timeout (20 s, said to be 5 s).
        if (read.unreachable) throw new ApiGetError(undefined, read.unreachable);
        const { objects, notObjects, notServed } = await readType(connection, type, read);
        perType[index] = objects;
        absent[index] = !!notServed;
        if (notObjects) skipped.push({ resource: type.name, count: notObjects });
      } catch (error) {
        perType[index] = [];
        if (error instanceof ApiGetError && error.unreachable) read.unreachable ??= error.reason;
        missing[index] = { resource: type.name, reason: error instanceof ApiGetError ? error.reason : (error as Error).message };
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, types.length)) }, worker));
  } finally {
    deadline.dispose();
  }
  const found = missing.filter((m): m is MissingResource => !!m);
  const listsAnswered = types.filter((type, i) => !type.single && !missing[i] && !absent[i]).length;
  return { objects: perType.flat(), missing: found, answered: types.length - found.length, listsAnswered, skipped };
}

async function readType(connection: ApiConnection, type: ResourceType, read: TypeRead): Promise<{ objects: any[]; notObjects: number; notServed?: boolean }> {
  if (type.single) {
    try {
      const object = await getWithRetry(connection, type.path, read);
      if (!isObject(object)) return { objects: [], notObjects: 1 };
      // The API names what it answers with: anything else (a List, `{}`) is not the object asked for.
      if (object.kind !== type.kind) throw new ApiGetError(undefined, `the answer is not ${withArticle(type.kind)} (its kind: ${typeof object.kind === 'string' ? printable(object.kind).slice(0, 40) || 'empty' : 'none'})`);
      return { objects: [withKind(object, type)], notObjects: 0 };
    } catch (error) {
      // Absent is an answer: a cluster not made by kubeadm has no kubeadm-config.
      if (error instanceof ApiGetError && error.status === 404) return { objects: [], notObjects: 0 };
      throw error;
    }
  }
  let objects: any[] = [];
  let notObjects = 0;
  let token = '';
  let restarted = false;
  let pages = 0;
  /** Each continue token (its digest: a server may send megabytes a token, thousands of times), with the page that sent it. */
  const tokens = new Map<string, number>();
  try {
    for (;;) {
      if (++pages > read.limits.maxPages) throw new ApiGetError(undefined, `the list did not end after ${read.limits.maxPages} pages of ${read.pageSize}: the server's paging does not end`);
      let page: Page;
      try {
        page = await readPage(connection, type, token, read);
      } catch (error) {
        // 410 Gone: the continue token outlived etcd's compaction while a large list was paged; start over once.
        if (error instanceof ApiGetError && error.status === 410 && token && !restarted) {
          restarted = true;
          // The pages before are let go: counted again as they come again.
          read.objects.give(objects.length + notObjects);
          objects = [];
          notObjects = 0;
          token = '';
          pages = 0;
          tokens.clear();
          continue;
        }
        // A cluster without the CRD (no KEDA) has no such list to serve.
        if (error instanceof ApiGetError && error.status === 404 && type.optional && !token) return { objects: [], notObjects: 0, notServed: true };
        throw error;
      }
      for (const object of page.objects) objects.push(object);
      notObjects += page.notObjects;
      token = page.next;
      if (!token) return { objects, notObjects };
      const seen = createHash('sha256').update(token).digest('base64');
      const first = tokens.get(seen);
      if (first !== undefined) throw new ApiGetError(undefined, `the server sent the same continue token again (page ${pages}, as page ${first} did): its paging goes round in a circle`);
      tokens.set(seen, pages);
    }
  } catch (error) {
    // The type is missing then: its pages so far are let go, and so is their place under the read's cap.
    read.objects.give(objects.length + notObjects);
    throw error;
  }
}

interface Page {
  objects: any[];
  notObjects: number;
  /** The continue token, or '' on the last page. */
  next: string;
}

/** One page of a list, slimmed: the answer as parsed is let go as soon as this returns. */
async function readPage(connection: ApiConnection, type: ResourceType, token: string, read: TypeRead): Promise<Page> {
  const query = `?limit=${read.pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
  const page: any = await getWithRetry(connection, type.path + query, read);
  if (!isObject(page) || !Array.isArray(page.items)) throw new ApiGetError(undefined, `the answer is not ${withArticle(type.kind)} list`);
  // Counted before they are kept: an answer's items are the one thing a read holds on to.
  if (!read.objects.take(page.items.length)) throw new ApiGetError(undefined, `this answer would take the read past ${read.limits.maxObjects.toLocaleString('en')} objects (no cluster Kubernetes supports holds that many): the read stopped here`);
  const objects: any[] = [];
  let notObjects = 0;
  for (const item of page.items) {
    if (isObject(item)) objects.push(withKind(item, type));
    else notObjects++;
  }
  return { objects, notObjects, next: typeof page.metadata?.continue === 'string' ? page.metadata.continue : '' };
}

const MAX_RETRIES = 3;
const MAX_RETRY_WAIT_SECONDS = 5;

/** A busy API server answers 429 with Retry-After (API priority and fairness): wait as told, a few times, within the deadline. */
async function getWithRetry(connection: ApiConnection, path: string, read: TypeRead): Promise<unknown> {
  const options = { connectTimeoutMs: read.connectTimeoutMs, signal: read.signal, maxResponseBytes: read.limits.maxResponseBytes, budget: read.budget };
  for (let attempt = 0; ; attempt++) {
    const heapFull = heapOverLimit(read.limits.maxHeapBytes);
    if (heapFull) throw new ApiGetError(undefined, heapFull);
    try {
      return await apiGet(connection, path, options);
    } catch (error) {
      if (!(error instanceof ApiGetError) || error.status !== 429 || attempt >= MAX_RETRIES || read.signal.aborted) throw error;
      const seconds = Math.min(MAX_RETRY_WAIT_SECONDS, Math.max(0.1, error.retryAfterSeconds ?? 1));
      await waitOrAbort(seconds * 1000, read.signal);
    }
  }
}

/** List items come without apiVersion and kind; a snapshot's items carry them, as `kubectl get -o json` prints. */
function withKind(object: Record<string, any>, type: ResourceType): any {
  // What the list is of decides (an item saying `kind: pod` is still a pod, and is slimmed as one).
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  return slimObject({ apiVersion: type.apiVersion, kind: type.kind, ...rest });
}
