import { ErrorCodes, Message, type ResponseMessage } from 'vscode-languageserver/node';
import { isObject } from '../is-object';

/**
 * What the protocol asks of a server around `initialize` and `shutdown`, which the protocol library leaves to
 * it: a request before `initialize` is answered with ServerNotInitialized and a notification dropped (`exit`
 * excepted, so that a server never initialized can still be stopped). After `shutdown`, a request is answered
 * with InvalidRequest and a notification dropped, `exit` again excepted; a second `initialize` is answered with
 * InvalidRequest too. Without it a request before `initialize` was served on a
 * server that knew nothing of the client yet. A message that is none of a request, a notification and a response
 * is answered with InvalidRequest, as JSON-RPC asks.
 */
export class LifecycleGate {
  private phase: 'before initialize' | 'running' | 'shut down' = 'before initialize';

  constructor(private readonly answer: (response: ResponseMessage) => void) {}

  /** Whether `shutdown` was asked: the editor's stdin closing then is the end it announced (exit code 0). */
  get shutDown(): boolean {
    return this.phase === 'shut down';
  }

  /** Whether the connection gets `message`; when not, a request has been answered here and a notification dropped. */
  admits(message: Message): boolean {
    if (Message.isRequest(message)) {
      if (this.phase === 'before initialize' && message.method !== 'initialize') return this.refuse(message.id, ErrorCodes.ServerNotInitialized, `the server is not initialized yet: ${message.method} came before initialize`);
      if (this.phase === 'shut down') return this.refuse(message.id, ErrorCodes.InvalidRequest, `the server has been shut down: ${message.method} came after shutdown`);
      // Served again, its settings and folders would replace those of the client already served.
      if (this.phase === 'running' && message.method === 'initialize') return this.refuse(message.id, ErrorCodes.InvalidRequest, 'the server is initialized already: initialize is sent once');
      if (message.method === 'initialize') {
        this.phase = 'running';
        message.params = initializeParams(message.params);
      }
      if (message.method === 'shutdown') this.phase = 'shut down';
      return true;
    }
    // After shutdown too: a document opened then was analysed and its diagnostics sent to a client that had asked to stop.
    if (Message.isNotification(message)) return this.phase === 'running' || message.method === 'exit';
    if (Message.isResponse(message)) return true;
    // Neither (an id of null or an object, no method, a body of null or a number): JSON-RPC answers it, with its id when
    // that is one; the protocol library only logged it, and a body of null threw here.
    const body: unknown = message;
    const id = isObject(body) ? body.id : undefined;
    return this.refuse(typeof id === 'number' || typeof id === 'string' ? id : null, ErrorCodes.InvalidRequest, 'not a request, a notification or a response: a request has a method and an id that is a number or a string');
  }

  private refuse(id: ResponseMessage['id'], code: number, text: string): false {
    this.answer({ jsonrpc: '2.0', id, error: { code, message: text } });
    return false;
  }
}

/**
 * initialize's params with the shape the protocol library reads them in before any handler of ours (its
 * process id, its capabilities): params of null, or capabilities of null, made it throw, and the server was left
 * half set up, refusing the client's next initialize. What the params hold is read by the server, as sent.
 */
function initializeParams(params: unknown): object {
  const given = isObject(params) ? params : {};
  return { ...given, processId: typeof given.processId === 'number' ? given.processId : null, capabilities: isObject(given.capabilities) ? given.capabilities : {} };
}

