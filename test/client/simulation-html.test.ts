import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderHtml } from '../../client/src/simulation/html';
import { createNonce } from '../../client/src/simulation/nonce';

const resources = { scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js', styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/webview.css', cspSource: 'https://*.vscode-cdn.net', nonce: 'bm9uY2Utbm9uY2Utbm9uY2U=' };

describe('simulation page HTML', () => {
  it('sets a strict Content Security Policy: nonce for scripts, the webview origin for styles and images, nothing else', () => {
    const html = renderHtml(resources);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.equal(csp, "default-src 'none'; script-src 'nonce-bm9uY2Utbm9uY2Utbm9uY2U='; style-src https://*.vscode-cdn.net; img-src https://*.vscode-cdn.net data:");
  });

  it('loads exactly one script, with the nonce, and one stylesheet; nothing inline, nothing remote', () => {
    const html = renderHtml(resources);
    assert.deepEqual([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), [`<script nonce="${resources.nonce}" src="${resources.scriptUri}">`]);
    assert.deepEqual([...html.matchAll(/<link[^>]*>/g)].map((m) => m[0]), [`<link rel="stylesheet" href="${resources.styleUri}">`]);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.doesNotMatch(html, /<style|style=/);
  });

  it('refuses a weak nonce and escapes the URIs it is given', () => {
    assert.throws(() => renderHtml({ ...resources, nonce: 'abc' }), /nonce/);
    const html = renderHtml({ ...resources, scriptUri: 'x"><img src=y onerror=z>' });
    assert.doesNotMatch(html, /<img/);
  });

  it('makes a fresh nonce each time', () => {
    const a = createNonce();
    assert.match(a, /^[A-Za-z0-9+/=]{24}$/);
    assert.notEqual(a, createNonce());
  });
});
