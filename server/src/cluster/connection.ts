import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { User } from '@kubernetes/client-node';
import { newKubeConfig } from './client-node';
import { inlineCredentialFiles } from './credential-files';
import { ClusterError } from './errors';
import { execConfigOf, runExecPlugin, refuseRefreshingOidc, refuseSpawningAuthProvider, type ExecOptions } from './exec-credential';
import type { ResolvedKubeconfig } from './kubeconfig';
import { proxyFromEnvironment } from './proxy-from-env';
import { redactUrl } from './redact-url';

/** Everything needed to send an authenticated GET to one API server. */
export interface ApiConnection {
  server: URL;
  /** The proxy the agent tunnels through (proxy-url, or the environment's), whose own failures are said as its. */
  proxy?: URL;
  /** What named the proxy: `proxy-url`, or the environment variable (HTTPS_PROXY…). */
  proxyNamedBy?: string;
  agent: http.Agent;
  headers: Record<string, string>;
  /** `user:password` for basic auth. */
  auth?: string;
}

export interface CredentialOptions extends Omit<ExecOptions, 'baseDirectory'> {
  maxSockets?: number;
  /** How long a proxy may take to open its tunnel (its CONNECT answered). */
  connectTimeoutMs?: number;
}

/** How long a connection to the API server (or a proxy's tunnel to it) may take to open. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** The schemes of the proxies client-node's agents reach a cluster through. */
const PROXY_SCHEMES = ['http:', 'https:', 'socks:', 'socks4:', 'socks4a:', 'socks5:', 'socks5h:'];

const TLS_OPTIONS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/**
 * Credentials and TLS for the resolved context. client-node's KubeConfig fills in certificates, tokens
 * and auth providers; exec plugins run here instead, because only here can they be refused in an
 * untrusted workspace, searched on an extended PATH and timed out.
 */
export async function connectionFor(resolved: ResolvedKubeconfig, options: CredentialOptions): Promise<ApiConnection> {
  const { cluster, context } = resolved;
  let user: User = resolved.user;
  const exec = execConfigOf(user);
  if (exec) {
    const credential = await runExecPlugin(user, cluster, exec, { ...options, baseDirectory: resolved.userDirectory });
    user = {
      ...user,
      exec: undefined,
      authProvider: undefined,
      token: credential.token ?? user.token,
      certData: credential.clientCertificateData ? Buffer.from(credential.clientCertificateData).toString('base64') : user.certData,
      keyData: credential.clientKeyData ? Buffer.from(credential.clientKeyData).toString('base64') : user.keyData,
      certFile: credential.clientCertificateData ? undefined : user.certFile,
      keyFile: credential.clientKeyData ? undefined : user.keyFile,
    };
  } else {
    refuseSpawningAuthProvider(user);
    refuseRefreshingOidc(user);
  }
  let server: URL | undefined;
  try {
    server = new URL(cluster.server);
  } catch {
    // Said below.
  }
  if (!server || (server.protocol !== 'https:' && server.protocol !== 'http:')) {
    const why = /^https?:\/\//i.test(String(cluster.server)) ? 'it is not a URL (a user name or password holding / ? or # must be percent-encoded)' : 'it must start with https://';
    throw new ClusterError('config', `cluster "${cluster.name}" has no valid server URL (${JSON.stringify(redactUrl(String(cluster.server)))}): ${why}`);
  }
  if (server.protocol === 'http:' && !cluster.skipTLSVerify) {
    throw new ClusterError('config', `cluster "${cluster.name}" uses plain http (${redactUrl(cluster.server)}) without insecure-skip-tls-verify`);
  }
  // As kubectl does: the kubeconfig's proxy-url, else the environment's proxy for this server.
  const fromEnvironment = cluster.proxyUrl ? undefined : proxyFromEnvironment(server, options.env ?? process.env);
  const reached = fromEnvironment ? { ...cluster, proxyUrl: fromEnvironment.url } : cluster;
  // A proxy that is no URL was said as the user's credentials being wrong ("Invalid URL"); `proxy.corp:3128` is one of
  // the scheme `proxy.corp:`, which no agent speaks, and `socks5:proxy.corp:1080` one without a host (the read went to
  // an empty host).
  const proxyUrl = reached.proxyUrl ? URL.parse(reached.proxyUrl) : undefined;
  if (reached.proxyUrl && !(proxyUrl && PROXY_SCHEMES.includes(proxyUrl.protocol) && proxyUrl.hostname)) {
    const where = fromEnvironment ? `in ${fromEnvironment.variable}` : `(proxy-url) of cluster "${cluster.name}"`;
    throw new ClusterError('config', `the proxy ${where}, ${JSON.stringify(redactUrl(reached.proxyUrl))}, is not a proxy URL (http://, https:// or socks5:// and host:port)`);
  }
  const inlined = inlineCredentialFiles(reached, user);
  const single = newKubeConfig();
  single.loadFromOptions({ clusters: [inlined.cluster], users: [inlined.user], contexts: [{ ...context, user: user.name }], currentContext: context.name });
  const request: https.RequestOptions = {};
  try {
    await single.applyToHTTPSOptions(request);
  } catch (error) {
    throw new ClusterError('credentials', `cannot prepare credentials of user "${user.name}": ${(error as Error).message.split('\n')[0]}`);
  }
  checkClientCertificate(request, user.name);
  const headers: Record<string, string> = { Accept: 'application/json' };
  for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = String(value);
  const proxy = reached.proxyUrl && request.agent ? URL.parse(reached.proxyUrl) ?? undefined : undefined;
  const named = proxy ? { proxy, proxyNamedBy: fromEnvironment?.variable ?? 'proxy-url' } : {};
  return { server, ...named, agent: agentFor(server, request, reached.proxyUrl, options.maxSockets ?? 6, options.connectTimeoutMs), headers, auth: request.auth ?? undefined };
}

