import { plural } from '../words';
import { redactUrl } from './redact-url';
import { bareHost } from '../bare-host';

const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

/** Codes of a connection that could not even be opened: behind a proxy, the proxy's. */
const UNREACHABLE = ['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH'];

/** The error's code; behind a SOCKS proxy, whose agent's errors carry it in their message only ("connect ECONNREFUSED …"). */
function codeOf(error: NodeJS.ErrnoException, proxy?: URL): string {
  return error.code ?? (proxy ? (UNREACHABLE.find((code) => new RegExp(`\\b${code}\\b`).test(error.message)) ?? '') : '');
}

/** Whether no connection could be opened at all, to the server or to its proxy: no other request will get one either. */
export function isUnreachable(error: NodeJS.ErrnoException, proxy?: URL): boolean {
  return UNREACHABLE.includes(codeOf(error, proxy));
}

/**
 * Why a connection to the API server failed, in words a person can act on (never OpenSSL's). Behind a proxy, a
 * connection that could not even be opened is the proxy's: its host was said as the API server's.
 */
export function describeNetworkError(error: NodeJS.ErrnoException, server: URL, proxy?: URL, proxyNamedBy = 'proxy-url'): string {
  const code = codeOf(error, proxy);
  const theProxy = `the proxy (${proxyNamedBy})`;
  if (proxy && UNREACHABLE.includes(code)) {
    return `${describeNetworkError({ ...error, message: error.message, code }, proxy)}: ${theProxy} cannot be reached`;
  }
  // The proxy agents' own words (hpagent, socks): the tunnel timed out, or was answered with another status than 200.
  if (!code && (error.message === 'Proxy timeout' || error.message === 'Proxy connection timed out')) return `${theProxy} did not open a connection to ${server.host} in time`;
  const refused = !code && /^Bad response: (\d+)$/.exec(error.message);
  if (refused) return `${theProxy} refused to connect to ${server.host} (HTTP ${refused[1]}${refused[1] === '407' ? ': it wants credentials' : ''})`;
  if (code === 'ECONNREFUSED') return `connection refused by ${server.host}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve ${server.hostname}`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection dropped';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `no route to ${server.host}`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    // The name checked is tls-server-name's where the kubeconfig sets one (Node names it on the error).
    const checked = (error as { host?: unknown }).host;
    if (typeof checked === 'string' && checked && checked !== bareHost(server.hostname)) {
      return `the server's certificate is not valid for ${checked}, the kubeconfig's tls-server-name: check it against the names the certificate holds`;
    }
    return `the server's certificate is not valid for ${server.hostname}: check the server address, or set tls-server-name in the kubeconfig`;
  }
  if (code === 'CERT_HAS_EXPIRED') return `the server's certificate has expired (${server.host})`;
  if (code === 'CERT_NOT_YET_VALID') return `the server's certificate is not valid yet (${server.host}): check this machine's clock`;
  if (UNTRUSTED_CERTIFICATE.has(code)) return `the server's certificate is not trusted (${code}): check certificate-authority in the kubeconfig`;
  // OpenSSL's words when the other end answers in plain HTTP (or anything that is not TLS).
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || /wrong version number|packet length too long|http request/i.test(error.message)) {
    return `${server.host} does not speak TLS: is it a plain-HTTP port? The kubeconfig says ${server.protocol.replace(':', '')}`;
  }
  return `${code || 'network error'}: ${redactUrl(error.message.split('\n')[0])}`;
}

/**
 * Node's HTTP parser refused the answer (an HPE_ code). After a whole answer of a declared length, what it
 * refused is what came past that length: a Content-Length too short, which cut the answer there.
 */
export function describeMalformedAnswer(code: string, url: URL, declaredLength: number | undefined): string {
  // Named by its path: its query is the read's own paging (`limit=500` shown as `limit=***` looked like a secret).
  const where = `the answer to ${url.origin}${url.pathname}`;
  if (declaredLength !== undefined) return `${where} is malformed: its Content-Length (${plural(declaredLength, 'byte')}) is shorter than what the server sent, which cuts the answer short (${code})`;
  return `${where} is malformed HTTP (${code})`;
}
