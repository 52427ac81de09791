import type { ClusterInfo } from './types';
import { UsageError } from '../commands/usage-error';
import { resourceFromObject, type Resource } from '../manifest/parse';
import { connectionFor, DEFAULT_CONNECT_TIMEOUT_MS } from './connection';
import { demoCluster } from './demo';
import { ClusterError } from './errors';
import { resolveKubeconfig } from './kubeconfig';
import { readCluster, RESOURCE_TYPES, type ResourceType } from './read';
import type { ReadLimits } from './read-limits';
import { redactUrl } from './redact-url';
import { loadSnapshot } from './snapshot';
import { detectTopology } from './topology-detect';
import { DEFAULT_EXEC_TIMEOUT_MS } from './exec-credential';

export interface ClusterRequest {
  context?: string;
  kubeconfig?: string;
  snapshot?: string;
  demo?: boolean;
  /** The kubeconfig path the client learned from the Kubernetes extension (weaker than `kubeconfig`). */
  handedOverKubeconfig?: string;
  /** Exec credential plugins run only when true. */
  trusted?: boolean;
  extraPath?: string[];
  signal?: AbortSignal;
  connectTimeoutMs?: number;
  /** One deadline for the whole read of a live cluster (every type, page and retry). */
  timeoutMs?: number;
  /** Caps on what a read may receive; tests lower them. */
  limits?: Partial<Omit<ReadLimits, 'timeoutMs'>>;
  execTimeoutMs?: number;
  pageSize?: number;
  concurrency?: number;
  types?: readonly ResourceType[];
  env?: NodeJS.ProcessEnv;
}


/** The cluster a request names: a snapshot, the demo, or the live cluster of a kubeconfig context. */
export async function loadCluster(request: ClusterRequest): Promise<ClusterInfo> {
  if (request.snapshot) return loadSnapshot(request.snapshot);
  if (request.demo) return demoCluster();
  return readLiveCluster(request);
}

/** Reads the live cluster with GET requests only; a resource type that fails is listed in `missing`. */
export async function readLiveCluster(request: ClusterRequest): Promise<ClusterInfo & { server: string }> {
  const started = Date.now();
  const resolved = resolveKubeconfig({ explicit: request.kubeconfig, handedOver: request.handedOverKubeconfig, context: request.context, env: request.env });
  // The deadline of the whole read covers the credential plugin too (one that hangs held `--timeout 5` for 30 s).
  const execTimeoutMs = Math.min(request.execTimeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS, request.timeoutMs ?? Infinity);
  const connection = await connectionFor(resolved, {
    trusted: request.trusted ?? false,
    extraPath: request.extraPath,
    timeoutMs: execTimeoutMs,
    signal: request.signal,
    env: request.env,
    maxSockets: request.concurrency ?? 4,
    // A proxy's tunnel request is out of the deadline's reach once sent: it gives up by the deadline on its own.
    connectTimeoutMs: Math.min(request.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, request.timeoutMs ?? Infinity),
  });
  try {
    const result = await readCluster(connection, {
      connectTimeoutMs: request.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      limits: { ...request.limits, ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}) },
      spentMs: Date.now() - started,
      signal: request.signal,
      pageSize: request.pageSize,
      concurrency: request.concurrency,
      types: request.types,
    });
    if (request.signal?.aborted) throw new ClusterError('cancelled', 'reading the cluster was cancelled');
    const server = redactUrl(resolved.cluster.server);
    // A cluster where no list could be read is no cluster read: a server answering 404 to everything read as empty.
    if (result.answered === 0 || (result.listsAnswered === 0 && (request.types ?? RESOURCE_TYPES).some((type) => !type.single))) {
      const reason = result.missing[0]?.reason ?? 'no answer';
      throw new ClusterError('unreachable', `cannot read cluster "${resolved.context.cluster}" at ${server} (context "${resolved.context.name}"): ${reason}`, {
        context: resolved.context.name,
        cause: reason,
      });
    }
    const resources = result.objects.map((o) => resourceFromObject(o)).filter((r): r is Resource => !!r);
    return {
      source: 'live',
      name: resolved.context.name,
      server,
      resources,
      missing: result.missing,
      ...(result.skipped.length ? { skipped: result.skipped } : {}),
      topology: detectTopology(resources),
      readAt: Date.now(),
    };
  } finally {
    connection.agent.destroy();
  }
}

export interface EditorCluster {
  cluster: ClusterInfo | undefined;
  /** Set when the demo cluster stands in for a kubeconfig that is not there: a sentence saying so. */
  fallback?: string;
}

/** The cluster an editor shows: the live one, the demo when asked or when there is no kubeconfig at all, or none. */
export async function loadClusterForEditor(request: ClusterRequest & { mode: 'auto' | 'demo' | 'off' }): Promise<EditorCluster> {
  if (request.mode === 'off') return { cluster: undefined };
  if (request.mode === 'demo') return { cluster: demoCluster() };
  try {
    return { cluster: await readLiveCluster(request) };
  } catch (error) {
    if (error instanceof ClusterError && error.kind === 'no-kubeconfig') return { cluster: demoCluster(), fallback: `Showing the embedded demo cluster: ${error.message}.` };
    throw error;
  }
}

/** Reads the cluster a CLI invocation names; what cannot be read is a usage error (exit 2) with the reason. */
export async function loadClusterForCli(request: ClusterRequest): Promise<ClusterInfo> {
  try {
    // Whoever runs the CLI already chose to run what their kubeconfig names.
    return await loadCluster({ trusted: true, ...request });
  } catch (error) {
    if (error instanceof ClusterError) throw new UsageError(error.message);
    throw error;
  }
}
