// The connection to a cluster: behind a proxy (proxy-url), client-node's agent opens a tunnel with CONNECT, which
// must end with the read's deadline, and say what the proxy did; a client certificate is checked before it is used.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { demoObjects } from '../../server/src/cluster/demo';
import { readLiveCluster } from '../../server/src/cluster/load';
import { FakeApiServer } from './fake-apiserver';
import { until } from '../render/running-tools';
import { tempDir } from './kubeconfig-fixtures';
import { selfSignedCertificate } from './tls';

/** A kubeconfig whose cluster is reached through `proxy` (the server behind it is never reached here). */
function behindProxy(proxy: string): string {
  const path = join(tempDir(), 'config');
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:9', proxy-url: '${proxy}', insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
  );
  return path;
}

describe('a cluster behind a proxy', () => {
  let proxy: Server | undefined;
  const tunnels: Socket[] = [];
  afterEach(async () => {
    for (const socket of tunnels.splice(0)) socket.destroy();
    // A test that started none has none to close (a close never asked never calls back).
    if (proxy) await new Promise((done) => proxy!.close(done));
    proxy = undefined;
  });
  const start = async (onConnect: (socket: Socket) => void): Promise<string> => {
    proxy = createServer();
    proxy.on('connect', (_request, socket: Socket) => {
      tunnels.push(socket);
      socket.resume();
      onConnect(socket);
    });
    await new Promise<void>((done) => proxy!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  };

  it('names a proxy that is no URL, and where it is set, rather than the user\'s credentials ("Invalid URL")', async () => {
    for (const written of ['not a url', '127.0.0.1:3128', 'proxy.corp:3128', 'socks5:proxy.corp:1080', 'socks5://']) {
      await assert.rejects(readLiveCluster({ kubeconfig: behindProxy(written), trusted: true, env: {}, timeoutMs: 5_000 }), new RegExp(`the proxy \\(proxy-url\\) of cluster "c", "${written.replace(/\./g, '\\.')}", is not a proxy URL`));
    }
    const remote = join(tempDir(), 'config');
    writeFileSync(remote, readFileSync(behindProxy('http://unused:1'), 'utf8').replace("proxy-url: 'http://unused:1', ", '').replace('https://127.0.0.1:9', 'https://cluster.example:6443'));
    await assert.rejects(readLiveCluster({ kubeconfig: remote, trusted: true, env: { HTTPS_PROXY: 'http://bad host:80' }, timeoutMs: 5_000 }), /the proxy in HTTPS_PROXY, "http:\/\/bad host:80", is not a proxy URL/);
    const secret = await readLiveCluster({ kubeconfig: remote, trusted: true, env: { HTTPS_PROXY: 'http://user:s3cret@bad host:80' }, timeoutMs: 5_000 }).catch((error: Error) => error.message);
    assert.doesNotMatch(String(secret), /s3cret/, 'its password is not shown');
  });

  it('that never answers CONNECT: each request gives up after the connect timeout, says so, and leaves no tunnel open (the process stayed alive)', { timeout: 30_000 }, async () => {
    const kubeconfig = behindProxy(await start(() => undefined));
    await assert.rejects(readLiveCluster({ kubeconfig, trusted: true, env: {}, timeoutMs: 20_000, connectTimeoutMs: 300 }), /the proxy \(proxy-url\) did not open a connection to 127\.0\.0\.1:9 in time/);
    assert.ok(tunnels.length > 0, 'the proxy was asked');
    // The proxy's end of each tunnel request sees it ended (half-open: the proxy's own end stays until it closes it).
    await until(() => tunnels.every((socket) => socket.readableEnded || socket.destroyed), 5_000, 'every tunnel request ended');
  });

  it('a SOCKS proxy that never answers: each request gives up after the connect timeout (it waited its library\'s 30 s)', { timeout: 30_000 }, async () => {
    const silent = createNetServer((socket) => {
      tunnels.push(socket);
      socket.resume();
    });
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const kubeconfig = behindProxy(`socks5://127.0.0.1:${(silent.address() as AddressInfo).port}`);
      const started = Date.now();
      await assert.rejects(readLiveCluster({ kubeconfig, trusted: true, env: {}, timeoutMs: 20_000, connectTimeoutMs: 300 }), /the proxy \(proxy-url\) did not open a connection to 127\.0\.0\.1:9 in time/);
      assert.ok(Date.now() - started < 15_000, `${Date.now() - started} ms`);
    } finally {
      silent.close();
    }
  });

  it('that refuses the tunnel (407): says the proxy wants credentials', { timeout: 30_000 }, async () => {
    const kubeconfig = behindProxy(await start((socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')));
    await assert.rejects(readLiveCluster({ kubeconfig, trusted: true, env: {}, timeoutMs: 5_000 }), /the proxy \(proxy-url\) refused to connect to 127\.0\.0\.1:9 \(HTTP 407: it wants credentials\)/);
  });

  it('that cannot be reached: names the proxy, not the API server behind it', { timeout: 30_000 }, async () => {
    // A port that was just free: nothing listens there.
    const free = createServer();
    await new Promise<void>((done) => free.listen(0, '127.0.0.1', done));
    const port = (free.address() as AddressInfo).port;
    await new Promise((done) => free.close(done));
    // A SOCKS agent's errors carry their code in the message only.
    for (const scheme of ['http', 'socks5']) {
      const kubeconfig = behindProxy(`${scheme}://127.0.0.1:${port}`);
      const refused = await readLiveCluster({ kubeconfig, trusted: true, env: {}, timeoutMs: 5_000 }).then(() => undefined, (error: Error) => error.message);
      assert.match(refused!, new RegExp(`connection refused by 127\\.0\\.0\\.1:${port}: the proxy \\(proxy-url\\) cannot be reached`), scheme);
      assert.doesNotMatch(refused!, /refused by 127\.0\.0\.1:9\b/, 'the API server was never tried');
    }
  });
});

describe('a proxy the environment names (HTTPS_PROXY), as kubectl takes it when the kubeconfig names none', () => {
  it('reads the cluster through it; NO_PROXY and a loopback server go straight; its failures name the variable', { timeout: 30_000 }, async () => {
    const api = await FakeApiServer.start(demoObjects());
    const asked: string[] = [];
    const tunnels: Socket[] = [];
    const proxy = createServer();
    proxy.on('connect', (request, client: Socket) => {
      asked.push(request.url ?? '');
      tunnels.push(client);
      // Whatever host was asked for, the tunnel leads to the fake API server.
      const upstream = connect(Number(new URL(api.url).port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const port = new URL(api.url).port;
      const config = (server: string) => {
        const path = join(tempDir(), 'config');
        writeFileSync(path, `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: '${server}', insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`);
        return path;
      };
      // A name only the proxy's side resolves, as behind a corporate proxy.
      const cluster = await readLiveCluster({ kubeconfig: config(`https://kube.internal.invalid:${port}`), trusted: true, env: { HTTPS_PROXY: proxyUrl }, timeoutMs: 10_000 });
      assert.deepEqual(cluster.missing, []);
      assert.ok(asked.length > 0 && asked.every((target) => target === `kube.internal.invalid:${port}`), asked.join(' '));
      asked.length = 0;
      const bypassed = await readLiveCluster({ kubeconfig: config(`https://kube.internal.invalid:${port}`), trusted: true, env: { HTTPS_PROXY: proxyUrl, NO_PROXY: '.invalid' }, timeoutMs: 10_000 }).then(() => '', (error: Error) => error.message);
      assert.match(bypassed, /cannot resolve kube\.internal\.invalid/);
      await readLiveCluster({ kubeconfig: config(api.url), trusted: true, env: { HTTPS_PROXY: proxyUrl }, timeoutMs: 10_000 });
      assert.deepEqual(asked, [], 'neither the NO_PROXY host nor the loopback server went through the proxy');
      const gone = await readLiveCluster({ kubeconfig: config(`https://kube.internal.invalid:${port}`), trusted: true, env: { HTTPS_PROXY: 'http://127.0.0.1:9' }, timeoutMs: 5_000 }).then(() => '', (error: Error) => error.message);
      assert.match(gone, /connection refused by 127\.0\.0\.1:9: the proxy \(HTTPS_PROXY\) cannot be reached/);
      assert.deepEqual(api.writes(), [], 'nothing but GET');
    } finally {
      // The agent keeps its tunnels open for the next read: the proxy closes once they are gone.
      for (const socket of tunnels) socket.destroy();
      await new Promise((done) => proxy.close(done));
      await api.stop();
    }
  });
});

describe('a client certificate in the kubeconfig', () => {
  /** A kubeconfig whose user presents `cert` and `key` (PEM or not) to a server that is never reached. */
  function withClientCertificate(cert: string, key: string): string {
    const path = join(tempDir(), 'config');
    const data = (text: string) => Buffer.from(text).toString('base64');
    writeFileSync(
      path,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:9', insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {client-certificate-data: ${data(cert)}, client-key-data: ${data(key)}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
    return path;
  }
  const read = (kubeconfig: string) => readLiveCluster({ kubeconfig, trusted: true, env: {}, timeoutMs: 5_000 }).then(() => '', (error: Error) => error.message);

  it('that is not PEM, or a key that does not match it, is said of its field, not in OpenSSL\'s words ("PEM routines::no start line")', async () => {
    const { cert, key } = selfSignedCertificate();
    assert.match(await read(withClientCertificate('garbage', key)), /the client-certificate of user "u" cannot be read \(PEM routines: no start line\): it must be PEM/);
    assert.match(await read(withClientCertificate(cert, 'garbage')), /the client-key of user "u" cannot be read/);
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.match(await read(withClientCertificate(cert, otherKey)), /the client-certificate and client-key of user "u" do not belong together/);
  });

  it('that is sound is used: the read goes on to the server (here nothing listens)', async () => {
    const { cert, key } = selfSignedCertificate();
    assert.match(await read(withClientCertificate(cert, key)), /connection refused by 127\.0\.0\.1:9/);
  });
});
