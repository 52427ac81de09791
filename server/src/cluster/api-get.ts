import http from 'node:http';
import https from 'node:https';
import type { ApiConnection } from './connection';
import { formatSeconds } from './duration';

export interface GetOptions {
  /** Time allowed to open the TCP/TLS connection. */
  connectTimeoutMs: number;
  /** Time allowed for one whole response (one page of a list). */
  requestTimeoutMs: number;
  signal?: AbortSignal;
}

/** A GET that did not give a usable answer; `reason` is worded for people. */
export class ApiGetError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly reason: string,
    /** From a 429's Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(reason);
  }
}

/**
 * The one way this product talks to an API server: an HTTP GET, parsed as JSON. There is deliberately
 * no other method here: the cluster is only ever read.
 */
export function apiGet(connection: ApiConnection, pathAndQuery: string, options: GetOptions): Promise<unknown> {
  const url = new URL(connection.server.pathname.replace(/\/$/, '') + pathAndQuery, connection.server);
  const send = url.protocol === 'http:' ? http.request : https.request;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: ApiGetError) => {
      if (settled) return;
      settled = true;
      cleanup();
      request.destroy();
      reject(error);
    };
    const request = send(url, { method: 'GET', agent: connection.agent, headers: connection.headers, auth: connection.auth });
    const timer = setTimeout(() => fail(new ApiGetError(undefined, `timed out after ${formatSeconds(options.requestTimeoutMs)}`)), options.requestTimeoutMs);
    const onAbort = () => fail(new ApiGetError(undefined, 'cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      clearTimeout(connectTimer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    let connectTimer: NodeJS.Timeout | undefined;
    request.on('socket', (socket) => {
      const connecting = (socket as { connecting?: boolean }).connecting || (socket as { pending?: boolean }).pending;
      if (!connecting) return;
      connectTimer = setTimeout(() => fail(new ApiGetError(undefined, `could not connect to ${connection.server.host} within ${formatSeconds(options.connectTimeoutMs)}`)), options.connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (error: NodeJS.ErrnoException) => fail(new ApiGetError(undefined, describeNetworkError(error, connection.server))));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('aborted', () => fail(new ApiGetError(undefined, 'the connection dropped in the middle of the answer')));
      response.on('error', (error: NodeJS.ErrnoException) => fail(new ApiGetError(undefined, `the connection dropped in the middle of the answer (${error.code ?? error.message})`)));
      response.on('end', () => {
        if (settled) return;
        if (!response.complete) return fail(new ApiGetError(undefined, 'the connection dropped in the middle of the answer'));
        const body = Buffer.concat(chunks).toString('utf8');
        chunks.length = 0;
        const status = response.statusCode ?? 0;
        const retryAfter = Number(response.headers['retry-after']);
        if (status < 200 || status >= 300) return fail(new ApiGetError(status, describeStatus(status, body), Number.isFinite(retryAfter) ? retryAfter : undefined));
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch {
          return fail(new ApiGetError(status, `the answer is not JSON (${body.slice(0, 60).trim() || 'empty'})`));
        }
        settled = true;
        cleanup();
        resolve(value);
      });
    });
    request.end();
  });
}

function describeStatus(status: number, body: string): string {
  let message = '';
  try {
    message = (JSON.parse(body) as { message?: string }).message ?? '';
  } catch {
    message = body.slice(0, 120).trim();
  }
  const label = status === 401 ? 'unauthorized (401)' : status === 403 ? 'forbidden (403)' : status === 404 ? 'not found (404)' : status === 429 ? 'too many requests (429)' : `HTTP ${status}`;
  return message ? `${label}: ${message}` : label;
}

function describeNetworkError(error: NodeJS.ErrnoException, server: URL): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${server.host}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve ${server.hostname}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the connection dropped';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
    case 'CERT_HAS_EXPIRED':
      return `the server's certificate is not trusted (${error.code}): check certificate-authority in the kubeconfig`;
    default:
      return `${error.code ?? 'network error'}: ${error.message}`;
  }
}
