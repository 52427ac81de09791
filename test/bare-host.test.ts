import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bareHost } from '../server/src/bare-host';

describe('bareHost', () => {
  it('takes away the brackets a URL writes around an IPv6 address, and leaves any other host as it is', () => {
    assert.equal(bareHost(new URL('https://[::1]:6443').hostname), '::1');
    assert.equal(bareHost('[fe80::1]'), 'fe80::1');
    assert.equal(bareHost('cluster.example'), 'cluster.example');
    assert.equal(bareHost('10.0.0.1'), '10.0.0.1');
  });
});
