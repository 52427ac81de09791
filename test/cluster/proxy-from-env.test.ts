import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proxyFromEnvironment } from '../../server/src/cluster/proxy-from-env';

const proxyOf = (server: string, env: NodeJS.ProcessEnv) => proxyFromEnvironment(new URL(server), env)?.url;

describe('proxyFromEnvironment: the proxy kubectl takes from the environment', () => {
  it('HTTPS_PROXY (or https_proxy) for an https server, HTTP_PROXY for an http one; a value without a scheme is http', () => {
    assert.deepEqual(proxyFromEnvironment(new URL('https://kube.example:6443'), { HTTPS_PROXY: 'http://proxy:3128' }), { url: 'http://proxy:3128', variable: 'HTTPS_PROXY' });
    assert.equal(proxyOf('https://kube.example', { https_proxy: 'proxy:3128' }), 'http://proxy:3128');
    assert.equal(proxyOf('https://kube.example', { HTTP_PROXY: 'http://proxy:3128' }), undefined);
    assert.equal(proxyOf('http://kube.example', { HTTP_PROXY: 'socks5://proxy:1080' }), 'socks5://proxy:1080');
    assert.equal(proxyOf('https://kube.example', { HTTPS_PROXY: '  ' }), undefined);
  });

  it('never for localhost or a loopback address', () => {
    for (const server of ['https://localhost:6443', 'https://127.0.0.1:6443', 'https://127.1.2.3', 'https://[::1]:6443', 'https://[::ffff:127.0.0.1]']) assert.equal(proxyOf(server, { HTTPS_PROXY: 'proxy:3128' }), undefined, server);
    // As in Go: only the name localhost itself.
    assert.equal(proxyOf('https://api.localhost', { HTTPS_PROXY: 'proxy:3128' }), 'http://proxy:3128');
  });

  it('not for a host NO_PROXY covers: *, a domain and its subdomains, .domain for subdomains only, an address, a CIDR block, a port', () => {
    const through = (server: string, noProxy: string) => proxyOf(server, { HTTPS_PROXY: 'proxy:3128', NO_PROXY: noProxy }) !== undefined;
    assert.equal(through('https://kube.example', '*'), false);
    assert.equal(through('https://kube.example', 'example'), false);
    assert.equal(through('https://kube.example', 'other.example, kube.example'), false);
    assert.equal(through('https://example', '.example'), true, '.domain: subdomains only');
    assert.equal(through('https://kube.example', '.example'), false);
    assert.equal(through('https://kube.example', '*.example'), false);
    assert.equal(through('https://notexample', 'example'), true, 'a suffix is no subdomain');
    assert.equal(through('https://10.1.2.3:6443', '10.0.0.0/8'), false);
    assert.equal(through('https://11.1.2.3:6443', '10.0.0.0/8'), true);
    assert.equal(through('https://10.1.2.3:6443', '10.1.2.3'), false);
    assert.equal(through('https://[fd00::5]:6443', 'fd00::/8'), false);
    assert.equal(through('https://[fe80::5]:6443', 'fd00::/8'), true);
    assert.equal(through('https://[::ffff:10.0.0.1]:6443', '::ffff:10.0.0.0/120'), false);
    assert.equal(through('https://[2001:db8::1]', '2001:db8::1'), false);
    // Addresses compared as addresses, as Go's net.IP does, and a block's prefix read as Go's ParseCIDR reads it.
    assert.equal(through('https://[2001:db8::1]', '2001:db8:0::1'), false);
    assert.equal(through('https://10.1.2.3', '::ffff:10.1.2.3'), false);
    for (const malformed of ['192.168.0.0/', '192.168.0.0/ 8', '10.0.0.0/0x8', '10.0.0.0/1e1', '10.0.0.0/33']) assert.equal(through('https://10.1.2.3', malformed), true, malformed);
    assert.equal(through('https://kube.example:6443', 'kube.example:6443'), false);
    assert.equal(through('https://kube.example:6443', 'kube.example:443'), true);
    assert.equal(through('https://kube.example', 'kube.example:443'), false, 'the scheme\'s port');
    assert.equal(proxyOf('https://kube.example', { HTTPS_PROXY: 'proxy:3128', no_proxy: 'kube.example' }), undefined);
  });
});
