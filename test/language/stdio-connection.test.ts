import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { HeardReader } from '../../server/src/language/stdio-connection';

const frame = (body: object) => {
  const json = JSON.stringify(body);
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
};

describe('HeardReader', () => {
  it('tells of every message it reads, before the connection gets it: two in one chunk, one split over two', async () => {
    const input = new PassThrough();
    const events: string[] = [];
    const reader = new HeardReader(input, () => events.push('heard'));
    reader.listen((message) => events.push(`message ${(message as unknown as { method: string }).method}`));
    const split = frame({ jsonrpc: '2.0', method: 'textDocument/hover', id: 3, params: {} });
    input.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }) + frame({ jsonrpc: '2.0', method: 'textDocument/didChange', params: {} }) + split.slice(0, 20));
    input.write(split.slice(20));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['heard', 'message initialized', 'heard', 'message textDocument/didChange', 'heard', 'message textDocument/hover']);
    reader.dispose();
  });
});
