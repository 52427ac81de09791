import type { ClusterInfo } from '../cluster/types';
import type { Io } from './check';

/** The options every command that reads a cluster takes. */
export const CLUSTER_OPTIONS = {
  context: { type: 'string' },
  kubeconfig: { type: 'string' },
  snapshot: { type: 'string' },
  demo: { type: 'boolean', default: false },
} as const;

/** The cluster named by --context / --kubeconfig / --snapshot / --demo, or undefined when none is asked for. */
export async function loadClusterFromArgs(values: Record<string, unknown>, _io: Io): Promise<ClusterInfo | undefined> {
  if (!values.context && !values.kubeconfig && !values.snapshot && !values.demo) return undefined;
  const { loadClusterForCli } = await import('../cluster/load');
  return loadClusterForCli({
    context: values.context as string | undefined,
    kubeconfig: values.kubeconfig as string | undefined,
    snapshot: values.snapshot as string | undefined,
    demo: values.demo === true,
  });
}
