import assert from 'node:assert/strict';
import https from 'node:https';
import { after, before, describe, it } from 'node:test';
import { FakeApiServer } from './fake-apiserver';

function send(server: FakeApiServer, method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(`${server.url}${path}`, { method, ca: server.ca, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(method === 'GET' ? undefined : '{}');
  });
}

// The guard every cluster suite relies on: if the product ever wrote to a cluster, writes() would show it.
describe('the fake API server records what would change a cluster', () => {
  let server: FakeApiServer;
  before(async () => {
    server = await FakeApiServer.start([{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }]);
  });
  after(() => server.close());

  it('answers GET and refuses and records every other method', async () => {
    assert.equal(await send(server, 'GET', '/api/v1/nodes'), 200);
    assert.equal(await send(server, 'DELETE', '/api/v1/nodes/n1'), 405);
    assert.equal(await send(server, 'PATCH', '/api/v1/nodes/n1'), 405);
    assert.equal(await send(server, 'POST', '/api/v1/namespaces/default/pods'), 405);
    assert.deepEqual(server.writes().map((r) => `${r.method} ${r.path}`), ['DELETE /api/v1/nodes/n1', 'PATCH /api/v1/nodes/n1', 'POST /api/v1/namespaces/default/pods']);
  });

  it('makes stop() fail when anything but GET, or any request for a Secret, reached it', async () => {
    const other = await FakeApiServer.start([]);
    await send(other, 'POST', '/api/v1/namespaces/default/pods');
    await assert.rejects(other.stop(), /1 request\(s\) that are not GET: POST \/api\/v1\/namespaces\/default\/pods/);
    const reader = await FakeApiServer.start([]);
    await send(reader, 'GET', '/api/v1/namespaces/shop/secrets/db');
    await assert.rejects(reader.stop(), /asked for Secrets: GET \/api\/v1\/namespaces\/shop\/secrets\/db/);
  });
});
