import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

// Kept free of @kubernetes/client-node so that the VS Code client can pick the same files without bundling it.

/** A kubeconfig larger than this is refused while it is read (real ones are kilobytes). */
export const MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024;

/** Where a kubeconfig may come from, strongest first. */
export interface KubeconfigSources {
  /** The `kubeResilience.kubeconfig` setting or `--kubeconfig` (may list several paths like KUBECONFIG). */
  explicit?: string;
  /** The path the client got from the Kubernetes extension. */
  handedOver?: string;
  /** Context to use instead of the merged `current-context`. */
  context?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

export interface Candidate {
  paths: string[];
  origin: string;
  /** kubectl ignores KUBECONFIG entries that do not exist; a path set by hand must exist. */
  mustExist: boolean;
}

function splitPaths(value: string): string[] {
  return value.split(delimiter).map((p) => p.trim()).filter(Boolean);
}

/** The kubeconfig files to merge, as kubectl would pick them. */
export function kubeconfigCandidate(sources: KubeconfigSources): Candidate {
  const env = sources.env ?? process.env;
  if (sources.explicit) return { paths: splitPaths(sources.explicit), origin: 'the kubeconfig setting', mustExist: true };
  if (sources.handedOver) return { paths: splitPaths(sources.handedOver), origin: 'the Kubernetes extension', mustExist: true };
  if (env.KUBECONFIG && splitPaths(env.KUBECONFIG).length) return { paths: splitPaths(env.KUBECONFIG), origin: 'KUBECONFIG', mustExist: false };
  return { paths: [join(sources.home ?? homedir(), '.kube', 'config')], origin: 'the default location', mustExist: false };
}
