/* eslint-disable @typescript-eslint/no-explicit-any */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { selfSignedCertificate } from './tls';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization?: string;
}

const KINDS: Record<string, string> = {
  nodes: 'Node', pods: 'Pod', deployments: 'Deployment', statefulsets: 'StatefulSet', daemonsets: 'DaemonSet',
  replicasets: 'ReplicaSet', jobs: 'Job', cronjobs: 'CronJob', poddisruptionbudgets: 'PodDisruptionBudget',
  horizontalpodautoscalers: 'HorizontalPodAutoscaler', services: 'Service', endpointslices: 'EndpointSlice', limitranges: 'LimitRange',
  leases: 'Lease', configmaps: 'ConfigMap', secrets: 'Secret', scaledobjects: 'ScaledObject',
};

const CLUSTER_SCOPED = new Set(['Node']);

/**
 * Ways an API server can misbehave, per resource plural (or '*' for all): paging that never ends or
 * goes round, bodies that never end or are huge, answers that never come, lists with null items,
 * bodies cut short or not JSON, a Content-Length shorter than the body, list pages of 4 MB without end,
 * or any HTTP status.
 */
export type Fault =
  | 'endless-continue'
  | 'repeated-continue'
  | 'endless-body'
  | 'huge-list'
  | 'huge-declared'
  | 'stall'
  | 'null-items'
  | 'odd-kind'
  | 'truncated'
  | 'non-json'
  | 'gzipped'
  | 'short-content-length'
  | 'endless-large-pages'
  | { status: number; retryAfter?: number };

export const FAULTS: readonly Fault[] = [
  'endless-continue', 'repeated-continue', 'endless-body', 'huge-list', 'huge-declared', 'stall', 'null-items', 'odd-kind', 'truncated', 'non-json', 'gzipped',
  { status: 401 }, { status: 403 }, { status: 410 }, { status: 429, retryAfter: 1 }, { status: 500 },
];

export function faultName(fault: Fault): string {
  return typeof fault === 'string' ? fault : `HTTP ${fault.status}`;
}

/** A size a huge answer claims or reaches: far past any cap, never held by the fake itself. */
const HUGE_BYTES = 400 * 1024 * 1024;
const GARBAGE = Buffer.alloc(64 * 1024, 'x');

/** Where a list's items come from: fixture objects, or (for the scale benchmark) a generator that never holds them all. */
export interface ObjectSource {
  count(kind: string, namespace: string | undefined): number;
  slice(kind: string, namespace: string | undefined, start: number, end: number): any[];
}

interface Route {
  plural: string;
  namespace?: string;
  name?: string;
}

/** /api/v1[/namespaces/NS]/PLURAL[/NAME] and /apis/GROUP/VERSION[/namespaces/NS]/PLURAL[/NAME]. */
function route(pathname: string): Route | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : undefined;
  if (!rest?.length) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) return { namespace: rest[1], plural: rest[2], name: rest[3] };
  return { plural: rest[0], name: rest[1] };
}

function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/**
 * A Kubernetes API server on 127.0.0.1 over HTTPS that answers list and get from fixture objects,
 * pages with limit/continue, records every request, refuses anything but GET, and misbehaves on demand.
 */
