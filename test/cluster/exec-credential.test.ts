import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { ClusterError } from '../../server/src/cluster/errors';
import { readLiveCluster, type ClusterRequest } from '../../server/src/cluster/load';
import { FakeApiServer } from './fake-apiserver';
import { credentialScript, tempDir, writeKubeconfig, writeScript, type FixtureContext } from './kubeconfig-fixtures';

const skip = process.platform === 'win32' ? 'the plugin stand-ins are shell scripts' : false;

describe('exec credential plugins', { skip }, () => {
  let server: FakeApiServer;
  let dir: string;
  let pluginDir: string;

  before(async () => {
    server = await FakeApiServer.start(demoObjects());
    server.requiredToken = 'from-plugin';
    dir = tempDir();
    pluginDir = join(dir, 'plugins');
    mkdirSync(pluginDir);
    writeScript(join(pluginDir, 'cloud-login'), credentialScript('from-plugin', join(dir, 'cloud-login-ran')));
    writeScript(join(pluginDir, 'failing-login'), `echo 'error: refresh token expired; run "cloud auth login"' >&2\nexit 3`);
    writeScript(join(pluginDir, 'hanging-login'), 'sleep 30');
    writeScript(join(pluginDir, 'noisy-login'), `printf '\\033[2J\\033]0;pwned\\007token expired\\n' >&2\nexit 1`);
    writeScript(join(pluginDir, 'bare-token-login'), `echo sk-RAWTOKEN-1234567890`);
    writeScript(join(pluginDir, 'object-token-login'), `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":{"a":1}}}'`);
    writeScript(join(pluginDir, 'number-key-login'), `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"c","clientKeyData":5}}'`);
    writeScript(join(pluginDir, 'number-certificate-login'), `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":5,"clientKeyData":"k"}}'`);
    writeScript(join(pluginDir, 'number-expiry-login'), `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin","expirationTimestamp":5}}'`);
    writeScript(join(pluginDir, 'expiring-login'), `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin","expirationTimestamp":"2099-01-01T00:00:00Z"}}'`);
    writeScript(join(pluginDir, 'flooding-login'), `head -c ${65 * 1024 * 1024} /dev/zero`);
  });
  after(async () => {
    assert.deepEqual(server.writes(), []);
    await server.stop();
  });

  function kubeconfigWith(exec: FixtureContext['exec']): string {
    return writeKubeconfig(join(tempDir(), 'config'), [{ name: 'exec', server: server.url, ca: server.ca, exec }], 'exec');
  }

  const request = (kubeconfig: string, extra: Partial<ClusterRequest> = {}): ClusterRequest => ({
    kubeconfig,
    trusted: true,
    env: { PATH: '/usr/bin:/bin' },
    extraPath: [pluginDir],
    ...extra,
  });

  async function failure(promise: Promise<unknown>): Promise<ClusterError> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof ClusterError, String(error));
      return error;
    }
    assert.fail('expected the read to fail');
  }

  it('runs a plugin found on the extra path and sends the token it prints', async () => {
    const cluster = await readLiveCluster(request(kubeconfigWith({ command: 'cloud-login', args: ['token'] })));
    assert.deepEqual(cluster.missing, []);
    assert.ok(cluster.resources.length > 0);
    assert.ok(server.requests.every((r) => r.authorization === 'Bearer from-plugin'));
  });

  it('sends the token of a credential that says when it expires, in the text the API gives that time', async () => {
    server.requests.length = 0;
    assert.deepEqual((await readLiveCluster(request(kubeconfigWith({ command: 'expiring-login' })))).missing, []);
    assert.ok(server.requests.length > 0 && server.requests.every((r) => r.authorization === 'Bearer from-plugin'));
  });

  it('resolves a relative command against the kubeconfig directory, as kubectl does', async () => {
    const home = tempDir();
    writeScript(join(home, 'login.sh'), credentialScript('from-plugin'));
    const kubeconfig = writeKubeconfig(join(home, 'config'), [{ name: 'exec', server: server.url, ca: server.ca, exec: { command: './login.sh' } }], 'exec');
    const cluster = await readLiveCluster(request(kubeconfig, { extraPath: [] }));
    assert.deepEqual(cluster.missing, []);
  });

  it('an exec section of the wrong shape is said to be, without running anything (a command that is a list was "a bug")', async () => {
    for (const [exec, says] of [
      [{ command: ['cloud-login'] }, /exec section whose command is not a string/],
      [{ command: 'cloud-login', args: [['token']] }, /exec section whose args is not a list of strings/],
      [{ command: 'cloud-login', env: [{ name: 1, value: 'x' }] }, /exec section whose env is not a list of name and value strings/],
      [{ command: 'not-installed-login', installHint: 5 }, /exec section whose installHint is not a string/],
    ] as const) {
      const error = await failure(readLiveCluster(request(kubeconfigWith(exec as unknown as FixtureContext['exec']))));
      assert.equal(error.kind, 'config');
      assert.match(error.message, says);
    }
  });

  it('args that aliases of one long string make too long to run are said to be (written out in its cache key, 700 MB made the CLI call itself buggy)', { timeout: 30_000 }, async () => {
    const kubeconfig = join(tempDir(), 'config');
    writeFileSync(
      kubeconfig,
      `preferences: {long: &long "${'x'.repeat(2 ** 20)}"}\napiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: '${server.url}'}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: cloud-login, args: [${Array(700).fill('*long').join(', ')}]}}}]\ncontexts: [{name: exec, context: {cluster: c, user: u}}]\ncurrent-context: exec\n`,
    );
    const error = await failure(readLiveCluster(request(kubeconfig)));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /exec section whose command, args and env hold 734,003,211 characters, more than a command line carries/);
  });

  it('reads past an alias bomb in a field of the exec section it does not use (its cache key expanded it: 2 GB, then a crash)', { timeout: 30_000 }, async () => {
    const home = tempDir();
    const levels = ['x0: &x0 [' + Array(10).fill('"x"').join(', ') + ']', ...Array.from({ length: 8 }, (_, i) => `x${i + 1}: &x${i + 1} [${Array(10).fill(`*x${i}`).join(', ')}]`)];
    const kubeconfig = join(home, 'config');
    writeFileSync(
      kubeconfig,
      `${levels.join('\n')}\napiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: '${server.url}', certificate-authority-data: '${Buffer.from(server.ca).toString('base64')}'}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never, command: cloud-login, args: [token], extra: *x8}}}]\ncontexts: [{name: exec, context: {cluster: c, user: u}}]\ncurrent-context: exec\n`,
    );
    const cluster = await readLiveCluster(request(kubeconfig));
    assert.deepEqual(cluster.missing, []);
  });

  it('names the executable and the PATH searched when it is missing', async () => {
    const error = await failure(readLiveCluster(request(kubeconfigWith({ command: 'kr-test-absent-login', installHint: 'Install it with cloudctl components install kr-test-absent-login.' }))));
    assert.equal(error.kind, 'credentials');
    assert.match(error.message, /exec credential plugin "kr-test-absent-login" \(user "exec-user"\) was not found/);
    assert.ok(error.message.includes(`searched ${pluginDir}:/usr/bin:/bin`), error.message);
    assert.match(error.message, /kubeResilience\.extraPath/);
    assert.match(error.message, /cloudctl components install/);
  });

  it('shows what a failing plugin wrote to stderr', async () => {
    const error = await failure(readLiveCluster(request(kubeconfigWith({ command: 'failing-login' }))));
    assert.match(error.message, /exec credential plugin "failing-login" failed \(exit 3\): error: refresh token expired; run "cloud auth login"/);
  });

  it('shows no terminal escapes from a plugin\'s stderr, and never echoes what it printed instead of JSON (a bare token)', async () => {
    const noisy = await failure(readLiveCluster(request(kubeconfigWith({ command: 'noisy-login' }))));
    assert.match(noisy.message, /failed \(exit 1\): .*token expired$/);
    assert.doesNotMatch(noisy.message, /[\u0000-\u001f]/);
    const bare = await failure(readLiveCluster(request(kubeconfigWith({ command: 'bare-token-login' }))));
    assert.equal(bare.message, 'exec credential plugin "bare-token-login" printed no ExecCredential JSON (22 characters of something else, not shown: it may be a credential)');
  });

  it('refuses an ExecCredential whose token or key is not text (a token {"a":1} was sent as "Bearer [object Object]", a key 5 was "a bug")', async () => {
    const before = server.requests.length;
    for (const [command, field] of [
      ['object-token-login', 'token'],
      ['number-key-login', 'clientKeyData'],
      ['number-certificate-login', 'clientCertificateData'],
      ['number-expiry-login', 'expirationTimestamp'],
    ]) {
      const error = await failure(readLiveCluster(request(kubeconfigWith({ command }))));
      assert.equal(error.message, `exec credential plugin "${command}" returned a malformed ExecCredential: status.${field} is not a string`);
    }
    assert.equal(server.requests.length, before, 'nothing is sent with it');
  });

  it('says a plugin printed more than the 64 MB a plugin may print, rather than that it could not start', async () => {
    const error = await failure(readLiveCluster(request(kubeconfigWith({ command: 'flooding-login' }))));
    assert.equal(error.kind, 'credentials');
    assert.equal(error.message, 'exec credential plugin "flooding-login" printed more than 64 MB, the most a credential plugin may print; it was stopped');
  });

  it('a plugin that hangs ends with the deadline of the whole read, when that is shorter than its own', async () => {
    const started = Date.now();
    const error = await failure(readLiveCluster(request(kubeconfigWith({ command: 'hanging-login' }), { timeoutMs: 500 })));
    assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
    assert.match(error.message, /did not answer within 0.5s/);
  });

  it('times out a plugin that hangs', async () => {
    const started = Date.now();
    const error = await failure(readLiveCluster(request(kubeconfigWith({ command: 'hanging-login' }), { execTimeoutMs: 400 })));
    assert.ok(Date.now() - started < 5_000);
    assert.match(error.message, /exec credential plugin "hanging-login" did not answer within 0.4s \(does it wait for a login/);
  });

  it('refuses exec plugins in an untrusted workspace without starting any process', async () => {
    const marker = join(dir, 'cloud-login-ran');
    const fresh = join(pluginDir, 'fresh-login');
    const freshMarker = join(dir, 'fresh-ran');
    writeScript(fresh, credentialScript('from-plugin', freshMarker));
    const before = server.requests.length;
    const error = await failure(readLiveCluster(request(kubeconfigWith({ command: 'fresh-login' }), { trusted: false })));
    assert.match(error.message, /gets its credentials by running "fresh-login"; exec credential plugins run only in a trusted workspace/);
    assert.equal(existsSync(freshMarker), false, 'the plugin never ran');
    assert.equal(server.requests.length, before, 'nothing was sent either');
    assert.ok(existsSync(marker), 'the marker mechanism works (the trusted test ran its plugin)');
  });
});
