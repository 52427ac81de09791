import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { isObject } from '../is-object';

/**
 * Protocol messages are checked where they enter: a client (or a fuzzer) may send a didOpen without
 * text, a change with a range of strings, a close without a uri. Such a message is logged and
 * ignored; a document's state never holds what the protocol does not allow.
 */
const CHECKS: Record<string, (params: unknown) => string | undefined> = {
  onDidOpenTextDocument: (params) => {
    const doc = field(params, 'textDocument');
    if (!isObject(doc)) return 'no textDocument';
    if (typeof doc.uri !== 'string') return 'textDocument.uri is not a string';
    if (typeof doc.languageId !== 'string') return 'textDocument.languageId is not a string';
    if (!Number.isInteger(doc.version)) return 'textDocument.version is not an integer';
    if (typeof doc.text !== 'string') return 'textDocument.text is not a string';
    return undefined;
  },
  onDidChangeTextDocument: (params) => {
    const doc = field(params, 'textDocument');
    if (!isObject(doc) || typeof doc.uri !== 'string') return 'textDocument.uri is not a string';
    if (!Number.isInteger(doc.version)) return 'textDocument.version is not an integer';
    const changes = field(params, 'contentChanges');
    if (!Array.isArray(changes)) return 'contentChanges is not a list';
    if (!changes.every((c) => isObject(c) && typeof c.text === 'string' && (c.range === undefined || isRange(c.range)))) return 'a content change has no text or a malformed range';
    return undefined;
  },
  onDidCloseTextDocument: identifierOnly,
  onWillSaveTextDocument: identifierOnly,
  onWillSaveTextDocumentWaitUntil: identifierOnly,
  onDidSaveTextDocument: identifierOnly,
};

function identifierOnly(params: unknown): string | undefined {
  const doc = field(params, 'textDocument');
  return isObject(doc) && typeof doc.uri === 'string' ? undefined : 'textDocument.uri is not a string';
}

function field(value: unknown, name: string): unknown {
  return isObject(value) ? value[name] : undefined;
}

function isPosition(value: unknown): boolean {
  return isObject(value) && Number.isInteger(value.line) && Number.isInteger(value.character) && (value.line as number) >= 0 && (value.character as number) >= 0;
}

function isRange(value: unknown): boolean {
  return isObject(value) && isPosition(value.start) && isPosition(value.end);
}

/**
 * Requests whose params the handlers read without looking: one of another shape is answered InvalidParams with
 * what is wrong (it was InternalError, with a JavaScript message: "Cannot read properties of null").
 */
const REQUEST_CHECKS: Record<string, (params: unknown) => string | undefined> = {
  onHover: positionInDocument,
  onCompletion: positionInDocument,
  onCodeLens: identifierOnly,
  onCodeAction: (params) => identifierOnly(params) ?? (isRange(field(params, 'range')) ? undefined : 'range is not a range') ?? codeActionContext(field(params, 'context')),
  onCodeActionResolve: (params) => (isObject(params) && typeof params.title === 'string' ? undefined : 'the code action has no title'),
  onExecuteCommand: (params) => (typeof field(params, 'command') === 'string' ? undefined : 'command is not a string'),
};

function positionInDocument(params: unknown): string | undefined {
  return identifierOnly(params) ?? (isPosition(field(params, 'position')) ? undefined : 'position is not a position');
}

function codeActionContext(context: unknown): string | undefined {
  if (!isObject(context) || !Array.isArray(context.diagnostics)) return 'context has no list of diagnostics';
  if (!context.diagnostics.every((d) => isObject(d) && isRange(d.range))) return 'context.diagnostics holds one that is not a diagnostic with a range';
  if (context.only !== undefined && !(Array.isArray(context.only) && context.only.every((kind) => typeof kind === 'string'))) return 'context.only is not a list of kinds';
  return undefined;
}

/** Notifications the server's own handlers read without looking: one of another shape is logged and ignored. */
const NOTIFICATION_CHECKS: Record<string, (params: unknown) => string | undefined> = {
  onDidChangeConfiguration: (params) => (isObject(params) ? undefined : 'no params'),
  onDidChangeWatchedFiles: (params) => {
    const changes = field(params, 'changes');
    return Array.isArray(changes) && changes.every((c) => isObject(c) && typeof c.uri === 'string' && [1, 2, 3].includes(c.type as number)) ? undefined : 'changes is not a list of file events';
  },
};

