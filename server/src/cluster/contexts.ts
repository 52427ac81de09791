import { parseYamlValue } from '../manifest/yaml-value';
import { kubeconfigCandidate, MAX_KUBECONFIG_BYTES } from './kubeconfig-paths';
import { describeFileError, readRegularFileBounded } from '../files/read-bounded';

export interface KubeconfigFile {
  path: string;
  /** Undefined when the file does not exist or cannot be read. */
  text: string | undefined;
  /** Why a file that is there could not be read (a FIFO, /dev/zero, too large, no permission). */
  problem?: string;
}

/** A kubeconfig file read for its contexts: a regular file, with a cap, so that the server never waits on a device. */
export function readKubeconfigFile(path: string): KubeconfigFile {
  try {
    return { path, text: readRegularFileBounded(path, MAX_KUBECONFIG_BYTES).toString('utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, text: undefined };
    return { path, text: undefined, problem: describeFileError(error) };
  }
}

export interface KubeContext {
  name: string;
  cluster?: string;
  user?: string;
  namespace?: string;
  /** The file that defined it (the first one wins, as with kubectl). */
  file: string;
}

export interface ContextListing {
  /** The files read, in kubectl's order. */
  files: string[];
  contexts: KubeContext[];
  current?: string;
  /** Files that exist but could not be read as a kubeconfig, with the reason. */
  problems: string[];
}

/** The kubeconfig files to read, as kubectl picks them: the given path(s), else KUBECONFIG, else ~/.kube/config. */
export function kubeconfigPaths(kubeconfig: string | undefined, env: { KUBECONFIG?: string }, home: string): string[] {
  return kubeconfigCandidate({ explicit: kubeconfig, env, home }).paths;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/** Every context of the merged kubeconfig files, read as YAML (never by running kubectl). */
export function listContexts(files: KubeconfigFile[]): ContextListing {
  const contexts = new Map<string, KubeContext>();
  const problems: string[] = [];
  let current: string | undefined;
  for (const file of files) {
    if (file.problem) problems.push(`${file.path}: ${file.problem}`);
    if (file.text === undefined || !file.text.trim()) continue;
    let doc: Record<string, unknown> | undefined;
    try {
      doc = record(parseYamlValue(file.text));
    } catch (error) {
      problems.push(`${file.path}: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    if (!doc) {
      problems.push(`${file.path}: not a kubeconfig (expected a mapping)`);
      continue;
    }
    current ??= text(doc['current-context']);
    for (const entry of Array.isArray(doc.contexts) ? doc.contexts : []) {
      const name = text(record(entry)?.name);
      if (!name || contexts.has(name)) continue;
      const context = record(record(entry)?.context) ?? {};
      contexts.set(name, { name, cluster: text(context.cluster), user: text(context.user), namespace: text(context.namespace), file: file.path });
    }
  }
  return { files: files.map((f) => f.path), contexts: [...contexts.values()].sort((a, b) => a.name.localeCompare(b.name)), current, problems };
}

/** The contexts of the kubeconfig files kubectl would read with this `kubeResilience.kubeconfig`, for Select Context. */
export function readContexts(kubeconfig: string | undefined, env: { KUBECONFIG?: string }, home: string): ContextListing {
  return listContexts(kubeconfigPaths(kubeconfig, env, home).map(readKubeconfigFile));
}
