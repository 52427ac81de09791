import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceFromObject, type Resource } from '../../server/src/manifest/parse';
import { apiServersDown } from '../../server/src/simulate/api-servers-down';

const node = (name: string, ...addresses: string[]): Resource =>
  resourceFromObject({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { addresses: addresses.map((address) => ({ type: 'InternalIP', address })) } })!;
const nodes = [node('cp-1', '10.0.0.1', 'fd00::1'), node('cp-2', '10.0.0.2', 'fd00::2'), node('cp-3', '10.0.0.3')];

describe('apiServersDown: control-plane nodes the default/kubernetes EndpointSlice does not list', () => {
  it('names those none of whose addresses is listed, IPv4 or IPv6', () => {
    assert.deepEqual(apiServersDown(nodes, ['10.0.0.1']), ['cp-2', 'cp-3']);
    assert.deepEqual(apiServersDown(nodes, ['fd00::2', '10.0.0.3']), ['cp-1']);
  });

  it('names none when every one is listed, when nothing is listed, or when an address is no control-plane node\'s', () => {
    assert.deepEqual(apiServersDown(nodes, ['10.0.0.1', '10.0.0.2', '10.0.0.3']), []);
    assert.deepEqual(apiServersDown(nodes, []), []);
    assert.deepEqual(apiServersDown(nodes, ['10.0.0.1', '203.0.113.9']), []);
  });
});
