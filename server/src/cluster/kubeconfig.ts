import { delimiter, dirname } from 'node:path';
import type { Cluster, Context, KubeConfig, User } from '@kubernetes/client-node';
import { stringify as stringifyYaml } from 'yaml';
import { parseYamlValue } from '../manifest/yaml-value';
import { describeFileError, readRegularFileBounded } from '../files/read-bounded';
import { newKubeConfig } from './client-node';
import { inlineTokenFiles, makeAuthProviderTokenFilesAbsolute, TOKEN_FILE_FIELDS } from './credential-files';
import { ClusterError } from './errors';
import { kubeconfigCandidate, MAX_KUBECONFIG_BYTES, type KubeconfigSources } from './kubeconfig-paths';

export { kubeconfigCandidate, type KubeconfigSources };

export interface ResolvedKubeconfig {
  config: KubeConfig;
  files: string[];
  context: Context;
  cluster: Cluster;
  user: User;
  /** Directory of the file that defined the user: kubectl resolves a relative exec command against it. */
  userDirectory: string;
}

/** How client-node names an entry it cannot use (`contexts[1].context.cluster is missing`). */
const UNUSABLE_ENTRY = /^(clusters|users|contexts)\[\d+\]/;

/** Entries a kubeconfig defines by name that cannot be used, keyed `clusters/<name>` or `contexts/<name>`, with why. */
type Unusable = Map<string, string>;

/** Why each named cluster and context of a kubeconfig's value cannot be used, as client-node checks them. */
function unusableEntries(value: unknown, path: string): Unusable {
  const unusable: Unusable = new Map();
  const listed = (key: string) => {
    const list = (value as Record<string, unknown> | null)?.[key];
    return Array.isArray(list) ? (list as { name?: unknown; cluster?: { server?: unknown }; context?: { cluster?: unknown } }[]) : [];
  };
  for (const entry of listed('clusters')) {
    if (typeof entry?.name !== 'string' || !entry.name || entry.cluster?.server) continue;
    unusable.set(`clusters/${entry.name}`, `kubeconfig ${path} defines cluster "${entry.name}" without a server`);
  }
  for (const entry of listed('contexts')) {
    if (typeof entry?.name !== 'string' || !entry.name || entry.context?.cluster) continue;
    unusable.set(`contexts/${entry.name}`, `kubeconfig ${path} defines context "${entry.name}" without a cluster (as \`kubectl config set-context\` leaves one it was given none for)`);
  }
  return unusable;
}

/**
 * One kubeconfig file, and its entries that cannot be used. An entry kubectl itself writes that way (`kubectl config
 * set-context dev --namespace=scratch` leaves `cluster: ""`) made the whole file unreadable: it is left out of the
 * file's config, and only the context in use, and what it names, must be whole.
 */
function readOne(path: string): { config: KubeConfig; unusable: Unusable } | undefined {
  let text: string;
  try {
    text = readRegularFileBounded(path, MAX_KUBECONFIG_BYTES).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ClusterError('config', `cannot read kubeconfig ${path}: ${describeFileError(error)}`);
  }
  let config = newKubeConfig();
  let unusable: Unusable = new Map();
  if (!text.trim()) return { config, unusable };
  try {
    // client-node reads token-file while it parses, whole (and knows no tokenFile): those are read here first, bounded.
    const parsed = TOKEN_FILE_FIELDS.some((field) => text.includes(field)) ? parseYamlValue(text, { maxAliasCount: 100 }) : undefined;
    const loaded = parsed && inlineTokenFiles(parsed, dirname(path)) ? stringifyYaml(parsed) : text;
    try {
      config.loadFromString(loaded);
    } catch (error) {
      if (!UNUSABLE_ENTRY.test((error as Error).message)) throw error;
      unusable = unusableEntries(parsed ?? parseYamlValue(loaded, { maxAliasCount: 100 }), path);
      config = newKubeConfig();
      config.loadFromString(loaded, { onInvalidEntry: 'filter' });
    }
    config.makePathsAbsolute(dirname(path));
    makeAuthProviderTokenFilesAbsolute(config.users, dirname(path));
  } catch (error) {
    if (error instanceof ClusterError) throw error;
    const message = (error as Error).message.split('\n')[0];
    // client-node reads each field as the type it expects: `server: 5` threw "….replace is not a function".
    const said = error instanceof TypeError ? `a field holds another type of value than kubectl reads there (a number or a list where text belongs, say): ${message}` : message;
    throw new ClusterError('config', `kubeconfig ${path} is not valid: ${said}`);
  }
  return { config, unusable };
}

