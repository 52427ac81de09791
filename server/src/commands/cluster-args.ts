import type { ClusterInfo } from '../cluster/types';
import type { Io } from './check';
import { UsageError } from './usage-error';
import { plural } from '../words';

/** The options every command that reads a cluster takes. */
export const CLUSTER_OPTIONS = {
  context: { type: 'string' },
  kubeconfig: { type: 'string' },
  snapshot: { type: 'string' },
  demo: { type: 'boolean', default: false },
  timeout: { type: 'string' },
} as const;

/** `--timeout SECONDS`: the deadline of the whole read of a live cluster. */
export function parseTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw new UsageError(`--timeout takes a number of seconds (at most a day), not "${String(value)}"`);
  // At least a millisecond: 0 would mean no deadline given, and the default of 60 s.
  return Math.max(1, Math.round(seconds * 1000));
}

/** --snapshot and --demo each replace the live cluster, so they combine with nothing else that names one. */
function checkExclusive(values: Record<string, unknown>): void {
  const live = values.context || values.kubeconfig ? '--context/--kubeconfig' : undefined;
  const chosen = [live, values.snapshot ? '--snapshot' : undefined, values.demo ? '--demo' : undefined].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} name different clusters: choose one`);
}

/** Tells the user which parts of the cluster could not be read: findings that need them are missing too. */
export function reportMissing(cluster: ClusterInfo, io: Io): void {
  for (const missing of cluster.missing) io.stderr(`warning: could not read ${missing.resource} from ${cluster.name}: ${missing.reason}`);
  for (const skipped of cluster.skipped ?? []) io.stderr(`warning: ${plural(skipped.count, 'item')} of ${skipped.resource} from ${cluster.name} ${skipped.count === 1 ? 'was' : 'were'} not an object (null or a plain value) and left out`);
}

/** The cluster named by --context / --kubeconfig / --snapshot / --demo, or undefined when none is asked for. */
export async function loadClusterFromArgs(values: Record<string, unknown>, io: Io): Promise<ClusterInfo | undefined> {
  const timeoutMs = parseTimeout(values.timeout);
  // An empty value (an unset shell variable) dropped the cluster without a word.
  for (const flag of ['context', 'kubeconfig', 'snapshot'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} takes ${flag === 'context' ? 'a NAME' : 'a FILE'}, not an empty value (leave it out to check without a cluster)`);
  }
  if (!values.context && !values.kubeconfig && !values.snapshot && !values.demo) return undefined;
  checkExclusive(values);
  const { loadClusterForCli } = await import('../cluster/load');
  const cluster = await loadClusterForCli({
    context: values.context as string | undefined,
    kubeconfig: values.kubeconfig as string | undefined,
    snapshot: values.snapshot as string | undefined,
    demo: values.demo === true,
    timeoutMs,
  });
  reportMissing(cluster, io);
  return cluster;
}
