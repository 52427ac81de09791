import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { ClusterError } from '../../server/src/cluster/errors';
import { readLiveCluster } from '../../server/src/cluster/load';
import { RESOURCE_TYPES } from '../../server/src/cluster/read';
import { downUrl, FakeApiServer, FAULTS, faultName, type Fault } from './fake-apiserver';
import { tempDir, writeKubeconfig } from './kubeconfig-fixtures';
import { seeded } from '../fuzz/mutate';

const SEED = Number(process.env.KR_FUZZ_SEED ?? 20261202);
const RUNS_PER_CLASS = 3;
const TRANSPORT = ['refused', 'dns', 'tls-wrong-ca', 'tls-wrong-name', 'tls-plain-http', 'tls-silent'] as const;
type Transport = (typeof TRANSPORT)[number];
const PLURALS = RESOURCE_TYPES.map((t) => t.path.split('/').at(t.single ? -2 : -1)!);
const MiB = 1024 * 1024;

interface Outcome {
  fault: string;
  ms: number;
  deadlineMs: number;
  /** "read, N types missing" or "failed (kind)". */
  status: string;
  /** What the person was told (the error, or the first missing type's reason). */
  said?: string;
}

/** What a person may be shown: words, no internals, no OpenSSL, no control characters. */
function assertClear(text: string, context: string): void {
  assert.ok(text.length > 10, `${context}: "${text}" says nothing`);
  assert.doesNotMatch(text, /undefined|\[object|TypeError|ReferenceError|Cannot read propert|routines:|ERR_SSL|\n\s+at /, `${context}: ${text}`);
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f]/, `${context}: control characters in ${JSON.stringify(text)}`);
}

// Every fault class an API server (or the way to it) can show, several times each, in a seeded order,
// with a random deadline: every read ends by its deadline with a clear status, and never crashes.
describe('reading clusters that fail in every way, seeded', () => {
  let api: FakeApiServer;
  let plain: Server;
  let silent: ReturnType<typeof createNetServer>;
  const silentSockets: Socket[] = [];
  const dir = tempDir('kr-fuzz-');
  const urls: Record<Transport, string> = {} as Record<Transport, string>;
  const outcomes: Outcome[] = [];

  before(async () => {
    api = await FakeApiServer.start(demoObjects());
    plain = createHttpServer((_req, res) => res.end('{"kind":"Status"}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    silent = createNetServer((socket) => silentSockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    urls.refused = await downUrl();
    urls.dns = 'https://kube-api.kr-fuzz.invalid:6443';
    urls['tls-wrong-ca'] = api.url;
    urls['tls-wrong-name'] = api.url.replace('127.0.0.1', 'localhost');
    urls['tls-plain-http'] = `https://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    urls['tls-silent'] = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(async () => {
    plain.close();
    for (const socket of silentSockets) socket.destroy();
    silent.close();
    await api.stop();
    const byClass = new Map<string, Outcome[]>();
    for (const outcome of outcomes) byClass.set(outcome.fault, [...(byClass.get(outcome.fault) ?? []), outcome]);
    // The table docs/reliability.md quotes: class, cases, slowest run against its deadline, what was said.
    for (const [fault, runs] of byClass) {
      const slowest = runs.reduce((a, b) => (b.ms - b.deadlineMs > a.ms - a.deadlineMs ? b : a));
      const example = runs.find((r) => r.said)?.said;
      console.log(`fuzz | ${fault} | ${runs.length} | slowest ${slowest.ms} ms (deadline ${slowest.deadlineMs} ms) | ${[...new Set(runs.map((r) => r.status))].join(' / ')}${example ? ` | e.g. ${example}` : ''}`);
    }
  });

  it(`ends every run within its deadline with a clear status (seed ${SEED})`, async () => {
    const next = seeded(SEED); // repeat a failing run with KR_FUZZ_SEED
    const classes: (Fault | Transport)[] = [...FAULTS, ...TRANSPORT];
    const plan = classes.flatMap((fault) => Array.from({ length: RUNS_PER_CLASS }, () => fault));
    for (let i = plan.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [plan[i], plan[j]] = [plan[j], plan[i]];
    }
    for (const [index, fault] of plan.entries()) {
      const deadlineMs = 1_000 + Math.floor(next() * 2_000);
      const transport = typeof fault === 'string' && (TRANSPORT as readonly string[]).includes(fault) ? (fault as Transport) : undefined;
      api.faults.clear();
      if (!transport) api.faults.set(next() < 0.4 ? '*' : PLURALS[Math.floor(next() * PLURALS.length)], fault as Fault);
      const server = transport ? urls[transport] : api.url;
      const ca = transport === 'tls-wrong-ca' ? undefined : api.ca;
      const kubeconfig = writeKubeconfig(join(dir, `config-${index}`), [{ name: 'fuzz', server, ca, token: 'fuzz-token' }], 'fuzz');
      const name = transport ?? faultName(fault as Fault);
      const started = Date.now();
      let status: string;
      let said: string | undefined;
      try {
        const cluster = await readLiveCluster({
          kubeconfig,
          trusted: true,
          env: {},
          timeoutMs: deadlineMs,
          connectTimeoutMs: 800,
          pageSize: 1 + Math.floor(next() * 50),
          limits: { maxResponseBytes: 2 * MiB, maxPages: 50 },
        });
        for (const missing of cluster.missing) assertClear(missing.reason, `${name}: ${missing.resource}`);
        said = cluster.missing[0] && `${cluster.missing[0].resource}: ${cluster.missing[0].reason}`;
        status = cluster.missing.length ? `read, ${cluster.missing.length} of ${RESOURCE_TYPES.length} types missing` : cluster.skipped?.length ? 'read, items skipped and counted' : 'read whole';
      } catch (error) {
        assert.ok(error instanceof ClusterError, `${name}: a ${(error as Error).constructor.name} escaped: ${(error as Error).stack}`);
        assertClear(error.message, name);
        status = `failed (${error.kind})`;
        said = error.message;
      }
      const ms = Date.now() - started;
      // Slack for a machine under load (a shared CI runner took 6.4 s over a 1.3 s deadline); a read that ignores its
      // deadline hangs for good, so any slack still finds it.
      assert.ok(ms < deadlineMs + 10_000, `${name}: took ${ms} ms with a deadline of ${deadlineMs} ms`);
      outcomes.push({ fault: name, ms, deadlineMs, status, said: said?.replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:PORT') });
    }
    assert.equal(outcomes.length, plan.length);
  });
});
