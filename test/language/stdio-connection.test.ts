import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { HeardReader } from '../../server/src/language/stdio-connection';
import { until } from '../render/running-tools';

const SERVER = resolve('dist/server.js');

/** Runs `work` with the built server over stdio and what it has written to stdout so far; the server is stopped after. */
async function withServer(work: (server: ChildProcessWithoutNullStreams, stdout: () => string) => Promise<void>): Promise<void> {
  const server = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let written = '';
  server.stdout.on('data', (chunk) => (written += chunk));
  try {
    await work(server, () => written);
  } finally {
    server.kill();
  }
}

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

describe('the server over stdio, when the editor\'s framing is lost', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  for (const [name, bytes] of [
    ['headers without a Content-Length', 'Content-Type: application/json\r\n\r\n{}'],
    ['a Content-Length that is no number', 'Content-Length: abc\r\n\r\n{}'],
    // parseInt read "2" and "1": the next message was framed wrongly and lost, and the server answered nothing.
    ['headers ended by LF alone, whose Content-Length runs on into the next message', `Content-Length: 2\n\n{}${frame({ jsonrpc: '2.0', id: 2, method: 'textDocument/hover', params: {} })}`],
    ['a Content-Length in exponent notation', 'Content-Length: 1e1\r\n\r\n{"a":1234}'],
    ['a Content-Length of 10 GB (the body was buffered for ever)', 'Content-Length: 10737418240\r\n\r\n{}'],
    ['a header block that never ends (scanned again from its start with every chunk)', `X-Padding: ${'x'.repeat(70_000)}`],
  ]) {
    it(`${name}: says so on stderr and exits 1, so the editor starts it again (it stayed alive, answering nothing)`, { timeout: 60_000 }, async (t) => {
      const server = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      server.stderr.on('data', (chunk) => (stderr += chunk));
      server.stdout.resume();
      const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
      // A server that stays alive (what these cases were) must not hold the test run up once the case has timed out.
      t.signal.addEventListener('abort', () => server.kill());
      server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
      server.stdin.write(bytes);
      assert.equal(await exited, 1);
      assert.match(stderr, /the editor's messages can no longer be read \(.*\): exiting, for the editor to start the server again/);
    });
  }

  it('exits 1 when the editor closes the server\'s stdout, saying why on stderr (it died of its own logging, with 7)', { timeout: 60_000 }, async () => {
    const server = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    server.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
    server.stdout.once('data', () => {
      server.stdout.destroy();
      server.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a.yaml' }, position: { line: 0, character: 0 } } }));
      server.stdin.write(frame({ jsonrpc: '2.0', id: 3, method: 'shutdown' }));
    });
    server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {}, initializationOptions: { settings: { cluster: 'off' } } } }));
    assert.equal(await exited, 1, stderr);
    assert.match(stderr, /the editor no longer reads the server's answers \(.*\): exiting/);
  });

  for (const [name, params] of [
    ['resolveSupport.properties null', { processId: null, rootUri: null, capabilities: { textDocument: { codeAction: { resolveSupport: { properties: null } } } } }],
    ['capabilities null and folders that are not folders', { processId: null, rootUri: null, capabilities: null, workspaceFolders: [null, 'x'] }],
    ['no params at all', null],
  ] as const) {
    it(`an initialize of an odd shape (${name}) is answered, not half done (it threw, and the client's next try was refused)`, { timeout: 60_000 }, async () => {
      const server = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      server.stdout.on('data', (chunk) => (stdout += chunk));
      try {
        server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params }));
        await until(() => stdout.includes('"id":1'), 20_000, 'the answer to initialize');
        assert.match(stdout, /"id":1,"result":\{"capabilities"/);
      } finally {
        server.kill();
      }
    });
  }

  it('a body that is not JSON is not lost framing: it is answered with a parse error (-32700, id null), and the server goes on', async () => {
    await withServer(async (server, stdout) => {
      server.stdin.write('Content-Length: 5\r\n\r\n{nope');
      server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
      await until(() => stdout().includes('"id":1'), 20_000, 'the answer to initialize');
      assert.match(stdout(), /\{"jsonrpc":"2\.0","id":null,"error":\{"code":-32700,"message":"the message is not JSON: [^"]+"\}\}/);
      assert.match(stdout(), /"id":1,"result":\{"capabilities"/);
    });
  });

  it('requests of the protocol\'s methods with params null are answered InvalidParams in the server\'s words (the library read them first: an InternalError, "reading \'workDoneToken\'")', async () => {
    await withServer(async (server, stdout) => {
      server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
      server.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
      const asked = [
        ['textDocument/hover', 'Hover: textDocument.uri is not a string'],
        ['textDocument/completion', 'Completion: textDocument.uri is not a string'],
        ['textDocument/codeAction', 'CodeAction: textDocument.uri is not a string'],
        ['workspace/executeCommand', 'ExecuteCommand: command is not a string'],
      ];
      asked.forEach(([method], i) => server.stdin.write(frame({ jsonrpc: '2.0', id: 10 + i, method, params: null })));
      await until(() => asked.every((_, i) => stdout().includes(`"id":${10 + i},`)), 20_000, 'an answer to each');
      for (const [i, [, message]] of asked.entries()) assert.ok(stdout().includes(`{"jsonrpc":"2.0","id":${10 + i},"error":{"code":-32602,"message":"${message}"}}`), `${message}\n${stdout()}`);
      // Our own methods read what they are sent, null too, and shutdown's params are void: those stay as sent.
      server.stdin.write(frame({ jsonrpc: '2.0', id: 20, method: 'kubeResilience/liveObject', params: null }));
      server.stdin.write(frame({ jsonrpc: '2.0', id: 21, method: 'shutdown', params: null }));
      await until(() => stdout().includes('"id":21,'), 20_000, 'the answer to shutdown');
      assert.ok(stdout().includes('{"jsonrpc":"2.0","id":20,"error":{"code":-32602,"message":"object: expected an object"}}'), stdout());
      assert.ok(stdout().includes('{"jsonrpc":"2.0","id":21,"result":null}'), stdout());
    });
  });

  it('a request whose id is null is answered with InvalidRequest (-32600, id null); it was only logged, and its sender waited', async () => {
    await withServer(async (server, stdout) => {
      server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
      server.stdin.write(frame({ jsonrpc: '2.0', id: null, method: 'textDocument/hover', params: {} }));
      await until(() => stdout().includes('-32600'), 20_000, 'an InvalidRequest answer');
      assert.match(stdout(), /\{"jsonrpc":"2\.0","id":null,"error":\{"code":-32600,"message":"not a request, a notification or a response: [^"]+"\}\}/);
    });
  });

  it('a request before initialize is answered ServerNotInitialized, a notification dropped, and exit still ends the server (with 1: no shutdown came)', async (t) => {
    const server = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    server.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
    // A server that answered the hover would also ignore the exit: it is stopped here whatever happens.
    t.after(() => server.kill());
    server.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a.yaml', languageId: 'yaml', version: 1, text: 'kind: Pod\n' } } }));
    server.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a.yaml' }, position: { line: 0, character: 0 } } }));
    await until(() => stdout.includes('"id":1'), 20_000, 'the answer to initialize');
    assert.match(stdout, /"id":1,"error":\{"code":-32002,"message":"the server is not initialized yet: textDocument\/hover came before initialize"\}/);
    server.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
    assert.equal(await exited, 1);
    assert.doesNotMatch(stdout, /publishDiagnostics/);
  });
});
