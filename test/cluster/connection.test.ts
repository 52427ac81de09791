// The connection to a cluster: behind a proxy (proxy-url), client-node's agent opens a tunnel with CONNECT, which
// must end with the read's deadline, and say what the proxy did; a client certificate is checked before it is used.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readLiveCluster } from '../../server/src/cluster/load';
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
    await new Promise((done) => proxy?.close(done));
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
    const kubeconfig = behindProxy(`http://127.0.0.1:${port}`);
    const refused = await readLiveCluster({ kubeconfig, trusted: true, env: {}, timeoutMs: 5_000 }).then(() => undefined, (error: Error) => error.message);
    assert.match(refused!, new RegExp(`connection refused by 127\\.0\\.0\\.1:${port}: the proxy \\(proxy-url\\) cannot be reached`));
    assert.doesNotMatch(refused!, /refused by 127\.0\.0\.1:9\b/, 'the API server was never tried');
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
