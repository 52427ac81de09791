import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { demoObjects } from '../../server/src/cluster/demo';
import { Methods } from '../../server/src/protocol';
import { downUrl, FakeApiServer } from '../cluster/fake-apiserver';
import { tempDir, writeScript } from '../cluster/kubeconfig-fixtures';
import { selfSignedCertificate } from '../cluster/tls';
import { LspClient } from '../protocol/lsp-client';
import { CLI, runCli } from './run-cli';

const SERVER = resolve('dist/server.js');

/** Fake secrets, each recognisable wherever it would turn up. */
const SECRET = {
  token: 'kr-leak-static-token-5b1e',
  exec: 'kr-leak-exec-token-90c2',
  urlPassword: 'kr-leak-url-password-33d7',
  queryToken: 'kr-leak-query-token-a4f0',
  envContainer: 'kr-leak-env-container-11aa',
  envInit: 'kr-leak-env-init-22bb',
  envEphemeral: 'kr-leak-env-ephemeral-33cc',
  envCronJob: 'kr-leak-env-cronjob-44dd',
  envFromValue: 'kr-leak-env-valuefrom-55ee',
  annotation: 'kr-leak-annotation-66ff',
  lastApplied: 'kr-leak-last-applied-7788',
  secretData: 'kr-leak-secret-object-99aa',
};

function env(value: string) {
  return [{ name: 'PASSWORD', value }, { name: 'FROM', valueFrom: { secretKeyRef: { name: 'db', key: SECRET.envFromValue } } }];
}

/** Cluster objects that carry every secret somewhere a careless reader would copy it from. */
function leakyObjects(): any[] {
  const lastApplied = JSON.stringify({ kind: 'Deployment', spec: { template: { spec: { containers: [{ name: 'api', env: [{ name: 'P', value: SECRET.lastApplied }] }] } } } });
  const podSpec = (ephemeral: boolean) => ({
    containers: [{ name: 'api', image: 'api:1', env: env(SECRET.envContainer), envFrom: [{ secretRef: { name: 'db' } }] }],
    initContainers: [{ name: 'migrate', image: 'api:1', env: env(SECRET.envInit) }],
    ...(ephemeral ? { ephemeralContainers: [{ name: 'debug', image: 'busybox', env: env(SECRET.envEphemeral) }] } : {}),
  });
  const annotations = { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied, 'vault.example.com/agent-token': SECRET.annotation };
  return [
    ...demoObjects(),
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'leaky', namespace: 'shop', annotations }, spec: { replicas: 1, selector: { matchLabels: { app: 'leaky' } }, template: { metadata: { labels: { app: 'leaky' }, annotations }, spec: podSpec(false) } } },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'leaky-1', namespace: 'shop', labels: { app: 'leaky' }, annotations }, spec: { nodeName: 'worker-a1', ...podSpec(true) }, status: { phase: 'Running' } },
    { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'leaky-cron', namespace: 'shop' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'c:1', env: env(SECRET.envCronJob) }] } } } } } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' }, data: { password: Buffer.from(SECRET.secretData).toString('base64') } },
  ];
}