/**
 * The connection as the server's handlers register on it: they receive only requests and notifications whose
 * params have their shape (a notification of another shape failed in JavaScript's words: "params.changes.filter
 * is not a function").
 */
export function withCheckedMessages(connection: Connection, log: (message: string) => void): Connection {
  const requests = withCheckedHandlers(connection, REQUEST_CHECKS, (what, problem) => new ResponseError(ErrorCodes.InvalidParams, `${what}: ${problem}`));
  return withCheckedHandlers(requests, NOTIFICATION_CHECKS, (what, problem) => log(`ignored a ${what} notification: ${problem}`));
}

/**
 * The connection as TextDocuments sees it: document-sync handlers receive only well-formed params, and a change of a
 * document that is not open (which the library drops without a word) is logged.
 */
export function withCheckedDocumentSync(connection: Connection, log: (message: string) => void, isOpen: (uri: string) => boolean = () => true): Connection {
  const checks = {
    ...CHECKS,
    onDidChangeTextDocument: (params: unknown) => CHECKS.onDidChangeTextDocument(params) ?? (isOpen(String((field(params, 'textDocument') as { uri: string }).uri)) ? undefined : 'the document is not open (a didOpen comes first): the change is dropped'),
  };
  return withCheckedHandlers(
    connection,
    checks,
    (what, problem) => {
      log(`ignored a ${what} notification: ${problem}`);
      return what === 'WillSaveTextDocumentWaitUntil' ? [] : undefined;
    },
    { onDidChangeTextDocument: withVersionKept },
  );
}

const START = { line: 0, character: 0 };

/**
 * A change that brings a new version and no content (a client may send one) as an empty edit at the start: the
 * library drops a change of no content, so the document kept its old version, and every fix then named that one,
 * which a client that checks versions refuses.
 */
function withVersionKept(params: unknown): unknown {
  const changes = field(params, 'contentChanges') as unknown[];
  return changes.length > 0 ? params : { ...(params as object), contentChanges: [{ range: { start: START, end: START }, text: '' }] };
}

/**
 * The connection, with the handlers registered through it for the methods `checks` names called only with params
 * their check passes (as `adjusted` gives them, where it names the method); for others, what `refused` gives (the
 * method named without its `on`) is the answer.
 */
function withCheckedHandlers(
  connection: Connection,
  checks: Record<string, (params: unknown) => string | undefined>,
  refused: (what: string, problem: string) => unknown,
  adjusted: Record<string, (params: unknown) => unknown> = {},
): Connection {
  return new Proxy(connection, {
    get(target, key, receiver) {
      const check = typeof key === 'string' ? checks[key] : undefined;
      const value = Reflect.get(target, key, receiver);
      if (!check) return typeof value === 'function' ? value.bind(target) : value;
      return (handler: (params: unknown, ...rest: unknown[]) => unknown) =>
        value.call(target, (params: unknown, ...rest: unknown[]) => {
          const problem = check(params);
          if (problem) return refused(String(key).replace(/^on/, ''), problem);
          return handler(adjusted[key as string]?.(params) ?? params, ...rest);
        });
    },
  });
}

/** Runs `work` for one document; an exception in the engine is logged with the document's name and stops nothing else. */
export function perDocument<T>(uri: string, what: string, log: (message: string) => void, work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    log(`${what} ${uri} failed: ${describeError(error)}`);
    return undefined;
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Last line of defence: an exception no handler caught (a library's own notification handling, a
 * timer) is logged and the server keeps serving the documents it has, instead of ending the session.
 */
export function keepServingOnUncaught(log: (message: string) => void): void {
  // Logging goes to the editor: with the connection gone it throws too, and a throw here would end the process.
  const tell = (message: string) => {
    try {
      log(message);
    } catch {
      process.stderr.write(`kube-resilience: ${message}\n`);
    }
  };
  process.on('uncaughtException', (error) => tell(`uncaught: ${describeError(error)}`));
  process.on('unhandledRejection', (error) => tell(`unhandled rejection: ${describeError(error)}`));
}
