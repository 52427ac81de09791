// Reading a cluster behind a proxy (proxy-url): client-node's agent opens a tunnel with CONNECT, which must end
// with the read's deadline, and say what the proxy did.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { readLiveCluster } from '../../server/src/cluster/load';
import { until } from '../render/running-tools';
import { tempDir } from './kubeconfig-fixtures';

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
