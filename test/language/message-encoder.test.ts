import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from 'vscode-languageserver/node';
import { reusingDiagnosticsEncoder } from '../../server/src/language/message-encoder';

const diagnostic = (line: number, message: string) => ({ range: { start: { line, character: 2 }, end: { line, character: 9 } }, severity: 2, source: 'kube-resilience', message });
const publish = (diagnostics: object[], version?: number) => ({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///m.yaml', version, diagnostics } }) as Message;
const OPTIONS = { charset: 'utf-8' as const };

describe('reusingDiagnosticsEncoder', () => {
  it('writes a publish as exactly the JSON the protocol library writes', async () => {
    const encoder = reusingDiagnosticsEncoder();
    for (const message of [publish([diagnostic(3, 'one replica — “a” × 2'), diagnostic(9, 'two')], 7), publish([], 8), publish([diagnostic(1, 'x')])]) {
      assert.equal(Buffer.from(await encoder.encode(message, OPTIONS)).toString('utf8'), JSON.stringify(message));
    }
  });

  it('reuses the bytes of a diagnostic object it sent before, and encodes new objects afresh', async () => {
    const encoder = reusingDiagnosticsEncoder();
    const kept = diagnostic(3, 'kept');
    await encoder.encode(publish([kept], 1), OPTIONS);
    const changed = diagnostic(4, 'changed');
    const second = publish([kept, changed], 2);
    assert.equal(Buffer.from(await encoder.encode(second, OPTIONS)).toString('utf8'), JSON.stringify(second));
    // Diagnostics are never changed once sent, so a change made behind its back shows that the bytes were kept.
    kept.message = 'changed behind its back';
    assert.match(Buffer.from(await encoder.encode(publish([kept], 3), OPTIONS)).toString('utf8'), /"message":"kept"/);
  });

  it('keeps the bytes it sent on the diagnostic, out of sight of JSON and of its keys', async () => {
    const encoder = reusingDiagnosticsEncoder();
    const sent = diagnostic(3, 'sent');
    const before = { json: JSON.stringify(sent), keys: Object.keys(sent) };
    await encoder.encode(publish([sent], 1), OPTIONS);
    assert.deepEqual({ json: JSON.stringify(sent), keys: Object.keys(sent) }, before);
    assert.deepEqual({ ...sent }, JSON.parse(before.json));
  });

  it('writes a smaller publish after a larger one whole, with nothing of the one before', async () => {
    const encoder = reusingDiagnosticsEncoder();
    const large = publish(Array.from({ length: 50 }, (_, i) => diagnostic(i, `finding ${i}`)), 1);
    const small = publish([diagnostic(1, 'one')], 2);
    const first = Buffer.from(await encoder.encode(large, OPTIONS)).toString('utf8');
    const second = Buffer.from(await encoder.encode(small, OPTIONS)).toString('utf8');
    assert.equal(first, JSON.stringify(large));
    assert.equal(second, JSON.stringify(small));
  });

  it('writes a publish a few bytes longer than the one before into the same memory, with room to grow', async () => {
    const encoder = reusingDiagnosticsEncoder();
    const findings = Array.from({ length: 50 }, (_, i) => diagnostic(i, `finding ${i}`));
    const first = await encoder.encode(publish(findings, 1), OPTIONS);
    const longer = publish([...findings.slice(1), diagnostic(0, 'finding 0, typed into')], 2);
    const second = await encoder.encode(longer, OPTIONS);
    assert.ok(second.length > first.length);
    assert.equal(second.buffer, first.buffer, 'memory never written before costs its first writing (page faults)');
    assert.equal(Buffer.from(second).toString('utf8'), JSON.stringify(longer));
  });

  it('writes every other message as JSON', async () => {
    const encoder = reusingDiagnosticsEncoder();
    const response = { jsonrpc: '2.0', id: 4, result: { contents: 'ü' } } as Message;
    assert.equal(Buffer.from(await encoder.encode(response, OPTIONS)).toString('utf8'), JSON.stringify(response));
  });
});
