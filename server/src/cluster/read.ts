/* eslint-disable @typescript-eslint/no-explicit-any */
import { apiGet, ApiGetError, type GetOptions } from './api-get';
import type { ApiConnection } from './connection';
import { slimObject } from './slim';
import type { MissingResource } from './types';

/** One kind of object read from the API server: a list (all namespaces or one) or a single object. */
export interface ResourceType {
  /** How it is named in `missing` and in messages: the kubectl resource name. */
  name: string;
  apiVersion: string;
  kind: string;
  path: string;
  single?: boolean;
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
  { name: 'services', apiVersion: 'v1', kind: 'Service', path: '/api/v1/services' },
  { name: 'endpointslices', apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', path: '/apis/discovery.k8s.io/v1/endpointslices' },
  { name: 'leases (kube-system)', apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', path: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases' },
  { name: 'configmap kube-system/kubeadm-config', apiVersion: 'v1', kind: 'ConfigMap', path: '/api/v1/namespaces/kube-system/configmaps/kubeadm-config', single: true },
  { name: 'configmap kube-system/coredns', apiVersion: 'v1', kind: 'ConfigMap', path: '/api/v1/namespaces/kube-system/configmaps/coredns', single: true },
];

export interface ReadOptions extends GetOptions {
  /** Items per page of a list. */
  pageSize?: number;
  /** Resource types read at the same time. */
  concurrency?: number;
  types?: readonly ResourceType[];
}

export interface ReadResult {
  objects: any[];
  missing: MissingResource[];
  /** Resource types that answered (a missing single ConfigMap counts as answered). */
  answered: number;
}

/** Reads every resource type, a few at a time; a type that fails is recorded in `missing` and the rest still count. */
export async function readCluster(connection: ApiConnection, options: ReadOptions): Promise<ReadResult> {
  const types = options.types ?? RESOURCE_TYPES;
  const perType: any[][] = types.map(() => []);
  const missing: (MissingResource | undefined)[] = types.map(() => undefined);
  let next = 0;
  const worker = async () => {
    while (next < types.length) {
      const index = next++;
      const type = types[index];
      if (options.signal?.aborted) return;
      try {
        perType[index] = await readType(connection, type, options);
      } catch (error) {
        perType[index] = [];
        missing[index] = { resource: type.name, reason: error instanceof ApiGetError ? error.reason : (error as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, types.length)) }, worker));
  const found = missing.filter((m): m is MissingResource => !!m);
  return { objects: perType.flat(), missing: found, answered: types.length - found.length };
}

async function readType(connection: ApiConnection, type: ResourceType, options: ReadOptions): Promise<any[]> {
  if (type.single) {
    try {
      return [withKind(await getWithRetry(connection, type.path, options), type)];
    } catch (error) {
      // Absent is an answer: a cluster not made by kubeadm has no kubeadm-config.
      if (error instanceof ApiGetError && error.status === 404) return [];
      throw error;
    }
  }
  let objects: any[] = [];
  const limit = options.pageSize ?? 500;
  let token = '';
  let restarted = false;
  for (;;) {
    const query = `?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    let page: any;
    try {
      page = await getWithRetry(connection, type.path + query, options);
    } catch (error) {
      // 410 Gone: the continue token outlived etcd's compaction while a large list was paged; start over once.
      if (error instanceof ApiGetError && error.status === 410 && token && !restarted) {
        restarted = true;
        objects = [];
        token = '';
        continue;
      }
      throw error;
    }
    if (!page || !Array.isArray(page.items)) throw new ApiGetError(undefined, `the answer is not a ${type.kind} list`);
    for (const item of page.items) objects.push(withKind(item, type));
    token = typeof page.metadata?.continue === 'string' ? page.metadata.continue : '';
    if (!token) return objects;
  }
}

const MAX_RETRIES = 3;
const MAX_RETRY_WAIT_SECONDS = 5;

/** A busy API server answers 429 with Retry-After (API priority and fairness): wait as told, a few times. */
async function getWithRetry(connection: ApiConnection, path: string, options: ReadOptions): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiGet(connection, path, options);
    } catch (error) {
      if (!(error instanceof ApiGetError) || error.status !== 429 || attempt >= MAX_RETRIES || options.signal?.aborted) throw error;
      const seconds = Math.min(MAX_RETRY_WAIT_SECONDS, Math.max(0.1, error.retryAfterSeconds ?? 1));
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

/** List items come without apiVersion and kind; a snapshot's items carry them, as `kubectl get -o json` prints. */
function withKind(object: any, type: ResourceType): any {
  if (!object || typeof object !== 'object') return object;
  const { apiVersion, kind, ...rest } = object;
  return slimObject({ apiVersion: apiVersion ?? type.apiVersion, kind: kind ?? type.kind, ...rest });
}
