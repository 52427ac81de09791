import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { yieldToRequests } from '../../server/src/language/yield-to-requests';

/** Two ends of a real socket: what arrives on one is read in a later turn of the event loop, as from a pipe. */
async function socketPair(): Promise<{ server: Socket; client: Socket; close: () => void }> {
  const listener = createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const { port } = listener.address() as { port: number };
  const client = connect(port, '127.0.0.1');
  const [[server]] = (await Promise.all([once(listener, 'connection'), once(client, 'connect')])) as [[Socket], unknown];
  return {
    server,
    client,
    close: () => {
      client.destroy();
      server.destroy();
      listener.close();
    },
  };
}

function request(id: number): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: {} });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Work that holds the event loop, as a slice of a Fix all does. */
function slice(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('yieldToRequests', () => {
  it('lets the protocol library read, handle and answer a request that came during a slice before the next slice', async () => {
    const { server, client, close } = await socketPair();
    const answered: number[] = [];
    const write = server.write.bind(server) as (...args: unknown[]) => boolean;
    server.write = ((...args: unknown[]) => {
      if (String(args[0]).includes('"result"')) answered.push(answered.length);
      return write(...args);
    }) as typeof server.write;
    const connection = createMessageConnection(new StreamMessageReader(server), new StreamMessageWriter(server));
    connection.onRequest('textDocument/hover', () => ({ contents: 'answered' }));
    connection.listen();
    try {
      // A connection in use: its first request, answered whenever, sets the streams flowing.
      client.write(request(0));
      while (answered.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      for (let i = 1; i <= 5; i++) {
        client.write(request(i));
        slice(20);
        await yieldToRequests();
        assert.equal(answered.length, 1 + i, `request ${i} is answered before the slice after the one it came in`);
      }
    } finally {
      connection.dispose();
      close();
    }
  });
});
