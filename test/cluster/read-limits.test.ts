import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { readLiveCluster, type ClusterRequest } from '../../server/src/cluster/load';
import { DEFAULT_READ_LIMITS } from '../../server/src/cluster/read-limits';
import { FakeApiServer } from './fake-apiserver';
import { tempDir, writeKubeconfig } from './kubeconfig-fixtures';

const MiB = 1024 * 1024;

// Each case reproduces a server that once made a read run forever or run out of memory.
describe('a read of a cluster is bounded, whatever the server sends', () => {
  let server: FakeApiServer;
  let kubeconfig: string;
  const request = (extra: Partial<ClusterRequest> = {}): ClusterRequest => ({ kubeconfig, trusted: true, env: {}, timeoutMs: 20_000, ...extra });
  const reasonFor = async (plural: string, extra: Partial<ClusterRequest> = {}) => {
    const cluster = await readLiveCluster(request(extra));
    const missing = cluster.missing.find((m) => m.resource === plural);
    assert.ok(missing, `${plural} is reported missing (missing: ${JSON.stringify(cluster.missing)})`);
    assert.equal(cluster.missing.length, 1, 'only the faulty type is missing');
    return missing.reason;
  };

  before(async () => {
    server = await FakeApiServer.start(demoObjects());
    kubeconfig = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'test', server: server.url, ca: server.ca, token: 'reader-token' }], 'test');
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.faults.clear();
    server.streamedBytes = 0;
  });
  after(() => server.stop());

  it('stops a list whose continue tokens never end at the page cap', async () => {
    server.faults.set('pods', 'endless-continue');
    const reason = await reasonFor('pods', { limits: { maxPages: 40 } });
    assert.equal(reason, 'the list did not end after 40 pages of 500: the server\'s paging does not end');
    assert.equal(server.requests.filter((r) => r.path === '/api/v1/pods').length, 40);
  });

  it('stops a list whose server sends the same continue token twice, naming the page that repeated it', async () => {
    server.faults.set('nodes', 'repeated-continue');
    const reason = await reasonFor('nodes');
    assert.equal(reason, 'the server sent the same continue token again (page 2, as page 1 did): its paging goes round in a circle');
    assert.equal(server.requests.filter((r) => r.path === '/api/v1/nodes').length, 2);
  });

  it('refuses an answer that declares 400 MB before reading its body', async () => {
    server.faults.set('deployments', 'huge-declared');
    const reason = await reasonFor('deployments');
    assert.equal(reason, `the answer is larger than ${DEFAULT_READ_LIMITS.maxResponseBytes / MiB} MB, the most one answer may be`);
    assert.ok(server.streamedBytes < 2 * DEFAULT_READ_LIMITS.maxResponseBytes, `stopped early (${server.streamedBytes} bytes left the server)`);
  });

  it('refuses a valid 400 MB list sent without a length, once the cap has arrived, holding no more', async () => {
    server.faults.set('pods', 'huge-list');
    const reason = await reasonFor('pods');
    assert.match(reason, /^the answer is larger than 64 MB/);
    // What left the server: the cap, plus what socket buffers held when the reader hung up.
    assert.ok(server.streamedBytes < DEFAULT_READ_LIMITS.maxResponseBytes + 16 * MiB, `${server.streamedBytes} bytes left the server`);
  });

  it('refuses an answer without end at the cap', async () => {
    server.faults.set('services', 'endless-body');
    const reason = await reasonFor('services', { limits: { maxResponseBytes: 4 * MiB } });
    assert.equal(reason, 'the answer is larger than 4 MB, the most one answer may be');
    assert.ok(server.streamedBytes < 20 * MiB, `${server.streamedBytes} bytes left the server`);
  });

  it('caps what the whole read receives, over every answer', async () => {
    server.faults.set('pods', 'endless-body');
    const cluster = await readLiveCluster(request({ limits: { maxResponseBytes: 4 * MiB, maxTotalBytes: 2 * MiB } }));
    const pods = cluster.missing.find((m) => m.resource === 'pods');
    assert.equal(pods?.reason, 'the cluster sent more than 2 MB in one read, the most a read may receive');
    assert.ok(server.streamedBytes < 16 * MiB, `${server.streamedBytes} bytes left the server`);
  });

  it('stops a list whose pages would fill the heap before the next page, with the numbers, in a process of 256 MB heap', async () => {
    server.faults.set('pods', 'endless-large-pages');
    const child = spawn(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', join(__dirname, 'small-heap-read.ts'), kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | string | null>((resolve) => child.on('close', (exit, signal) => resolve(exit ?? signal)));
    assert.equal(code, 0, `the reading process ended with ${code}: ${stderr.slice(-600)}`);
    const missing = JSON.parse(stdout) as { resource: string; reason: string }[];
    assert.equal(missing.length, 1, stdout);
    assert.equal(missing[0].resource, 'pods');
    assert.match(missing[0].reason, /^this process holds \d+ MB, more than the \d+ MB a read may let it hold \(its memory limit is \d+ MB\): the read stopped here rather than run out of memory \(for the CLI, NODE_OPTIONS=--max-old-space-size=<MB> raises the limit\)$/);
    // Pages of 4 MB kept coming: the read stopped on what it held, far below its byte cap.
    assert.ok(server.requests.filter((r) => r.path === '/api/v1/pods').length >= 20, `${server.requests.length} requests`);
  });

  it('stops taking objects past the read\'s object cap (lowered to 2,000): the endless list stops, the other types still fit', async () => {
    server.faults.set('pods', 'endless-large-pages');
    const reason = await reasonFor('pods', { limits: { maxObjects: 2_000 } });
    assert.equal(reason, 'this answer would take the read past 2,000 objects (no cluster Kubernetes supports holds that many): the read stopped here');
    assert.ok(server.requests.filter((r) => r.path === '/api/v1/pods').length <= 5);
  });

  it('gives back the place of a list that failed partway under the object cap: the other types still fit', async () => {
    server.faults.set('pods', 'endless-large-pages');
    // One type at a time: the nodes, three pages of 500 pods, then the page cap; the types read after the pods
    // find the 1,500 places the pods took given back.
    const reason = await reasonFor('pods', { limits: { maxObjects: 1_520, maxPages: 3 }, concurrency: 1 });
    assert.equal(reason, 'the list did not end after 3 pages of 500: the server\'s paging does not end');
  });

  it('takes smaller answers in a process with a small memory limit: an answer is parsed whole, and can take 19 times its size', () => {
    const largest = (heapMb: number) =>
      Number(
        execFileSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--import', 'tsx', '-e', "console.log(require('./server/src/cluster/read-limits').DEFAULT_READ_LIMITS.maxResponseBytes)"], { encoding: 'utf8' }),
      );
    assert.equal(largest(4096), 64 * MiB);
    assert.ok(largest(256) < 8 * MiB, `${largest(256)} bytes`);
  });

  it('ends a read whose server never answers at one deadline for the whole read, and says so', async () => {
    server.faults.set('*', 'stall');
    const started = Date.now();
    await assert.rejects(readLiveCluster(request({ timeoutMs: 2_000 })), (error: Error) => {
      assert.match(error.message, /cannot read cluster "test-cluster" at https:\/\/127\.0\.0\.1:\d+ \(context "test"\): the read did not finish within 2s$/);
      return true;
    });
    // Fifteen types, four at a time: with a deadline per request the other eleven were asked in turn, and it took four times as long.
    assert.equal(server.requests.length, 4);
    assert.ok(Date.now() - started < 7_000, `took ${Date.now() - started} ms`);
  });

  it('gives up on a server that answers 429 for ever within the deadline', async () => {
    server.faults.set('*', { status: 429, retryAfter: 5 });
    const started = Date.now();
    await assert.rejects(readLiveCluster(request({ timeoutMs: 1_500 })), /the read did not finish within 1\.5s$/);
    assert.ok(Date.now() - started < 6_000, `took ${Date.now() - started} ms`);
  });

  it('leaves out list items that are null or not objects, and counts them', async () => {
    server.faults.set('pods', 'null-items');
    const cluster = await readLiveCluster(request());
    assert.deepEqual(cluster.missing, []);
    assert.deepEqual(cluster.skipped, [{ resource: 'pods', count: 4 }]);
    assert.deepEqual(cluster.resources.filter((r) => r.kind === 'Pod').map((r) => r.name), ['real-pod']);
  });

  it('takes an item\'s kind from the list it is in (an item saying `kind: pod` is a Pod, slimmed as one: no env)', async () => {
    server.faults.set('pods', 'odd-kind');
    const cluster = await readLiveCluster(request());
    const pod = cluster.resources.find((r) => r.name === 'odd-pod')!;
    assert.equal(pod.kind, 'Pod');
    assert.doesNotMatch(JSON.stringify(pod.object), /hunter2|PASSWORD/);
  });

  it('names an answer whose Content-Length is shorter than its body by its path (the query is its own paging, no secret to hide), not in the HTTP parser\'s words', async () => {
    server.faults.set('nodes', 'short-content-length');
    const reason = await reasonFor('nodes');
    assert.match(reason, /^the answer to https:\/\/127\.0\.0\.1:\d+\/api\/v1\/nodes is malformed/);
    assert.match(reason, / is malformed: its Content-Length \(\d+ bytes\) is shorter than what the server sent, which cuts the answer short \(HPE_INVALID_CONSTANT\)$/);
  });

  it('names a body cut short, and one that is not JSON, without echoing control characters', async () => {
    server.faults.set('nodes', 'truncated');
    assert.match(await reasonFor('nodes'), /^the answer is not JSON \(\{"kind":"NodeList"/);
    server.faults.clear();
    server.faults.set('nodes', 'non-json');
    const reason = await reasonFor('nodes');
    assert.match(reason, /^the answer is not JSON \(<html><body>\\u001b\[31mGateway says hello\\u0007<\/body>/);
    assert.doesNotMatch(reason, /[\u0000-\u001f]/);
  });

  it('names an answer compressed though the request did not ask for it, rather than calling it not JSON', async () => {
    server.faults.set('nodes', 'gzipped');
    assert.equal(await reasonFor('nodes'), 'the answer is compressed (Content-Encoding: gzip), which the request did not ask for: a proxy on the way may be compressing it');
  });
});
