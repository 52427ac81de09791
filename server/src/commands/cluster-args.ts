import type { ClusterInfo } from '../cluster/types';
import type { Io } from './check';
import { UsageError } from './usage-error';

/** The options every command that reads a cluster takes. */
export const CLUSTER_OPTIONS = {
  context: { type: 'string' },
  kubeconfig: { type: 'string' },
  snapshot: { type: 'string' },
  demo: { type: 'boolean', default: false },
} as const;

/** --snapshot and --demo each replace the live cluster, so they combine with nothing else that names one. */
function checkExclusive(values: Record<string, unknown>): void {
  const live = values.context || values.kubeconfig ? '--context/--kubeconfig' : undefined;
  const chosen = [live, values.snapshot ? '--snapshot' : undefined, values.demo ? '--demo' : undefined].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`${chosen.join(' and ')} name different clusters: choose one`);
}

/** Tells the user which parts of the cluster could not be read: findings that need them are missing too. */
export function reportMissing(cluster: ClusterInfo, io: Io): void {
  for (const missing of cluster.missing) io.stderr(`warning: could not read ${missing.resource} from ${cluster.name}: ${missing.reason}`);
}

/** The cluster named by --context / --kubeconfig / --snapshot / --demo, or undefined when none is asked for. */
export async function loadClusterFromArgs(values: Record<string, unknown>, io: Io): Promise<ClusterInfo | undefined> {
  if (!values.context && !values.kubeconfig && !values.snapshot && !values.demo) return undefined;
  checkExclusive(values);
  const { loadClusterForCli } = await import('../cluster/load');
  const cluster = await loadClusterForCli({
    context: values.context as string | undefined,
    kubeconfig: values.kubeconfig as string | undefined,
    snapshot: values.snapshot as string | undefined,
    demo: values.demo === true,
  });
  reportMissing(cluster, io);
  return cluster;
}
