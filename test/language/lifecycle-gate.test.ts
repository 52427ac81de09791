import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResponseMessage } from 'vscode-languageserver/node';
import { LifecycleGate } from '../../server/src/language/lifecycle-gate';

const request = (id: number, method: string) => ({ jsonrpc: '2.0', id, method, params: {} });
const notification = (method: string) => ({ jsonrpc: '2.0', method, params: {} });

function gate(): { gate: LifecycleGate; answers: ResponseMessage[] } {
  const answers: ResponseMessage[] = [];
  return { gate: new LifecycleGate((response) => answers.push(response)), answers };
}

describe('LifecycleGate', () => {
  it('answers a request before initialize with ServerNotInitialized (-32002), naming it, and does not let it through', () => {
    const { gate: g, answers } = gate();
    assert.equal(g.admits(request(1, 'textDocument/hover')), false);
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'the server is not initialized yet: textDocument/hover came before initialize' } }]);
  });

  it('drops a notification before initialize, but not exit: a server never initialized can still be stopped', () => {
    const { gate: g, answers } = gate();
    assert.equal(g.admits(notification('textDocument/didOpen')), false);
    assert.equal(g.admits(notification('exit')), true);
    assert.deepEqual(answers, []);
  });

  it('lets initialize through, then every request and notification', () => {
    const { gate: g, answers } = gate();
    assert.equal(g.admits(request(1, 'initialize')), true);
    assert.equal(g.admits(notification('initialized')), true);
    assert.equal(g.admits(request(2, 'textDocument/hover')), true);
    assert.deepEqual(answers, []);
  });

  it('answers a second initialize with InvalidRequest (-32600): it is sent once', () => {
    const { gate: g, answers } = gate();
    assert.equal(g.admits(request(1, 'initialize')), true);
    assert.equal(g.admits(request(2, 'initialize')), false);
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'the server is initialized already: initialize is sent once' } }]);
  });

  it('answers a request after shutdown with InvalidRequest (-32600), drops a notification (a document opened then was analysed); exit still goes through', () => {
    const { gate: g, answers } = gate();
    g.admits(request(1, 'initialize'));
    assert.equal(g.admits(request(2, 'shutdown')), true);
    assert.equal(g.admits(request(3, 'textDocument/codeAction')), false);
    assert.equal(g.admits(notification('textDocument/didOpen')), false);
    assert.equal(g.admits(notification('exit')), true);
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'the server has been shut down: textDocument/codeAction came after shutdown' } }]);
  });

  it('tells whether shutdown was asked (the exit code when stdin closes: 0 after it, 1 before)', () => {
    const { gate: g } = gate();
    g.admits(request(1, 'initialize'));
    assert.equal(g.shutDown, false);
    g.admits(request(2, 'shutdown'));
    assert.equal(g.shutDown, true);
  });

  it('lets the client\'s answers to the server\'s own requests through at any time', () => {
    const { gate: g } = gate();
    assert.equal(g.admits({ jsonrpc: '2.0', id: 7, result: null } as never), true);
    assert.equal(g.admits({ jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'no' } } as never), true);
  });

  it('answers what is none of a request, a notification and a response with InvalidRequest (-32600), with its id when it has one (it was only logged)', () => {
    const { gate: g, answers } = gate();
    g.admits(request(1, 'initialize'));
    assert.equal(g.admits({ jsonrpc: '2.0', id: null, method: 'textDocument/hover', params: {} } as never), false);
    assert.equal(g.admits({ jsonrpc: '2.0', id: 5 } as never), false);
    assert.equal(g.admits({ jsonrpc: '2.0', id: { nested: true }, method: 'x' } as never), false);
    // A body of JSON that is no object at all (null threw, and went unanswered).
    for (const body of [null, 42, 'x', [1]]) assert.equal(g.admits(body as never), false);
    const text = 'not a request, a notification or a response: a request has a method and an id that is a number or a string';
    const refused = (id: number | null) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: text } });
    assert.deepEqual(answers, [refused(null), refused(5), refused(null), refused(null), refused(null), refused(null), refused(null)]);
  });
});