// Everything the product prints or writes, for a kubeconfig and a cluster full of fake secrets, is searched for every one of them.
describe('no secret reaches any output', { skip: existsSync(CLI) && existsSync(SERVER) ? false : 'dist/ is not built (npm run build)' }, () => {
  let api: FakeApiServer;
  const dir = tempDir('kr-no-secrets-');
  const kubeconfig = join(dir, 'kubeconfig');
  const outputs: { what: string; text: string }[] = [];
  let keyPieces: string[] = [];

  before(async () => {
    api = await FakeApiServer.start(leakyObjects());
    const client = selfSignedCertificate();
    // A line of the client key's PEM body, and a piece of the base64 the kubeconfig holds it in.
    const keyData = Buffer.from(client.key).toString('base64');
    keyPieces = [client.key.split('\n')[1], keyData.slice(40, 100)];
    const plugin = writeScript(join(dir, 'plugin.sh'), `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${SECRET.exec}"}}'`);
    const withPassword = (url: string) => url.replace('https://', `https://reader:${SECRET.urlPassword}@`) + `/?token=${SECRET.queryToken}`;
    const down = await downUrl();
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'static',
      clusters: [
        { name: 'live', cluster: { server: withPassword(api.url), 'certificate-authority-data': Buffer.from(api.ca).toString('base64') } },
        { name: 'down', cluster: { server: withPassword(down), 'certificate-authority-data': Buffer.from(api.ca).toString('base64') } },
        { name: 'plain', cluster: { server: withPassword('http://127.0.0.1:9') } },
        { name: 'broken', cluster: { server: `reader:${SECRET.urlPassword}@127.0.0.1 :6443` } },
      ],
      users: [
        { name: 'static', user: { token: SECRET.token, 'client-certificate-data': Buffer.from(client.cert).toString('base64'), 'client-key-data': keyData } },
        { name: 'exec', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' } } },
      ],
      contexts: [
        { name: 'static', context: { cluster: 'live', user: 'static' } },
        { name: 'exec', context: { cluster: 'live', user: 'exec' } },
        { name: 'down', context: { cluster: 'down', user: 'static' } },
        { name: 'plain', context: { cluster: 'plain', user: 'static' } },
        { name: 'broken', context: { cluster: 'broken', user: 'static' } },
      ],
    };
    writeFileSync(kubeconfig, stringify(config));
  });
  after(() => api.stop());

  const record = (what: string, text: string) => outputs.push({ what, text });
  const cli = async (what: string, args: string[]) => {
    const result = await runCli(args, {}, resolve('.'));
    record(`${what}: stdout`, result.stdout);
    record(`${what}: stderr`, result.stderr);
    return result;
  };

  it('the command line: check in every format, snapshot, simulate, and every error', async () => {
    for (const context of ['static', 'exec']) {
      for (const format of ['text', 'json', 'sarif']) {
        const result = await cli(`check ${context} ${format}`, ['check', 'examples', '--kubeconfig', kubeconfig, '--context', context, '--format', format, '--fail-on', 'none']);
        assert.equal(result.status, 0, result.stderr);
      }
    }
    const file = join(dir, 'snapshot.json');
    assert.equal((await cli('snapshot -o', ['snapshot', '--kubeconfig', kubeconfig, '-o', file])).status, 0);
    record('snapshot file', readFileSync(file, 'utf8'));
    const fromFile = await cli('check --snapshot', ['check', 'examples', '--snapshot', file, '--format', 'json', '--fail-on', 'none']);
    assert.equal(fromFile.status, 0, fromFile.stderr);
    const snapshot = await cli('snapshot stdout', ['snapshot', '--kubeconfig', kubeconfig, '--context', 'exec']);
    assert.ok(JSON.parse(snapshot.stdout).items.some((item: { metadata: { name: string } }) => item.metadata.name === 'leaky-1'), 'the leaky pod is in the snapshot, without its secrets');
    await cli('simulate', ['simulate', '--kubeconfig', kubeconfig, '--fail', 'apiserver', '--format', 'json']);
    for (const context of ['down', 'plain', 'broken']) {
      const failed = await cli(`check ${context}`, ['check', 'examples/admin.yaml', '--kubeconfig', kubeconfig, '--context', context]);
      assert.equal(failed.status, 2, failed.stderr);
      assert.match(failed.stderr, /kube-resilience check: /);
    }
    const down = outputs.find((o) => o.what === 'check down: stderr')!.text;
    assert.match(down, /at https:\/\/\*\*\*@127\.0\.0\.1:\d+\/\?token=\*\*\* \(context "down"\): connection refused/);
  });

  it('the language server: its stderr, every notification, the cluster status and findings', async () => {
    const server = LspClient.start(SERVER);
    const notifications: string[] = [];
    server.connection.onNotification((method, params) => void notifications.push(`${method} ${JSON.stringify(params)}`));
    const statuses: unknown[] = [];
    server.connection.onNotification(Methods.clusterStatus, (status) => void statuses.push(status));
    try {
      await server.initialize(pathToFileURL(dir).href, { settings: { kubeconfig, context: 'static', trusted: true } });
      const manifest = pathToFileURL(resolve('examples/admin.yaml')).href;
      await server.open(manifest, readFileSync('examples/admin.yaml', 'utf8'));
      await server.diagnostics(manifest);
      for (const context of ['static', 'exec', 'down', 'plain', 'broken']) {
        await server.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: { kubeconfig, context, trusted: true } } });
        const status = await server.request(Methods.refreshCluster);
        record(`language server refresh ${context}`, JSON.stringify(status));
        record(`language server findings ${context}`, JSON.stringify(await server.request(Methods.clusterFindings)));
      }
      assert.ok(statuses.length >= 5, `${statuses.length} cluster statuses`);
      assert.ok(outputs.some((o) => o.what === 'language server refresh down' && /connection refused/.test(o.text)));
    } finally {
      await server.shutdown().catch(() => server.kill());
      record('language server stderr', server.stderr.join(''));
      record('language server notifications', notifications.join('\n'));
      record('language server statuses', JSON.stringify(statuses));
    }
  });

  it('holds none of the secrets, anywhere', () => {
    assert.ok(outputs.length > 30);
    const secrets = [...Object.values(SECRET), ...keyPieces];
    const leaks = outputs.flatMap(({ what, text }) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${what} holds ${secret}`));
    assert.deepEqual(leaks, []);
    // Leftover temp files of the snapshot writer would be outputs too.
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
    assert.equal(statSync(join(dir, 'snapshot.json')).mode & 0o777, 0o600);
  });
});
