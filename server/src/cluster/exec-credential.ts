import { delimiter } from 'node:path';
import type { Cluster, User } from '@kubernetes/client-node';
import { formatSeconds } from './duration';
import { ClusterError } from './errors';
import { findExecutable, runTool, searchPath, ToolError, type RunResult } from '../render/run-tool';
import { printable } from '../printable';
import { formatBytes } from '../files/read-bounded';

/** The `user.exec` stanza of a kubeconfig (client.authentication.k8s.io). */
export interface ExecConfig {
  apiVersion?: string;
  command: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  installHint?: string;
  provideClusterInfo?: boolean;
}

export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

export interface ExecOptions {
  /** Running a program named by a kubeconfig is allowed only in a trusted workspace. */
  trusted: boolean;
  /** Directories searched before PATH: an editor started from a desktop lacks the shell's PATH. */
  extraPath?: string[];
  /** Directory of the kubeconfig that defined the user (a relative command is resolved against it). */
  baseDirectory: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_EXEC_TIMEOUT_MS = 30_000;
/** What a plugin may print: an ExecCredential is a few kilobytes. */
const MAX_PLUGIN_OUTPUT_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, ExecCredential>();

/** The exec stanza of a user, whether written as `exec:` or as the older `auth-provider` form. */
export function execConfigOf(user: User): ExecConfig | undefined {
  const exec = user.exec ?? user.authProvider?.config?.exec;
  return exec && typeof exec === 'object' ? (exec as ExecConfig) : undefined;
}

/**
 * The legacy gcp auth-provider refreshes its token by running `cmd-path` through a shell, blocking
 * and without a time limit. kubectl dropped it in v1.26; a cached token that is still valid is used,
 * and the program is never run.
 */
export function refuseSpawningAuthProvider(user: User): void {
  const provider = user.authProvider;
  const config = provider?.config;
  if (!config || typeof config['cmd-path'] !== 'string') return;
  const expiry = typeof config.expiry === 'string' ? Date.parse(config.expiry) : NaN;
  if (typeof config['access-token'] === 'string' && config['access-token'] && !(expiry < Date.now())) return;
  throw new ClusterError(
    'credentials',
    `kubeconfig user "${user.name}" uses the ${provider.name || 'legacy'} auth-provider, which gets a new token by running "${config['cmd-path']}"; ` +
      'kubectl dropped that provider in v1.26 and kube-resilience does not run it: switch the user to an exec credential plugin ' +
      '(for GKE: install gke-gcloud-auth-plugin, then run "gcloud container clusters get-credentials" again)',
  );
}

/**
 * Refuses an `oidc` auth-provider user whose id-token has expired where client-node would refresh it: that asks the
 * identity provider for new tokens, outside the read's deadline, and a provider that rotates refresh tokens would then
 * refuse the one kubectl keeps in the kubeconfig, which is not written back here. kubectl refreshes it and writes it.
 */
export function refuseRefreshingOidc(user: User): void {
  const provider = user.authProvider;
  const config = provider?.config;
  if (provider?.name !== 'oidc' || !config || typeof config['id-token'] !== 'string' || !config['id-token']) return;
  if (!config['client-id'] || !config['refresh-token'] || !config['idp-issuer-url']) return;
  // Compared as client-node compares: an `exp` missing or not a number never expires there.
  if (!(Date.now() / 1000 > (expiryOf(config['id-token']) as number))) return;
  throw new ClusterError(
    'credentials',
    `the OIDC id-token of kubeconfig user "${user.name}" has expired, and kube-resilience does not refresh it (a refresh would replace the refresh token kubectl keeps in the kubeconfig): run any kubectl command with this context once, which refreshes it, then read again`,
  );
}

/** A JWT's `exp` as client-node reads it: 0 (long expired) for what is no JWT, else whatever its payload holds. */
function expiryOf(jwt: string): unknown {
  const parts = jwt.split('.');
  if (parts.length !== 3) return 0;
  try {
    return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))?.exp;
  } catch {
    // client-node fails on it too, before asking anyone.
    return undefined;
  }
}

/** Runs a kubeconfig's exec credential plugin and returns the credential it prints. */
export async function runExecPlugin(user: User, cluster: Cluster, exec: ExecConfig, options: ExecOptions): Promise<ExecCredential> {
  if (!options.trusted) {
    throw new ClusterError('credentials', `kubeconfig user "${user.name}" gets its credentials by running "${exec.command}"; exec credential plugins run only in a trusted workspace`);
  }
  if (!exec.command) throw new ClusterError('credentials', `kubeconfig user "${user.name}" has an exec section without a command`);
  const malformed = malformedExec(exec);
  if (malformed) throw new ClusterError('config', `kubeconfig user "${user.name}" has an exec section whose ${malformed}`);
  // Of the fields that run the plugin only: another field may hold anything (aliases that expand to gigabytes).
  const cacheKey = JSON.stringify([user.name, cluster.server, exec.command, exec.args ?? [], exec.env ?? [], exec.apiVersion ?? '', !!exec.provideClusterInfo]);
  const cached = cache.get(cacheKey);
  if (cached?.expirationTimestamp && Date.parse(cached.expirationTimestamp) > Date.now() + 10_000) return cached;

  const directories = searchPath(options);
  const program = findExecutable(exec.command, directories, options.baseDirectory, options.env);
  if (!program) {
    const hint = exec.installHint ? ` ${exec.installHint.trim()}` : '';
    throw new ClusterError('credentials', `exec credential plugin "${exec.command}" (user "${user.name}") was not found; searched ${directories.join(delimiter) || '(empty PATH)'}. Add its directory to kubeResilience.extraPath.${hint}`);
  }
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), PATH: directories.join(delimiter) };
  for (const entry of exec.env ?? []) if (entry && typeof entry.name === 'string') env[entry.name] = String(entry.value ?? '');
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion: exec.apiVersion ?? 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    spec: { interactive: false, ...(exec.provideClusterInfo ? { cluster: { server: cluster.server, 'tls-server-name': cluster.tlsServerName, 'insecure-skip-tls-verify': cluster.skipTLSVerify } } : {}) },
  });
  const output = await runProgram(program, exec, env, options);
  const credential = parseCredential(output, exec.command);
  cache.set(cacheKey, credential);
  return credential;
}

