import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { FakeApiServer } from '../cluster/fake-apiserver';
import { tempDir, writeKubeconfig } from '../cluster/kubeconfig-fixtures';
import { CLI, runCli as run } from './run-cli';

// Each case is a way the command line once lost a file, hung, or printed what it must not.
describe('the command line against clusters that fail', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let api: FakeApiServer;
  let kubeconfig: string;
  const dir = tempDir('kr-cli-cluster-');

  before(async () => {
    api = await FakeApiServer.start(demoObjects());
    kubeconfig = writeKubeconfig(join(dir, 'kubeconfig'), [{ name: 'staging', server: api.url, ca: api.ca, token: 't' }, { name: 'down', server: 'https://127.0.0.1:9', ca: api.ca }], 'staging');
  });
  beforeEach(() => api.faults.clear());
  after(() => api.stop());

  it('snapshot -o leaves an existing FILE as it was when the cluster cannot be read', async () => {
    const file = join(dir, 'kept.json');
    writeFileSync(file, '{"the": "old snapshot"}');
    chmodSync(file, 0o640);
    const result = await run(['snapshot', '--kubeconfig', kubeconfig, '--context', 'down', '-o', file]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /connection refused/);
    assert.equal(readFileSync(file, 'utf8'), '{"the": "old snapshot"}');
    assert.equal(statSync(file).mode & 0o777, 0o640);
  });

  it('writes snapshots readable by their owner only, a new file and one it replaces', async () => {
    const fresh = join(dir, 'fresh.json');
    assert.equal((await run(['snapshot', '--kubeconfig', kubeconfig, '-o', fresh])).status, 0);
    assert.equal(statSync(fresh).mode & 0o777, 0o600);
    const shared = join(dir, 'shared.json');
    writeFileSync(shared, '{}');
    chmodSync(shared, 0o644);
    assert.equal((await run(['snapshot', '--kubeconfig', kubeconfig, '-o', shared])).status, 0);
    assert.equal(statSync(shared).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(shared, 'utf8')).items.length, demoObjects().length);
  });

  it('check --timeout ends a read of a stalled server at the deadline and says so', async () => {
    api.faults.set('*', 'stall');
    const started = Date.now();
    const result = await run(['check', 'examples/admin.yaml', '--kubeconfig', kubeconfig, '--timeout', '1']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^kube-resilience check: cannot read cluster "staging-cluster" at https:\/\/127\.0\.0\.1:\d+ \(context "staging"\): the read did not finish within 1s\n$/);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    for (const command of [['check'], ['simulate', '--fail', 'apiserver'], ['snapshot']]) {
      const bad = await run([...command, '--kubeconfig', kubeconfig, '--timeout', 'soon']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--timeout takes a number of seconds \(at most a day\), not "soon"/);
    }
  });

  it('simulate and snapshot take --timeout too', async () => {
    api.faults.set('*', 'stall');
    const simulate = await run(['simulate', '--fail', 'apiserver', '--kubeconfig', kubeconfig, '--timeout', '0.5']);
    assert.match(simulate.stderr, /the read did not finish within 0\.5s/);
    const snapshot = await run(['snapshot', '--kubeconfig', kubeconfig, '--timeout', '0.5']);
    assert.match(snapshot.stderr, /the read did not finish within 0\.5s/);
    const started = Date.now();
    const tiny = await run(['snapshot', '--kubeconfig', kubeconfig, '--timeout', '0.0004']);
    assert.equal(tiny.status, 2, 'a deadline under a millisecond is a millisecond, not none (and so 60 s)');
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });

  it('says which list items were not objects, and goes on', async () => {
    api.faults.set('pods', 'null-items');
    const result = await run(['check', 'examples/admin.yaml', '--kubeconfig', kubeconfig, '--fail-on', 'none']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /warning: 4 items of pods from staging were not an object \(null or a plain value\) and left out/);
    assert.doesNotMatch(result.stderr, /this is a bug/);
  });

  it('refuses a kubeconfig that is a device, a FIFO or a huge file, at once', async () => {
    const fifo = join(dir, 'fifo-config');
    execFileSync('mkfifo', [fifo]);
    const huge = join(dir, 'huge-config');
    writeFileSync(huge, '');
    truncateSync(huge, 20 * 1024 * 1024);
    const cases: [string, RegExp][] = [
      ['/dev/zero', /cannot read kubeconfig \/dev\/zero: not a regular file \(a device\)/],
      [fifo, /cannot read kubeconfig .*fifo-config: not a regular file \(a FIFO\)/],
      [huge, /cannot read kubeconfig .*huge-config: larger than 16 MB/],
    ];
    for (const [path, message] of cases) {
      const result = await run(['check', 'examples/admin.yaml', '--kubeconfig', path]);
      assert.equal(result.status, 2, path);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /this is a bug/);
    }
  });

  it('refuses certificate, key and token files that are not regular files', async () => {
    const config = join(dir, 'files-config');
    writeFileSync(
      config,
      [
        'apiVersion: v1', 'kind: Config', 'current-context: c',
        `clusters: [{name: c, cluster: {server: "${api.url}", certificate-authority: /dev/zero}}]`,
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
      ].join('\n'),
    );
    const ca = await run(['check', 'examples/admin.yaml', '--kubeconfig', config]);
    assert.match(ca.stderr, /cannot read certificate-authority \/dev\/zero: not a regular file \(a device\)/);
    writeFileSync(config, readFileSync(config, 'utf8').replace('certificate-authority: /dev/zero', 'insecure-skip-tls-verify: true').replace('{token: t}', '{token-file: /dev/zero}'));
    const token = await run(['check', 'examples/admin.yaml', '--kubeconfig', config]);
    assert.match(token.stderr, /cannot read token-file \/dev\/zero: not a regular file \(a device\)/);
  });

  it('names a plain-HTTP server behind an https URL, and a certificate for another name, in plain words', async () => {
    const http = await import('node:http');
    const plain = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const port = (plain.address() as import('node:net').AddressInfo).port;
      const config = writeKubeconfig(join(dir, 'plain'), [{ name: 'plain', server: `https://127.0.0.1:${port}`, ca: api.ca }], 'plain');
      const result = await run(['check', 'examples/admin.yaml', '--kubeconfig', config]);
      assert.match(result.stderr, /127\.0\.0\.1:\d+ does not speak TLS: is it a plain-HTTP port\? The kubeconfig says https\n$/);
      assert.doesNotMatch(result.stderr, /SSL routines|wrong version number|ERR_SSL/);
    } finally {
      plain.close();
    }
    const otherName = writeKubeconfig(join(dir, 'other-name'), [{ name: 'n', server: api.url.replace('127.0.0.1', 'localhost'), ca: api.ca }], 'n');
    const result = await run(['check', 'examples/admin.yaml', '--kubeconfig', otherName]);
    assert.match(result.stderr, /the server's certificate is not valid for localhost: check the server address, or set tls-server-name in the kubeconfig/);
  });

  it('says what to do about a gcp auth-provider that would run cmd-path', async () => {
    const config = join(dir, 'gcp-config');
    writeFileSync(
      config,
      [
        'apiVersion: v1', 'kind: Config', 'current-context: gke',
        `clusters: [{name: gke, cluster: {server: "${api.url}"}}]`,
        'users: [{name: gke-user, user: {auth-provider: {name: gcp, config: {cmd-path: /usr/lib/google-cloud-sdk/bin/gcloud, cmd-args: "config config-helper --format=json"}}}}]',
        'contexts: [{name: gke, context: {cluster: gke, user: gke-user}}]',
      ].join('\n'),
    );
    const result = await run(['check', 'examples/admin.yaml', '--kubeconfig', config]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /kubeconfig user "gke-user" uses the gcp auth-provider, which gets a new token by running "\/usr\/lib\/google-cloud-sdk\/bin\/gcloud"; kubectl dropped that provider in v1\.26/);
    assert.match(result.stderr, /gke-gcloud-auth-plugin/);
    assert.doesNotMatch(result.stderr, /Cannot read properties|this is a bug/);
  });
});
