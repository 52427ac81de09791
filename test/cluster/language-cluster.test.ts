import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createMessageConnection, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { serverReader } from '../protocol/lsp-client';
import { demoObjects } from '../../server/src/cluster/demo';
import type { ContextListing } from '../../server/src/cluster/contexts';
import { Methods, type ClusterFindingsResult, type ClusterStatus, type ContextsParams } from '../../server/src/protocol';
import { FakeApiServer } from './fake-apiserver';
import { closedPort, credentialScript, tempDir, writeKubeconfig, writeScript } from './kubeconfig-fixtures';

/** The language server from source (no bundle needed), with its cluster notifications collected. */
class Server {
  readonly statuses: ClusterStatus[] = [];
  readonly diagnostics: { uri: string }[] = [];
  private readonly waiters: (() => void)[] = [];
  readonly connection: MessageConnection;

  constructor(readonly child: ChildProcess) {
    this.connection = createMessageConnection(serverReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.connection.onNotification(Methods.clusterStatus, (status: ClusterStatus) => this.record(() => this.statuses.push(status)));
    this.connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string }) => this.record(() => this.diagnostics.push(params)));
    this.connection.onRequest(() => null);
    this.connection.listen();
  }

  static start(home: string): Server {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
    delete env.KUBECONFIG;
    return new Server(spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env }));
  }

  private record(push: () => void): void {
    push();
    for (const wake of this.waiters.splice(0)) wake();
  }

  async until<T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async initialize(settings: object): Promise<void> {
    await this.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings } });
    await this.connection.sendNotification('initialized', {});
  }

  settings(settings: object): Promise<void> {
    return this.connection.sendNotification('workspace/didChangeConfiguration', { settings: { kubeResilience: settings } });
  }

  async stop(): Promise<void> {
    this.connection.dispose();
    this.child.kill();
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

const MANIFEST = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - name: web\n          image: web:1\n';

describe('the language server reads the cluster in the background', () => {
  let api: FakeApiServer;
  let kubeconfig: string;
  let server: Server;
  const home = tempDir('kr-home-');

  before(async () => {
    api = await FakeApiServer.start(demoObjects());
    kubeconfig = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'test', server: api.url, ca: api.ca, token: 't' }], 'test');
    server = Server.start(home);
  });
  after(async () => {
    await server.stop();
    assert.deepEqual(api.writes(), [], 'nothing but GET may reach the cluster');
    await api.stop();
  });

  it('announces the live cluster with its verdict after initialize', async () => {
    await server.initialize({ kubeconfig, trusted: true });
    const status = await server.until(() => server.statuses.find((s) => s.source === 'live'), 'a live cluster status');
    assert.deepEqual(status, { source: 'live', name: 'test', verdict: 'One control plane: while it is down there is no API, and nothing is rescheduled, replaced or scaled; running pods keep serving.', controlPlanes: 1, missing: [] });
  });

  it('answers clusterFindings with findings about the cluster itself', async () => {
    const result = await server.connection.sendRequest<ClusterFindingsResult>(Methods.clusterFindings, {});
    assert.ok(result.findings.length > 0);
    const adminConsole = result.findings.find((f) => f.ruleId === 'single-replica' && f.resource?.name === 'admin-console');
    assert.ok(adminConsole, 'single-replica for the admin console running in the cluster');
    assert.match(adminConsole.headline, /^Deployment admin-console runs 1 pod: one node drain or node failure takes it offline\.$/, 'the first sentence alone');
    assert.match(adminConsole.details, /control plane is down/, 'the rest: why and when');
  });

  it('re-reads on refreshCluster and lists what it could not read', async () => {
    api.forbidden.add('pods');
    try {
      const status = await server.connection.sendRequest<ClusterStatus>(Methods.refreshCluster, {});
      assert.equal(status.source, 'live');
      assert.deepEqual(status.missing.map((m) => m.resource), ['pods']);
    } finally {
      api.forbidden.clear();
    }
  });

  it('lists the contexts for Select Context: of the kubeconfig named, else of ~/.kube/config, and never from the cluster', async () => {
    const other = writeKubeconfig(join(tempDir(), 'other'), [{ name: 'staging', server: 'https://staging.invalid', namespace: 'shop' }, { name: 'prod', server: 'https://prod.invalid' }], 'prod');
    const listing = await server.connection.sendRequest<ContextListing>(Methods.listContexts, { kubeconfig: `${other}:${kubeconfig}` } satisfies ContextsParams);
    assert.deepEqual(listing.files, [other, kubeconfig]);
    assert.deepEqual(listing.contexts.map((c) => [c.name, c.namespace, c.file]), [['prod', undefined, other], ['staging', 'shop', other], ['test', undefined, kubeconfig]]);
    assert.equal(listing.current, 'prod', 'the first file\'s current-context, as kubectl merges them');
    const fallback = await server.connection.sendRequest<ContextListing>(Methods.listContexts, {});
    assert.deepEqual(fallback, { files: [join(home, '.kube', 'config')], contexts: [], problems: [] });
    await assert.rejects(server.connection.sendRequest(Methods.listContexts, { kubeconfig: 7 }), /kubeconfig must be a string/);
  });

  it('tells its status again, without reading the cluster, after settings that leave the cluster as it was (a client that cleans them otherwise showed "…" until the next read)', async () => {
    const before = server.statuses.length;
    const requests = api.requests.length;
    await server.settings({ kubeconfig, trusted: true, extraPath: ['  '] });
    const status = await server.until(() => server.statuses[before], 'the status told again');
    assert.equal(status.source, 'live');
    assert.equal(status.name, 'test');
    assert.equal(api.requests.length, requests, 'the cluster is not read again');
  });

  it('keeps answering diagnostics while a slow cluster is read', async () => {
    api.slow.set('nodes', 3_000);
    try {
      const before = server.statuses.length;
      await server.settings({ kubeconfig, trusted: true, context: 'test', extraPath: ['/nowhere'] });
      const uri = pathToFileURL(join(home, 'web.yaml')).toString();
      await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: MANIFEST } });
      await server.until(() => server.diagnostics.find((d) => d.uri === uri), 'diagnostics of the open file');
      assert.equal(server.statuses.length, before, 'diagnostics came before the slow cluster answered');
      const status = await server.until(() => server.statuses.slice(before).find((s) => s.source === 'live'), 'the slow cluster');
      assert.deepEqual(status.missing, []);
    } finally {
      api.slow.clear();
    }
  });

  it('falls back to the demo cluster when there is no kubeconfig at all, and says so', async () => {
    const before = server.statuses.length;
    await server.settings({ trusted: true });
    const status = await server.until(() => server.statuses[before], 'a status after the settings change');
    assert.equal(status.source, 'demo');
    assert.equal(status.name, 'demo');
    assert.match(status.verdict, /^One control plane: while it is down there is no API/);
    assert.match(status.fallback ?? '', /^Showing the embedded demo cluster: no kubeconfig found \(the default location: .*\)\.$/);
    const tree = await server.connection.sendRequest<ClusterFindingsResult>(Methods.clusterFindings, {});
    assert.ok(tree.findings.some((f) => f.ruleId === 'control-plane-single'), 'the tree view speaks of the demo cluster');
    const gpuPod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: render\nspec:\n  containers:\n    - name: r\n      image: r\n      resources:\n        limits:\n          nvidia.com/gpu: 1\n';
    const uri = 'file:///fallback/render.yaml';
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: gpuPod } });
    const published = (await server.until(() => server.diagnostics.find((d) => d.uri === uri), 'diagnostics of the GPU pod')) as unknown as { diagnostics: { code: string; message: string; relatedInformation: { message: string }[] }[] };
    const gpu = published.diagnostics.find((d) => d.code === 'gpu-untolerated');
    assert.ok(gpu, 'the GPU pod is still checked');
    assert.match(gpu.message, /^Pod render tolerates no GPU taint: where GPU nodes are tainted, its pods stay Pending\.$/, 'a manifest is not judged against the fallen-back demo cluster');
    assert.match(gpu.relatedInformation[0].message, /assuming GPU nodes carry the nvidia\.com\/gpu taint/, 'the rest of the message says what is assumed');
    assert.equal(published.diagnostics.some((d) => d.code === 'unschedulable'), false);
  });

  it('refuses an exec plugin in an untrusted workspace and reports why', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    writeScript(join(dir, 'login'), credentialScript('t', marker));
    const execConfig = writeKubeconfig(join(dir, 'config'), [{ name: 'exec', server: api.url, ca: api.ca, exec: { command: join(dir, 'login') } }], 'exec');
    const before = server.statuses.length;
    await server.settings({ kubeconfig: execConfig, trusted: false });
    const status = await server.until(() => server.statuses[before], 'a status after the settings change');
    assert.equal(status.source, 'none');
    assert.match(status.error ?? '', /exec credential plugins run only in a trusted workspace/);
    assert.equal(existsSync(marker), false);
    const findings = await server.connection.sendRequest<ClusterFindingsResult>(Methods.clusterFindings, {});
    assert.deepEqual(findings.findings, []);

    await server.settings({ kubeconfig: execConfig, trusted: true });
    const trusted = await server.until(() => server.statuses[before + 1], 'a status once trusted');
    assert.equal(trusted.source, 'live');
    assert.ok(existsSync(marker), 'once trusted, the plugin runs');
  });

  it('names the kubeconfig\'s current context and the cause in a few words when its cluster does not answer', async () => {
    const port = await closedPort();
    const config = writeKubeconfig(join(tempDir(), 'config'), [{ name: 'gone', server: `https://127.0.0.1:${port}`, token: 't' }], 'gone');
    const before = server.statuses.length;
    await server.settings({ kubeconfig: config, trusted: true });
    const status = await server.until(() => server.statuses[before], 'a status after the settings change');
    assert.equal(status.source, 'none');
    assert.equal(status.name, 'gone', 'the context in use, though no setting names it');
    assert.match(status.errorCause ?? '', /^connection refused/);
    assert.match(status.error ?? '', /cannot read cluster "gone-cluster" .*\(context "gone"\): connection refused/);
  });

  it('reads no cluster when the setting is off', async () => {
    const before = server.statuses.length;
    await server.settings({ cluster: 'off' });
    const status = await server.until(() => server.statuses[before], 'a status');
    assert.equal(status.source, 'none');
    assert.equal(status.error, undefined);
  });

  it('reads the cluster again when the kubeconfig\'s current-context changes on disk (kubectl config use-context), not when the rest of it does', async () => {
    const path = join(tempDir(), 'config');
    const contexts = [
      { name: 'test', server: api.url, ca: api.ca, token: 't' },
      { name: 'staging', server: api.url, ca: api.ca, token: 't' },
    ];
    writeKubeconfig(path, contexts, 'test');
    let before = server.statuses.length;
    await server.settings({ kubeconfig: path, trusted: true });
    assert.equal((await server.until(() => server.statuses[before], 'a status after the settings change')).name, 'test');
    before = server.statuses.length;
    writeKubeconfig(path, [...contexts, { name: 'added', server: 'https://added.invalid' }], 'test');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(server.statuses.length, before, 'a context added, the current one kept: nothing read again');
    // As kubectl writes it: the same file written over.
    writeKubeconfig(path, contexts, 'staging');
    const switched = await server.until(() => server.statuses[before], 'a status after use-context');
    assert.equal(switched.source, 'live');
    assert.equal(switched.name, 'staging');
    // As an editor saves it: a new file renamed over the old; to a context whose cluster does not answer.
    const port = await closedPort();
    const withGone = [...contexts, { name: 'gone', server: `https://127.0.0.1:${port}`, token: 't' }];
    before = server.statuses.length;
    writeKubeconfig(`${path}.tmp`, withGone, 'gone');
    renameSync(`${path}.tmp`, path);
    const gone = await server.until(() => server.statuses[before], 'a status after use-context gone');
    assert.deepEqual([gone.source, gone.name], ['none', 'gone'], 'the last context\'s cluster is not kept as if it were this one');
    const left = await server.connection.sendRequest<ClusterFindingsResult>(Methods.clusterFindings, {});
    assert.deepEqual(left.findings, []);
    before = server.statuses.length;
    writeKubeconfig(path, contexts, 'staging');
    assert.equal((await server.until(() => server.statuses[before], 'a status after use-context staging')).name, 'staging');
    before = server.statuses.length;
    await server.settings({ kubeconfig: path, trusted: true, context: 'test' });
    assert.equal((await server.until(() => server.statuses[before], 'a status after a context is set')).name, 'test');
    before = server.statuses.length;
    writeKubeconfig(path, contexts, 'test');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(server.statuses.length, before, 'with a context set, the current-context does not decide: nothing read again');
  });
});