/** What is wrong with the shape of an exec stanza as the kubeconfig wrote it, if anything. */
function malformedExec(exec: ExecConfig): string | undefined {
  if (typeof exec.command !== 'string') return 'command is not a string';
  if (exec.args != null && !(Array.isArray(exec.args) && exec.args.every((arg) => typeof arg === 'string'))) return 'args is not a list of strings';
  if (exec.env != null && !(Array.isArray(exec.env) && exec.env.every((entry) => typeof entry?.name === 'string' && ['string', 'undefined'].includes(typeof entry.value)))) {
    return 'env is not a list of name and value strings';
  }
  if (exec.apiVersion != null && typeof exec.apiVersion !== 'string') return 'apiVersion is not a string';
  if (exec.installHint != null && typeof exec.installHint !== 'string') return 'installHint is not a string';
  // Counted without copying: aliases of one long string add up to gigabytes only once written out.
  const size = [exec.command, ...(exec.args ?? []), ...(exec.env ?? []).flatMap((entry) => [entry.name, entry.value ?? ''])].reduce((sum, text) => sum + text.length, 0);
  if (size > MAX_COMMAND_LINE_CHARACTERS) return `command, args and env hold ${size.toLocaleString('en-US')} characters, more than a command line carries`;
  return undefined;
}

/** The most characters a plugin's command, arguments and environment may hold in all: Linux starts no program with more than 2 MB of them. */
const MAX_COMMAND_LINE_CHARACTERS = 2 * 1024 * 1024;

async function runProgram(program: string, exec: ExecConfig, env: NodeJS.ProcessEnv, options: ExecOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
  let result: RunResult;
  try {
    // Its own process group, so that a timeout also ends whatever the plugin started (a browser login helper, a sleep).
    result = await runTool(program, exec.args ?? [], { env, timeoutMs, signal: options.signal, maxStdoutBytes: MAX_PLUGIN_OUTPUT_BYTES, maxStderrBytes: 4000 });
  } catch (error) {
    const reason = error instanceof ToolError ? error.reason : 'not-started';
    const message = error instanceof Error ? error.message : String(error);
    if (reason === 'cancelled') throw new ClusterError('credentials', `exec credential plugin "${exec.command}" was cancelled`);
    if (reason === 'timeout') throw new ClusterError('credentials', `exec credential plugin "${exec.command}" did not answer within ${formatSeconds(timeoutMs)} (does it wait for a login in a browser or a terminal?)`);
    if (reason === 'out-of-memory') throw new ClusterError('credentials', `exec credential plugin "${exec.command}" ${message.replace(/^.*? held /, 'held ')}; it was stopped`);
    if (reason === 'output-too-large') throw new ClusterError('credentials', `exec credential plugin "${exec.command}" printed more than ${formatBytes(MAX_PLUGIN_OUTPUT_BYTES)}, the most a credential plugin may print; it was stopped`);
    throw new ClusterError('credentials', `exec credential plugin "${exec.command}" could not start: ${message.replace(/^.*? could not start: /, '')}`);
  }
  if (result.exitCode === 0) return result.stdout;
  const said = result.stderr.trim().split('\n').slice(-5).map(printable).join(' | ') || '(nothing on stderr)';
  throw new ClusterError('credentials', `exec credential plugin "${exec.command}" failed (${result.exitCode === null ? `signal ${result.signal}` : `exit ${result.exitCode}`}): ${said}`);
}

function parseCredential(stdout: string, command: string): ExecCredential {
  let parsed: { status?: ExecCredential };
  try {
    parsed = JSON.parse(stdout);
  } catch {
    // What it printed is not shown: a plugin printing a bare token would have it echoed.
    const printed = stdout.trim() ? `${stdout.trim().length} characters of something else, not shown: it may be a credential` : 'empty output';
    throw new ClusterError('credentials', `exec credential plugin "${command}" printed no ExecCredential JSON (${printed})`);
  }
  const status = parsed?.status;
  if (!status || (!status.token && !(status.clientCertificateData && status.clientKeyData))) {
    throw new ClusterError('credentials', `exec credential plugin "${command}" returned an ExecCredential without a token or client certificate`);
  }
  // Sent as they are: a token `{"a":1}` went out as "Bearer [object Object]", a certificate of a number threw in Buffer.from.
  const notText = (['token', 'clientCertificateData', 'clientKeyData', 'expirationTimestamp'] as const).find((field) => status[field] != null && typeof status[field] !== 'string');
  if (notText) throw new ClusterError('credentials', `exec credential plugin "${command}" returned a malformed ExecCredential: status.${notText} is not a string`);
  return status;
}
