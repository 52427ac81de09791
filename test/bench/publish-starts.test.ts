import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { publishStarts } from '../../bench/publish-starts';

function framed(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}

const publish = framed({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///a.yaml', version: 2, diagnostics: [] } });
const logMessage = framed({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'textDocument/publishDiagnostics sent' } });

/** A turn of the event loop: what was written reaches the listeners. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Writes the chunks to a fresh tap and says whether it saw a publish start. */
async function seen(chunks: Buffer[]): Promise<boolean> {
  const stream = new PassThrough();
  const tap = publishStarts(stream);
  for (const chunk of chunks) {
    stream.write(chunk);
    await turn();
  }
  tap.stop();
  return tap.seenAt() !== undefined;
}

describe('the tap on a server stdout that times when a diagnostics publish starts arriving', () => {
  it('sees a publish that arrives in one chunk', async () => {
    assert.equal(await seen([publish]), true);
  });

  it('sees a publish whose method name is split between two chunks, wherever the split falls', async () => {
    const name = publish.indexOf('"textDocument/publishDiagnostics"');
    for (let at = name; at <= name + '"textDocument/publishDiagnostics"'.length; at++) {
      assert.equal(await seen([publish.subarray(0, at), publish.subarray(at)]), true, `split at byte ${at}`);
    }
  });

  it('sees a publish whose method name arrives over three chunks, the middle one shorter than the name', async () => {
    const name = publish.indexOf('"textDocument/publishDiagnostics"');
    assert.equal(await seen([publish.subarray(0, name + 5), publish.subarray(name + 5, name + 15), publish.subarray(name + 15)]), true);
  });

  it('sees no publish in other messages, even one that quotes the method in its text', async () => {
    assert.equal(await seen([logMessage, framed({ jsonrpc: '2.0', id: 1, result: null })]), false);
  });

  it('forgets what it saw at a reset, and times the next publish', async () => {
    const stream = new PassThrough();
    const tap = publishStarts(stream);
    stream.write(publish);
    await turn();
    const first = tap.seenAt();
    assert.notEqual(first, undefined);
    tap.reset();
    assert.equal(tap.seenAt(), undefined);
    stream.write(publish.subarray(0, publish.length - 5));
    stream.write(publish.subarray(publish.length - 5));
    await turn();
    assert.ok(tap.seenAt()! >= first!);
    tap.stop();
  });
});
