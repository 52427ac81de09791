import { isAbsolute, join } from 'node:path';
import type { Cluster, User } from '@kubernetes/client-node';
import { describeFileError, readRegularFileBounded } from '../files/read-bounded';
import { ClusterError } from './errors';

const MAX_CREDENTIAL_FILE_BYTES = 1024 * 1024;

/** A file a kubeconfig names (itself, a certificate, a key, a token): a regular file, read with a cap. */
export function readKubeconfigFile(path: string, what: string, maxBytes = MAX_CREDENTIAL_FILE_BYTES): Buffer {
  try {
    return readRegularFileBounded(path, maxBytes);
  } catch (error) {
    throw new ClusterError('config', `cannot read ${what} ${path}: ${describeFileError(error)}`);
  }
}

/**
 * The cluster and user with every file they name read into data here, bounded: client-node would
 * read them whole and without a question (a `client-key: /dev/zero` never ends).
 */
export function inlineCredentialFiles(cluster: Cluster, user: User): { cluster: Cluster; user: User } {
  const inlinedCluster = cluster.caFile ? { ...cluster, caFile: undefined, caData: readKubeconfigFile(cluster.caFile, 'certificate-authority').toString('base64') } : cluster;
  let inlinedUser = user;
  if (user.certFile) inlinedUser = { ...inlinedUser, certFile: undefined, certData: readKubeconfigFile(user.certFile, 'client-certificate').toString('base64') };
  if (user.keyFile) inlinedUser = { ...inlinedUser, keyFile: undefined, keyData: readKubeconfigFile(user.keyFile, 'client-key').toString('base64') };
  const tokenFile = user.authProvider?.config?.tokenFile;
  if (typeof tokenFile === 'string' && tokenFile) {
    const token = readKubeconfigFile(tokenFile, 'token file').toString('utf8').trim();
    inlinedUser = { ...inlinedUser, authProvider: undefined, token };
  }
  return { cluster: inlinedCluster, user: inlinedUser };
}

/** The fields a kubeconfig user names a token file by: kubectl's, and the one client-node reads. */
export const TOKEN_FILE_FIELDS = ['tokenFile', 'token-file'] as const;

/**
 * A kubeconfig's token files (`tokenFile`, which client-node does not know, and `token-file`, which it reads while
 * parsing, whole) replaced by the tokens, read bounded. A file wins over a `token` beside it, as in kubectl, when
 * it can be read.
 */
export function inlineTokenFiles(config: unknown, directory: string): boolean {
  const users = (config as { users?: unknown } | null)?.users;
  if (!Array.isArray(users)) return false;
  let changed = false;
  for (const entry of users) {
    const user = (entry as { user?: Record<string, unknown> } | null)?.user;
    const field = TOKEN_FILE_FIELDS.find((name) => typeof user?.[name] === 'string' && user[name]);
    if (!user || !field) continue;
    const file = user[field] as string;
    const path = isAbsolute(file) ? file : join(directory, file);
    try {
      user.token = readKubeconfigFile(path, field).toString('utf8').trim();
    } catch (error) {
      // As client-go does: a token written beside the file stands when the file cannot be read.
      if (typeof user.token !== 'string' || !user.token) throw error;
    }
    for (const name of TOKEN_FILE_FIELDS) delete user[name];
    changed = true;
  }
  return changed;
}

/**
 * The relative token files of the users' auth providers, which inlineCredentialFiles reads, made absolute against the
 * kubeconfig's folder, as client-node's makePathsAbsolute makes the certificates' (it leaves these as written: they
 * were read from the folder the command ran in).
 */
export function makeAuthProviderTokenFilesAbsolute(users: readonly User[], directory: string): void {
  for (const user of users) {
    const config = user.authProvider?.config as Record<string, unknown> | undefined;
    if (config && typeof config.tokenFile === 'string' && config.tokenFile && !isAbsolute(config.tokenFile)) config.tokenFile = join(directory, config.tokenFile);
  }
}
