import type { ClusterInfo } from './types';
import { UsageError } from '../commands/usage-error';

export interface ClusterRequest {
  context?: string;
  kubeconfig?: string;
  snapshot?: string;
  demo?: boolean;
}

/** Reads the cluster a CLI invocation names. */
export async function loadClusterForCli(_request: ClusterRequest): Promise<ClusterInfo> {
  throw new UsageError('reading a cluster is not available in this build');
}
