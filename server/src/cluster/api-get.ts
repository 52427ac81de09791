import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { ApiConnection } from './connection';
import { formatSeconds } from './duration';
import { formatBytes } from '../files/read-bounded';
import { ReadAborted, type ByteBudget } from './read-limits';
import { describeMalformedAnswer, describeNetworkError, isUnreachable } from './network-errors';
import { printable } from '../printable';
import { redactUrl } from './redact-url';

export interface GetOptions {
  /** Time allowed to open the TCP/TLS connection. */
  connectTimeoutMs: number;
  /** The read's deadline (or cancel): aborting it ends the request, whatever state it is in. */
  signal: AbortSignal;
  /** An answer larger than this is refused as it arrives. */
  maxResponseBytes: number;
  /** What the whole read may still receive. */
  budget?: ByteBudget;
}

/** A GET that did not give a usable answer; `reason` is worded for people. */
export class ApiGetError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly reason: string,
    /** From a 429's Retry-After header. */
    readonly retryAfterSeconds?: number,
    /** No connection could be opened to the server (or its proxy): another request would get none either. */
    readonly unreachable = false,
  ) {
    super(reason);
  }
}

/**
 * The one way this product talks to an API server: an HTTP GET, parsed as JSON. There is deliberately
 * no other method here, and no other module sends requests: the cluster is only ever read. The body is
 * counted while it arrives and refused past its cap, so no server can make this hold more.
 */
export async function apiGet(connection: ApiConnection, pathAndQuery: string, options: GetOptions): Promise<unknown> {
  try {
    return await getOnce(connection, pathAndQuery, options);
  } catch (error) {
    if (!(error instanceof UnansweredOnKeptAliveConnection)) throw error;
    // The server closed a kept-alive connection as the request went out (its idle timeout): nothing was
    // answered, so the GET is sent again, once. The other idle connections are as old: they go too, so that
    // the agent, whose slot the closed one no longer takes, opens a new one.
    for (const sockets of Object.values(connection.agent.freeSockets ?? {})) for (const socket of sockets ?? []) socket.destroy();
    return getOnce(connection, pathAndQuery, options);
  }
}

/** The connection dropped before any byte of the answer, on a connection kept alive from an earlier request. */
class UnansweredOnKeptAliveConnection extends ApiGetError {}

/**
 * Connections that have carried a request. Node's own `reusedSocket` is false for a request that waited for
 * a connection another request had just finished with.
 */
const usedSockets = new WeakSet<Duplex>();

function getOnce(connection: ApiConnection, pathAndQuery: string, options: GetOptions): Promise<unknown> {
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
    const onAbort = () => fail(new ApiGetError(undefined, abortReason(options.signal)));
    let connectTimer: NodeJS.Timeout | undefined;
    const cleanup = () => {
      clearTimeout(connectTimer);
      options.signal.removeEventListener('abort', onAbort);
    };
    if (options.signal.aborted) return reject(new ApiGetError(undefined, abortReason(options.signal)));
    const request = send(url, { method: 'GET', agent: connection.agent, headers: connection.headers, auth: connection.auth });
    options.signal.addEventListener('abort', onAbort, { once: true });
    let reused = false;
    request.on('socket', (socket) => {
      reused = usedSockets.has(socket);
      usedSockets.add(socket);
      const connecting = (socket as { connecting?: boolean }).connecting || (socket as { pending?: boolean }).pending;
      if (!connecting) return;
      connectTimer = setTimeout(() => fail(new ApiGetError(undefined, `could not connect to ${connection.server.host} within ${formatSeconds(options.connectTimeoutMs)}`, undefined, true)), options.connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    let answer: http.IncomingMessage | undefined;
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code?.startsWith('HPE_')) {
        const declared = answer?.complete ? Number(answer.headers['content-length']) : NaN;
        return fail(new ApiGetError(answer?.statusCode, describeMalformedAnswer(error.code, url, Number.isFinite(declared) ? declared : undefined)));
      }
      const reason = describeNetworkError(error, connection.server, connection.proxy, connection.proxyNamedBy);
      if (answer || !reused || (error.code !== 'ECONNRESET' && error.code !== 'EPIPE')) return fail(new ApiGetError(undefined, reason, undefined, !answer && isUnreachable(error, connection.proxy)));
      // Said once the connection has closed, when the agent no longer counts it among those in use.
      const socket = request.socket;
      if (socket && !socket.closed) socket.once('close', () => fail(new UnansweredOnKeptAliveConnection(undefined, reason)));
      else fail(new UnansweredOnKeptAliveConnection(undefined, reason));
    });
    request.on('response', (response) => {
      answer = response;
      const max = options.maxResponseBytes;
      const tooLarge = () => fail(new ApiGetError(response.statusCode, `the answer is larger than ${formatBytes(max)}, the most one answer may be`));
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > max) return tooLarge();
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > max) return tooLarge();
        if (options.budget && !options.budget.take(chunk.length)) {
          return fail(new ApiGetError(response.statusCode, `the cluster sent more than ${formatBytes(options.budget.max)} in one read, the most a read may receive`));
        }
        chunks.push(chunk);
      });
      response.on('aborted', () => fail(new ApiGetError(undefined, 'the connection dropped in the middle of the answer')));
      response.on('error', (error: NodeJS.ErrnoException) => fail(new ApiGetError(undefined, `the connection dropped in the middle of the answer (${error.code ?? error.message})`)));
      response.on('end', () => {
        if (settled) return;
        if (!response.complete) return fail(new ApiGetError(undefined, 'the connection dropped in the middle of the answer'));
        const body = Buffer.concat(chunks).toString('utf8');
        chunks.length = 0;
        const status = response.statusCode ?? 0;
        const retryAfter = Number(response.headers['retry-after']);
        if (status < 200 || status >= 300) {
          // Not followed (a token must not go where the kubeconfig did not send it): where it pointed is said.
          const location = status >= 300 && status < 400 && typeof response.headers.location === 'string' ? `, redirected to ${redactUrl(printable(response.headers.location)).slice(0, 200)} (not followed: the server in the kubeconfig may be out of date)` : '';
          return fail(new ApiGetError(status, describeStatus(status, body) + location, Number.isFinite(retryAfter) ? retryAfter : undefined));
        }
        // Nothing asks for a compressed answer, so nothing here decompresses one (nor bounds what it inflates to).
        const encoding = response.headers['content-encoding'];
        if (encoding && encoding.toLowerCase() !== 'identity') {
          return fail(new ApiGetError(status, `the answer is compressed (Content-Encoding: ${printable(encoding).slice(0, 40)}), which the request did not ask for: a proxy on the way may be compressing it`));
        }
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch {
          return fail(new ApiGetError(status, `the answer is not JSON (${printable(body.slice(0, 60)) || 'empty'})`));
        }
        settled = true;
        cleanup();
        resolve(value);
      });
    });
    request.end();
  });
}

function abortReason(signal: AbortSignal): string {
  return signal.reason instanceof ReadAborted ? signal.reason.message : 'cancelled';
}

function describeStatus(status: number, body: string): string {
  let message = '';
  try {
    const said = (JSON.parse(body) as { message?: unknown } | null)?.message;
    message = typeof said === 'string' ? said : '';
  } catch {
    message = body.slice(0, 120);
  }
  message = printable(message).slice(0, 300);
  const label = status === 401 ? 'unauthorized (401)' : status === 403 ? 'forbidden (403)' : status === 404 ? 'not found (404)' : status === 410 ? 'gone (410)' : status === 429 ? 'too many requests (429)' : `HTTP ${status}`;
  return message ? `${label}: ${message}` : label;
}