/**
 * Merges kubeconfig files the way kubectl does: the first file to define a cluster, user or context
 * by name wins, and so does the first `current-context`. One it defines but cannot be used wins too (kubectl would
 * take it, and fail): a later file's of that name is not read in its place.
 */
export function mergeKubeconfigs(paths: string[], mustExist: boolean): { config: KubeConfig; files: string[]; userDirectories: Map<string, string>; unusable: Unusable } {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  const userDirectories = new Map<string, string>();
  const files: string[] = [];
  const unusable: Unusable = new Map();
  let currentContext = '';
  for (const path of paths) {
    const read = readOne(path);
    if (!read) {
      if (mustExist) throw new ClusterError('config', `kubeconfig ${path} does not exist`);
      continue;
    }
    const one = read.config;
    for (const [key, why] of read.unusable) {
      const name = key.slice(key.indexOf('/') + 1);
      const defined = key.startsWith('clusters/') ? clusters.has(name) : contexts.has(name);
      if (!defined && !unusable.has(key)) unusable.set(key, why);
    }
    files.push(path);
    for (const cluster of one.clusters ?? []) if (!clusters.has(cluster.name)) clusters.set(cluster.name, cluster);
    for (const user of one.users ?? []) {
      if (users.has(user.name)) continue;
      users.set(user.name, user);
      userDirectories.set(user.name, dirname(path));
    }
    for (const context of one.contexts ?? []) if (!contexts.has(context.name)) contexts.set(context.name, context);
    if (!currentContext && one.currentContext) currentContext = one.currentContext;
  }
  const config = newKubeConfig();
  config.loadFromOptions({ clusters: [...clusters.values()], users: [...users.values()], contexts: [...contexts.values()], currentContext });
  return { config, files, userDirectories, unusable };
}

/** Finds the kubeconfig, merges it, and settles on one context, its cluster and its user. */
export function resolveKubeconfig(sources: KubeconfigSources): ResolvedKubeconfig {
  const candidate = kubeconfigCandidate(sources);
  const { config, files, userDirectories, unusable } = mergeKubeconfigs(candidate.paths, candidate.mustExist);
  if (!files.length) {
    throw new ClusterError('no-kubeconfig', `no kubeconfig found (${candidate.origin}: ${candidate.paths.join(delimiter)})`);
  }
  const named = files.join(delimiter);
  const contextName = sources.context || config.currentContext;
  if (!contextName) throw new ClusterError('config', `kubeconfig ${named} sets no current-context; choose one of: ${contextList(config)}`);
  // One a file defines before any usable one of that name is the one kubectl takes, and fails with.
  const context = config.getContextObject(contextName);
  const unusableContext = unusable.get(`contexts/${contextName}`);
  if (unusableContext) throw new ClusterError('config', `context "${contextName}" cannot be used: ${unusableContext}`);
  if (!context) throw new ClusterError('config', `context "${contextName}" is not in kubeconfig ${named}; known contexts: ${contextList(config)}`);
  const cluster = config.getCluster(context.cluster);
  const unusableCluster = unusable.get(`clusters/${context.cluster}`);
  if (unusableCluster) throw new ClusterError('config', `context "${contextName}" names cluster "${context.cluster}", which cannot be used: ${unusableCluster}`);
  if (!cluster) throw new ClusterError('config', `context "${contextName}" names cluster "${context.cluster}", which kubeconfig ${named} does not define`);
  // A context without a user reads anonymously; one naming a user the kubeconfig lacks is a mistake (kubectl refuses it).
  if (context.user && !config.getUser(context.user)) throw new ClusterError('config', `context "${contextName}" names user "${context.user}", which kubeconfig ${named} does not define`);
  const user = config.getUser(context.user) ?? ({ name: '' } as User);
  config.setCurrentContext(contextName);
  return { config, files, context, cluster, user, userDirectory: userDirectories.get(user.name) ?? dirname(files[0]) };
}

function contextList(config: KubeConfig): string {
  const names = config.contexts.map((c) => c.name);
  return names.length ? names.join(', ') : '(none)';
}
