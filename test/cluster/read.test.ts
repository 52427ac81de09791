import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { ClusterError } from '../../server/src/cluster/errors';
import { readLiveCluster, type ClusterRequest } from '../../server/src/cluster/load';
import { RESOURCE_TYPES } from '../../server/src/cluster/read';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { singleReplica } from '../../server/src/rules/single-replica';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { downUrl, FakeApiServer } from './fake-apiserver';
import { tempDir, writeKubeconfig } from './kubeconfig-fixtures';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-password', namespace: 'shop' }, data: { password: 'aHVudGVyMg==' } };
/** What gives a namespace's containers their memory when they state none: read, so that they are not said to have none. */
const limitRange = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'memory', namespace: 'shop' }, spec: { limits: [{ type: 'Container', default: { memory: '512Mi' } }] } };
/** The objects a read gets: the demo's and the LimitRange (never the Secret). */
const READ_OBJECTS = demoObjects().length + 1;

function withManagedFields(object: any): any {
  return { ...object, metadata: { ...object.metadata, managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': {} } }] } };
}

describe('reading a live cluster (GET only)', () => {
  let server: FakeApiServer;
  let kubeconfig: string;
  const request = (extra: Partial<ClusterRequest> = {}): ClusterRequest => ({ kubeconfig, trusted: true, env: {}, ...extra });

  /** A kubeconfig of this cluster whose user is `user`, written as `file` in `folder`, where its relative files lie. */
  const withUser = (user: Record<string, unknown>, folder = tempDir(), file = 'config') => writeKubeconfig(join(folder, file), [{ name: 'test', server: server.url, ca: server.ca, user }], 'test');
  /** The Authorization headers a whole read with `config` sent. */
  const authorizationsOf = async (config: string, what?: string) => {
    server.requests.length = 0;
    assert.deepEqual((await readLiveCluster(request({ kubeconfig: config }))).missing, [], what);
    return [...new Set(server.requests.map((r) => r.authorization))];
  };

  before(async () => {
    server = await FakeApiServer.start([...demoObjects().map(withManagedFields), limitRange, secret]);
    kubeconfig = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'test', server: server.url, ca: server.ca, token: 'reader-token' }], 'test');
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.forbidden.clear();
    server.slow.clear();
    server.dropMidBody.clear();
    server.throttle.clear();
    server.expireContinue.clear();
    server.closeKeptAliveConnections = false;
    server.closedKeptAlive = 0;
  });
  after(async () => {
    assert.deepEqual(server.writes(), [], 'nothing but GET may ever reach a cluster');
    await server.stop();
  });

  it('reads every resource type the engine needs, with the token of the context, and when', async () => {
    const started = Date.now();
    const cluster = await readLiveCluster(request());
    assert.ok(cluster.readAt! >= started && cluster.readAt! <= Date.now(), 'the read\'s time: what a NotReady node\'s taint time is counted against');
    assert.equal(cluster.source, 'live');
    assert.equal(cluster.name, 'test');
    assert.deepEqual(cluster.missing, []);
    assert.equal(cluster.resources.length, READ_OBJECTS);
    const kinds = new Set(cluster.resources.map((r) => r.kind));
    for (const kind of ['Node', 'Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'Service', 'EndpointSlice', 'LimitRange', 'Lease', 'ConfigMap']) assert.ok(kinds.has(kind), kind);
    assert.ok(server.requests.every((r) => r.authorization === 'Bearer reader-token'));
    assert.equal(cluster.topology.controlPlaneCount, 1);
  });

  it('sends the token of the file a user names, as `tokenFile` (kubectl\'s field) or `token-file`, the file winning over a token beside it as in kubectl', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'token'), 'from-file\n');
    for (const field of ['tokenFile', 'token-file']) {
      assert.deepEqual(await authorizationsOf(withUser({ token: 'stale', [field]: 'token' }, home, `config-${field}`), field), ['Bearer from-file'], field);
    }
    // A file that cannot be read leaves the token beside it standing, as in kubectl.
    assert.deepEqual(await authorizationsOf(withUser({ token: 'reader-token', tokenFile: 'gone' }, home, 'config-gone')), ['Bearer reader-token']);
  });

  it('reads the token file of an auth provider beside the kubeconfig, not in the folder the command runs in, and one named by its whole path where it is', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'provider-token'), 'from-provider-file\n');
    const provider = (tokenFile: string) => ({ 'auth-provider': { name: 'custom', config: { tokenFile } } });
    assert.deepEqual(await authorizationsOf(withUser(provider('provider-token'), home)), ['Bearer from-provider-file']);
    assert.deepEqual(await authorizationsOf(withUser(provider(join(home, 'provider-token')))), ['Bearer from-provider-file'], 'a whole path is left as it is');
  });

  it('sends an OIDC id-token that has not expired, and refreshes none that has: nothing reaches the identity provider', async () => {
    const asked: string[] = [];
    const idp = createHttpServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    try {
      const jwt = (exp?: number) => ['{"alg":"none"}', JSON.stringify({ exp })].map((part) => Buffer.from(part).toString('base64url')).join('.') + '.sig';
      const idpIssuerUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
      const withToken = (token: string, refreshToken = 'keep-me') =>
        withUser({ 'auth-provider': { name: 'oidc', config: { 'client-id': 'kubectl', 'idp-issuer-url': idpIssuerUrl, 'id-token': token, 'refresh-token': refreshToken } } });
      const fresh = jwt(Math.floor(Date.now() / 1000) + 3600);
      assert.deepEqual(await authorizationsOf(withToken(fresh)), [`Bearer ${fresh}`]);
      for (const expired of [jwt(1000), 'not-a-jwt']) {
        await assert.rejects(readLiveCluster(request({ kubeconfig: withToken(expired) })), /the OIDC id-token of kubeconfig user ".*" has expired, and kube-resilience does not refresh it/, expired);
      }
      // As client-node reads them: a token without `exp` never expires, and one it has no refresh token for is not refreshed.
      const unending = jwt();
      assert.deepEqual(await authorizationsOf(withToken(unending)), [`Bearer ${unending}`]);
      await authorizationsOf(withToken(jwt(1000), ''));
      assert.deepEqual(asked, []);
    } finally {
      idp.close();
    }
  });

  it('never asks for Secrets and never sends anything but GET', async () => {
    await readLiveCluster(request());
    assert.ok(server.requests.length >= RESOURCE_TYPES.length);
    assert.ok(server.requests.every((r) => r.method === 'GET'));
    assert.ok(!server.requests.some((r) => r.path.includes('secrets')), 'no request for secrets');
  });

  it('pages through lists with limit and continue', async () => {
    const cluster = await readLiveCluster(request({ pageSize: 2 }));
    const podRequests = server.requests.filter((r) => r.path === '/api/v1/pods');
    const pods = demoObjects().filter((o) => o.kind === 'Pod').length;
    assert.equal(podRequests.length, Math.ceil(pods / 2));
    assert.ok(podRequests.every((r) => r.query.limit === '2'));
    assert.equal(podRequests.filter((r) => r.query.continue).length, podRequests.length - 1);
    assert.equal(cluster.resources.filter((r) => r.kind === 'Pod').length, pods);
  });

  it('waits and retries when the server answers 429 Too Many Requests', async () => {
    server.throttle.set('nodes', 2);
    const cluster = await readLiveCluster(request());
    assert.deepEqual(cluster.missing, []);
    assert.equal(server.requests.filter((r) => r.path === '/api/v1/nodes').length, 3);
    server.throttle.set('services', 10);
    const throttled = await readLiveCluster(request());
    assert.deepEqual(throttled.missing, [{ resource: 'services', reason: 'too many requests (429): too many requests, please try again later' }]);
  });

  it('sends a GET again, once, on a new connection when the server closed the kept-alive one it went out on', async () => {
    // The server answers only the first request of each connection: every answer came on a new one.
    server.closeKeptAliveConnections = true;
    const cluster = await readLiveCluster(request({ pageSize: 2 }));
    assert.deepEqual(cluster.missing, []);
    assert.equal(cluster.resources.length, READ_OBJECTS);
    assert.ok(server.closedKeptAlive > 0, 'requests did go out on kept-alive connections the server closed');
  });

  it('starts a list over once when its continue token has expired', async () => {
    server.expireContinue.add('pods');
    const cluster = await readLiveCluster(request({ pageSize: 3 }));
    assert.deepEqual(cluster.missing, []);
    const pods = demoObjects().filter((o) => o.kind === 'Pod').length;
    assert.equal(cluster.resources.filter((r) => r.kind === 'Pod').length, pods, 'no pod twice, none lost');
    assert.equal(server.requests.filter((r) => r.path === '/api/v1/pods' && !r.query.continue).length, 2);
  });

  it('counts the pages of a list started over once against the object cap: the pages before the restart are let go', async () => {
    server.expireContinue.add('pods');
    const cluster = await readLiveCluster(request({ pageSize: 3, limits: { maxObjects: READ_OBJECTS } }));
    assert.deepEqual(cluster.missing, []);
    assert.equal(cluster.resources.length, READ_OBJECTS);
  });

  it('gives items their apiVersion and kind and drops managedFields', async () => {
    const cluster = await readLiveCluster(request());
    const pod = cluster.resources.find((r) => r.kind === 'Pod')!;
    assert.equal(pod.apiVersion, 'v1');
    assert.equal(pod.object.kind, 'Pod');
    assert.equal(pod.object.metadata.managedFields, undefined);
    const hpa = cluster.resources.find((r) => r.kind === 'HorizontalPodAutoscaler')!;
    assert.equal(hpa.apiVersion, 'autoscaling/v2');
  });

  it('still answers when one type is forbidden, and says which and why', async () => {
    server.forbidden.add('pods');
    const cluster = await readLiveCluster(request());
    assert.deepEqual(cluster.missing.map((m) => m.resource), ['pods']);
    assert.match(cluster.missing[0].reason, /^forbidden \(403\): pods is forbidden: User "reader" cannot list/);
    assert.equal(cluster.resources.filter((r) => r.kind === 'Pod').length, 0);
    assert.ok(cluster.resources.some((r) => r.kind === 'Node'));
  });

  it('treats a type still unanswered at the deadline of the whole read as missing', async () => {
    server.slow.set('deployments', 6_000);
    const started = Date.now();
    const cluster = await readLiveCluster(request({ timeoutMs: 1_500 }));
    assert.ok(Date.now() - started < 5_000, 'did not wait for the slow answer');
    assert.deepEqual(cluster.missing, [{ resource: 'deployments', reason: 'the read did not finish within 1.5s' }]);
    assert.ok(cluster.resources.some((r) => r.kind === 'StatefulSet'));
  });

  it('treats a connection dropped in the middle of a body as missing, keeping no half list', async () => {
    server.dropMidBody.add('nodes');
    const cluster = await readLiveCluster(request());
    assert.equal(cluster.missing.length, 1);
    assert.equal(cluster.missing[0].resource, 'nodes');
    assert.match(cluster.missing[0].reason, /dropped/);
    assert.equal(cluster.resources.filter((r) => r.kind === 'Node').length, 0);
  });

  describe('KEDA ScaledObjects', () => {
    /** Scales the demo's Deployment legacy/billing between 5 and 10, with what a snapshot must never hold. */
    const scaledObject = {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'billing', namespace: 'legacy', annotations: { 'team.example.com/pager': 'hunter2' } },
      spec: { scaleTargetRef: { name: 'billing' }, minReplicaCount: 5, maxReplicaCount: 10, triggers: [{ type: 'rabbitmq', metadata: { host: 'amqp://reader:hunter2@rabbit:5672/' } }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], originalReplicaCount: 3 },
    };
    const billing = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: billing, namespace: legacy}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: billing}}\n  template:\n    metadata: {labels: {app: billing}}\n    spec: {containers: [{name: app, image: billing}]}\n`;
    const withScaledObject = async <T>(work: () => Promise<T>) => {
      const objects = server.objects;
      server.objects = [...objects, scaledObject];
      try {
        return await work();
      } finally {
        server.objects = objects;
        server.faults.delete('scaledobjects');
      }
    };

    it('reads them, slimmed to what KEDA scales between which counts, and counts the workloads they scale as scaled, in the cluster and in manifests', async () => {
      const cluster = await withScaledObject(() => readLiveCluster(request()));
      assert.deepEqual(cluster.missing, []);
      assert.ok(server.requests.some((r) => r.method === 'GET' && r.path === '/apis/keda.sh/v1alpha1/scaledobjects'));
      const read = cluster.resources.find((r) => r.kind === 'ScaledObject')!;
      assert.equal(read.apiVersion, 'keda.sh/v1alpha1');
      assert.deepEqual(read.object.spec, { scaleTargetRef: { name: 'billing' }, minReplicaCount: 5, maxReplicaCount: 10 });
      assert.doesNotMatch(JSON.stringify(read.object), /hunter2|status/);
      const inventory = new Inventory();
      inventory.setCluster(cluster.resources);
      const deployment = cluster.resources.find((r) => r.kind === 'Deployment' && r.name === 'billing')!;
      assert.deepEqual(inventory.effectiveReplicas(deployment), { value: 5, source: 'hpa', hpa: read });
      assert.deepEqual(buildSimInputs(inventory, cluster).workloads.find((w) => w.name === 'billing')!.hpa, { min: 5, max: 10, keda: true }, 'the simulator scales it as KEDA would');
      const manifest = parseManifest('file:///w/billing.yaml', billing);
      inventory.setFile(manifest);
      assert.deepEqual(analyzeFile(manifest, inventory, { rules: [singleReplica], cluster }).map((f) => f.message), [], 'one replica written, but the cluster\'s ScaledObject keeps 5');
    });

    it('reads none, quietly, from a cluster without KEDA (its API answers 404)', async () => {
      const cluster = await withScaledObject(() => {
        server.faults.set('scaledobjects', { status: 404 });
        return readLiveCluster(request());
      });
      assert.deepEqual(cluster.missing, []);
      assert.equal(cluster.resources.filter((r) => r.kind === 'ScaledObject').length, 0);
      assert.ok(cluster.resources.some((r) => r.kind === 'Deployment'));
    });

    it('says so when they are forbidden, as for any list', async () => {
      server.forbidden.add('scaledobjects');
      const cluster = await withScaledObject(() => readLiveCluster(request()));
      assert.deepEqual(cluster.missing.map((m) => m.resource), ['scaledobjects']);
      assert.match(cluster.missing[0].reason, /^forbidden \(403\): scaledobjects is forbidden: User "reader" cannot list/);
      assert.ok(cluster.resources.some((r) => r.kind === 'Deployment'));
    });
  });

  it('treats an absent kubeadm-config as an answer, not as missing', async () => {
    server.objects = server.objects.filter((o) => o.metadata?.name !== 'kubeadm-config');
    try {
      const cluster = await readLiveCluster(request());
      assert.deepEqual(cluster.missing, []);
    } finally {
      server.objects = [...demoObjects().map(withManagedFields), secret];
    }
  });

  it('fails with the server and the reason when the cluster is down', async () => {
    const down = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'down', server: await downUrl(), ca: server.ca }], 'down');
    await assert.rejects(readLiveCluster(request({ kubeconfig: down })), (error: ClusterError) => {
      assert.equal(error.kind, 'unreachable');
      assert.match(error.message, /cannot read cluster "down-cluster" at https:\/\/127\.0\.0\.1:\d+ \(context "down"\): connection refused/);
      return true;
    });
  });

  for (const [name, status, body, says] of [
    ['404 to everything (a wrong URL, a proxy in between): read as an empty cluster, exit 0', 404, '{"kind":"Status","code":404}', /not found|404/],
    ['{} to everything: two empty ConfigMaps, and nothing else', 200, '{}', /the answer is not a Node list/],
    ['a redirect, not followed: where it points is said (it said "HTTP 301" alone)', 301, '', /HTTP 301, redirected to https:\/\/moved\.example\/api \(not followed/],
  ] as const) {
    it(`fails when no list could be read, as for a cluster down: a server answering ${name}`, async () => {
      const web = createHttpServer((_request, response) => response.writeHead(status, { 'content-type': 'application/json', location: 'https://moved.example/api' }).end(body));
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      try {
        const config = join(tempDir(), 'config');
        writeFileSync(config, `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'http://127.0.0.1:${(web.address() as AddressInfo).port}', insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`);
        await assert.rejects(readLiveCluster(request({ kubeconfig: config })), (error: ClusterError) => {
          assert.equal(error.kind, 'unreachable');
          assert.match(error.message, says);
          return true;
        });
      } finally {
        web.close();
      }
    });
  }

  it('gives up on a server that accepts the connection but never completes the handshake, after one round of requests (it tried every type, four at a time)', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const sockets: Socket[] = [];
    silent.on('connection', (socket) => sockets.push(socket));
    try {
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const config = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'silent', server: url, ca: server.ca }], 'silent');
      const started = Date.now();
      await assert.rejects(readLiveCluster(request({ kubeconfig: config, connectTimeoutMs: 300, concurrency: 4 })), /could not connect to 127\.0\.0\.1:\d+ within 0\.3s/);
      assert.ok(Date.now() - started < 5_000);
      assert.ok(sockets.length <= 4, `${sockets.length} connections tried`);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('refuses a server whose certificate the kubeconfig does not trust', async () => {
    const untrusted = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'other-ca', server: server.url, token: 'reader-token' }], 'other-ca');
    await assert.rejects(readLiveCluster(request({ kubeconfig: untrusted })), /certificate is not trusted/);
  });

  it('names the tls-server-name the certificate does not hold, rather than the server\'s address and a setting already set', async () => {
    const trusted = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'named', server: server.url, ca: server.ca, token: 'reader-token' }], 'named');
    writeFileSync(trusted, readFileSync(trusted, 'utf8').replace(/(\n( +)server: .*\n)/, '$1$2tls-server-name: wrong.example\n'));
    await assert.rejects(readLiveCluster(request({ kubeconfig: trusted })), /the server's certificate is not valid for wrong\.example, the kubeconfig's tls-server-name: check it against the names the certificate holds/);
  });

  it('stops when cancelled', async () => {
    server.slow.set('nodes', 5_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await assert.rejects(readLiveCluster(request({ signal: controller.signal })), (error: ClusterError) => error.kind === 'cancelled');
    assert.ok(Date.now() - started < 3_000);
  });
});