function agentFor(server: URL, request: https.RequestOptions, proxyUrl: string | undefined, maxSockets: number, connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): http.Agent {
  // Behind a proxy, client-node's own agent knows how to tunnel; otherwise a keep-alive agent saves a TLS handshake per page.
  if (proxyUrl && request.agent) {
    const agent = request.agent as http.Agent & { options: { timeout?: number }; timeout?: number | null };
    // Its tunnel request takes the agent's timeout (none by default, and out of our reach once sent): a proxy that
    // never answered CONNECT kept the process alive long after our deadline had ended the read. An HTTP proxy's
    // agent reads it from its options, a SOCKS proxy's from its own field (it waited its library's 30 s).
    agent.options.timeout = connectTimeoutMs;
    if ('timeout' in agent) agent.timeout = connectTimeoutMs;
    return agent;
  }
  if (server.protocol === 'http:') return new http.Agent({ keepAlive: true, maxSockets });
  const tls: https.AgentOptions = { keepAlive: true, maxSockets };
  for (const key of TLS_OPTIONS) if (request[key] !== undefined) (tls as Record<string, unknown>)[key] = request[key];
  return new https.Agent(tls);
}

/**
 * A client certificate or key that TLS cannot read fails every request in OpenSSL's words ("PEM routines::no start
 * line"): said once, of the field the kubeconfig holds it in.
 */
function checkClientCertificate(request: https.RequestOptions, userName: string): void {
  const readable = (options: tls.SecureContextOptions): string | undefined => {
    try {
      tls.createSecureContext(options);
      return undefined;
    } catch (error) {
      return (error as Error).message.replace(/^error:[0-9A-F]+:/, '').replace(/::/, ': ');
    }
  };
  const problem = (field: string, why: string) => new ClusterError('credentials', `the ${field} of user "${userName}" cannot be read (${why}): it must be PEM, as base64 in ${field}-data or in the file ${field} names`);
  const cert = request.cert && readable({ cert: request.cert });
  if (cert) throw problem('client-certificate', cert);
  const key = request.key && readable({ key: request.key });
  if (key) throw problem('client-key', key);
  const pair = request.cert && request.key && readable({ cert: request.cert, key: request.key });
  if (pair) throw new ClusterError('credentials', `the client-certificate and client-key of user "${userName}" do not belong together (${pair})`);
}