export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  /** Resource plurals answered with 403. */
  readonly forbidden = new Set<string>();
  /** Resource plurals answered only after this many milliseconds. */
  readonly slow = new Map<string, number>();
  /** Resource plurals whose answer is cut off in the middle of the body. */
  readonly dropMidBody = new Set<string>();
  /** Resource plurals answered 429 (Retry-After: 0) this many times before answering. */
  readonly throttle = new Map<string, number>();
  /** Resource plurals whose next request carrying a continue token gets 410 Gone (an expired token). */
  readonly expireContinue = new Set<string>();
  /** Resource plurals (or '*') that misbehave in one of the ways of `Fault`. */
  readonly faults = new Map<string, Fault>();
  /** Body bytes written by fault answers that stream without end: what the client let arrive. */
  streamedBytes = 0;
  /**
   * When set, a request that arrives on a kept-alive connection finds it closed, unanswered: a server
   * whose idle timeout ran out as the request was on its way.
   */
  closeKeptAliveConnections = false;
  /** Requests left unanswered that way. */
  closedKeptAlive = 0;
  private readonly usedSockets = new WeakSet<object>();
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  requiredToken?: string;
  readonly ca: string;
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    public objects: any[],
  ) {
    this.ca = selfSignedCertificate().cert;
  }

  /** Set to serve lists from a generator instead of `objects`. */
  source?: ObjectSource;

  static async start(objects: any[]): Promise<FakeApiServer> {
    const { cert, key } = selfSignedCertificate();
    const server = createServer({ cert, key });
    const fake = new FakeApiServer(server, objects);
    server.on('request', (req, res) => fake.handle(req, res));
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests that were not GET: the suite asserts there are none. */
  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  /** Requests for Secrets, of any method: the product never needs them. */
  secretRequests(): RecordedRequest[] {
    return this.requests.filter((r) => route(r.path)?.plural === 'secrets');
  }

  /** Every suite that talks to this server ends here: nothing but GET reached it, and nothing asked for a Secret. */
  async stop(): Promise<void> {
    const writes = this.writes();
    const secrets = this.secretRequests();
    await this.close();
    if (writes.length) throw new Error(`the product sent ${writes.length} request(s) that are not GET: ${writes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    if (secrets.length) throw new Error(`the product asked for Secrets: ${secrets.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  }

  /** Stops without the read-only check: for the test of the check itself. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
    if (this.closeKeptAliveConnections && this.usedSockets.has(req.socket)) {
      this.closedKeptAlive++;
      req.socket.destroy();
      return;
    }
    this.usedSockets.add(req.socket);
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const recorded: RecordedRequest = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), authorization: req.headers.authorization };
    this.requests.push(recorded);
    const send = (code: number, body: string) => {
      res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    req.resume();
    if (req.method !== 'GET') return send(405, status(405, 'MethodNotAllowed', `${req.method} is not allowed here`));
    if (this.requiredToken && req.headers.authorization !== `Bearer ${this.requiredToken}`) return send(401, status(401, 'Unauthorized', 'Unauthorized'));
    const target = route(url.pathname);
    const kind = target && KINDS[target.plural];
    if (!target || !kind) return send(404, status(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`));
    if (this.forbidden.has(target.plural)) {
      return send(403, status(403, 'Forbidden', `${target.plural} is forbidden: User "reader" cannot list resource "${target.plural}" at the cluster scope`));
    }
    const throttled = this.throttle.get(target.plural);
    if (throttled) {
      this.throttle.set(target.plural, throttled - 1);
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '0' });
      res.end(status(429, 'TooManyRequests', 'too many requests, please try again later'));
      return;
    }
    const fault = this.faults.get(target.plural) ?? this.faults.get('*');
    if (fault) return this.misbehave(fault, kind, url.searchParams, req, res);
    if (url.searchParams.get('continue') && this.expireContinue.delete(target.plural)) {
      return send(410, status(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result.'));
    }
    const answer = () => {
      const body = this.body(target, kind, url.searchParams);
      if (!body) return send(404, status(404, 'NotFound', `${target.plural} "${target.name}" not found`));
      if (this.dropMidBody.has(target.plural)) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.write(body.slice(0, Math.floor(body.length / 2)));
        setTimeout(() => res.socket?.destroy(), 10);
        return;
      }
      send(200, body);
    };
    const delay = this.slow.get(target.plural);
    if (delay) setTimeout(answer, delay);
    else answer();
  }

  private misbehave(fault: Fault, kind: string, params: URLSearchParams, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
    const json = (value: unknown) => {
      const body = JSON.stringify(value);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    const list = (items: unknown[], next?: string) => ({ kind: `${kind}List`, apiVersion: 'v1', metadata: { resourceVersion: '1', ...(next ? { continue: next } : {}) }, items });
    if (typeof fault === 'object') {
      res.writeHead(fault.status, { 'Content-Type': 'application/json', ...(fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {}) });
      res.end(status(fault.status, `Status${fault.status}`, `the fake API server answers ${fault.status} here`));
      return;
    }
    switch (fault) {
      case 'endless-continue':
        return json(list([], `page-${Number(params.get('continue')?.slice(5) ?? 0) + 1}`));
      case 'repeated-continue':
        return json(list([], 'the-same-token'));
      case 'null-items':
        return json(list([null, 7, 'text', [], { metadata: { name: `real-${kind.toLowerCase()}`, namespace: 'default' } }]));
      case 'odd-kind':
        // Items that name their own kind, wrongly spelt, with what a snapshot must never hold.
        return json(list([{ kind: kind.toLowerCase(), metadata: { name: `odd-${kind.toLowerCase()}`, namespace: 'default' }, spec: { containers: [{ name: 'a', env: [{ name: 'PASSWORD', value: 'hunter2' }] }] } }]));
      case 'non-json':
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><body>\u001b[31mGateway says hello\u0007</body></html>');
        return;
      case 'gzipped':
        // Compressed though the request did not ask for it (a proxy that compresses whatever passes).
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify(list([{ metadata: { name: 'a' } }]))));
        return;
      case 'truncated': {
        const body = JSON.stringify(list([{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }]));
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(body.slice(0, body.length - 7));
        return;
      }
      case 'short-content-length': {
        const body = JSON.stringify(list([{ metadata: { name: 'a' } }]));
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length - 10) });
        res.end(body);
        return;
      }
      case 'endless-large-pages': {
        // 4 MB a page of items whose 8 KB annotation a snapshot keeps: what the reader holds grows as it pages.
        const page = Number(params.get('continue')?.slice(5) ?? 0) + 1;
        const annotation = 'x'.repeat(8 * 1024);
        const items = Array.from({ length: 500 }, (_, i) => ({ metadata: { name: `item-${page}-${i}`, namespace: 'default', annotations: { 'kubernetes.io/description': `${annotation}${i}` } } }));
        return json(list(items, `page-${page}`));
      }
      case 'stall':
        return;
      case 'huge-declared':
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(HUGE_BYTES) });
        return this.stream(req, res, '{"kind":"List","items":[', HUGE_BYTES);
      case 'huge-list':
        // A valid list, chunked, of about 400 MB: only a reader that stops early keeps up.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return this.stream(req, res, '{"kind":"List","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"first"}}', HUGE_BYTES, `,{"metadata":{"name":"pod","annotations":{"a":"${'y'.repeat(1000)}"}}}`, ']}');
      case 'endless-body':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return this.stream(req, res, '{"items":[', Infinity);
    }
  }

  /** Writes `head`, then `unit` (garbage by default) as fast as the client reads, up to `bytes` in all, then `tail`. */
  private stream(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, head: string, bytes: number, unit?: string, tail = ''): void {
    const piece = unit ? Buffer.from(unit.repeat(Math.max(1, Math.floor(GARBAGE.length / unit.length)))) : GARBAGE;
    let sent = 0;
    let closed = false;
    res.on('close', () => (closed = true));
    req.socket.on('close', () => (closed = true));
    res.write(head);
    const pump = () => {
      while (!closed && sent < bytes) {
        sent += piece.length;
        this.streamedBytes += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!closed) res.end(tail);
    };
    pump();
  }

  private body(target: Route, kind: string, params: URLSearchParams): string | undefined {
    const namespace = CLUSTER_SCOPED.has(kind) ? undefined : target.namespace;
    const source = this.source ?? this.fixtureSource();
    const total = source.count(kind, namespace);
    if (target.name) {
      const found = source.slice(kind, namespace, 0, total).find((o) => o.metadata?.name === target.name);
      return found ? JSON.stringify(found) : undefined;
    }
    const offset = params.get('continue') ? Number(Buffer.from(params.get('continue')!, 'base64url').toString()) : 0;
    const limit = Number(params.get('limit') ?? 0) || total;
    const page = source.slice(kind, namespace, offset, offset + limit);
    const next = offset + limit < total ? Buffer.from(String(offset + limit)).toString('base64url') : undefined;
    // A real list answer: items carry neither apiVersion nor kind, the list does.
    const items = page.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
    return JSON.stringify({ kind: `${kind}List`, apiVersion: 'v1', metadata: { resourceVersion: '12345', ...(next ? { continue: next } : {}) }, items });
  }

  private fixtureSource(): ObjectSource {
    const matching = (kind: string, namespace: string | undefined) => this.objects.filter((o) => o.kind === kind && (!namespace || (o.metadata?.namespace ?? 'default') === namespace));
    return { count: (kind, namespace) => matching(kind, namespace).length, slice: (kind, namespace, start, end) => matching(kind, namespace).slice(start, end) };
  }
}

/** A URL on 127.0.0.1 where nothing listens. */
export async function downUrl(): Promise<string> {
  const { cert, key } = selfSignedCertificate();
  const server = createServer({ cert, key });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `https://127.0.0.1:${port}`;
}
