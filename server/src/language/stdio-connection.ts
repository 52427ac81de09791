import { format } from 'node:util';
import { createConnection, ErrorCodes, ProposedFeatures, type Message, type ResponseMessage, StreamMessageReader, StreamMessageWriter, type Connection, type DataCallback, type Disposable } from 'vscode-languageserver/node';
import { LifecycleGate } from './lifecycle-gate';
import { reusingDiagnosticsEncoder } from './message-encoder';

/**
 * The connection over stdin and stdout, written with our encoder; `heard` is called whenever the editor
 * sends something, and messages out of the lifecycle's order are answered or dropped before the
 * connection sees them (see LifecycleGate). The protocol library sets the rest up itself only when it
 * creates the streams, so this does what it would: exit when the client closes stdin, and keep `console`
 * off stdout, where a stray line would corrupt the protocol.
 */
export function createStdioConnection(heard: () => void = () => undefined): Connection {
  const writer = new StreamMessageWriter(process.stdout, { contentTypeEncoder: reusingDiagnosticsEncoder() });
  const gate = new LifecycleGate((response) => void writer.write(response));
  const reader = new HeardReader(process.stdin, heard, (message) => gate.admits(message));
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  // A message whose headers cannot be read leaves no way to find where the next one starts: every later
  // message would be lost while we seem alive. Said on stderr, and we exit so that the editor starts us again.
  reader.onError((error) => {
    // A body that is not JSON is answered as JSON-RPC asks (no id can be read from it); the next message is still found.
    if (error.name === 'SyntaxError') return void writer.write({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.ParseError, message: `the message is not JSON: ${error.message}` } } as ResponseMessage);
    if (!FRAMING_ERROR.test(error.message)) return;
    process.stderr.write(`kube-resilience: the editor's messages can no longer be read (${error.message.split('\n')[0]}): exiting, for the editor to start the server again\n`);
    process.exit(1);
  });
  const exit = () => process.exit(gate.shutDown ? 0 : 1);
  process.stdin.on('end', exit);
  process.stdin.on('close', exit);
  // Nothing can be answered once the editor closed our stdout (EPIPE): said on stderr, and we end.
  process.stdout.on('error', (error) => {
    process.stderr.write(`kube-resilience: the editor no longer reads the server's answers (${error.message}): exiting\n`);
    process.exit(1);
  });
  // Stopped by a signal (an editor closing, a session ending): exiting runs the 'exit' handlers, which end the
  // render tools we started in process groups of their own; Node's own end on a signal runs none of them.
  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) process.once(signal, () => process.exit(code));
  const to = (write: (message: string) => void) => (...args: unknown[]) => write(format(...args));
  const log = to((message) => connection.console.log(message));
  Object.assign(console, {
    log,
    debug: log,
    trace: log,
    info: to((message) => connection.console.info(message)),
    warn: to((message) => connection.console.warn(message)),
    error: to((message) => connection.console.error(message)),
  });
  return connection;
}

/** What the protocol library says when a message's headers cannot be read (a body that is not JSON is another matter: the next message is still found). */
const FRAMING_ERROR = /header|content-length/i;

/**
 * The largest message read: a didOpen of a 100 MB file fits. The library buffers whatever a header promises, for
 * as long as it takes: a Content-Length of 10 GB stopped every answer, for good, while memory grew with what came.
 */
export const MAX_MESSAGE_BYTES = 256 * 2 ** 20;
/** The longest header block: the library scans it again from its start with every chunk until it ends. */
export const MAX_HEADER_BYTES = 64 * 2 ** 10;

/**
 * A reader of stdin that calls `heard` on every message it reads, then hands the connection those `admits` lets
 * through; a header that promises more than MAX_MESSAGE_BYTES, or runs on past MAX_HEADER_BYTES, is a framing error.
 */
export class HeardReader extends StreamMessageReader {
  constructor(
    readable: NodeJS.ReadableStream,
    private readonly heard: () => void,
    private readonly admits: (message: Message) => boolean = () => true,
  ) {
    super(readable);
    // A Content-Length the library reads with parseInt ("2\n\n{}Content-Length: 150", headers ended by LF alone, or
    // "1e1") framed the next message wrongly: it was lost, with no word. Only a decimal number is one.
    const buffer = Reflect.get(this, 'buffer') as { tryReadHeaders(lowerCaseKeys?: boolean): Map<string, string> | undefined };
    const readHeaders = buffer.tryReadHeaders.bind(buffer);
    buffer.tryReadHeaders = (lowerCaseKeys) => {
      const headers = readHeaders(lowerCaseKeys);
      const length = headers?.get('content-length');
      if (length !== undefined && !/^\s*\d+\s*$/.test(length)) headers!.set('content-length', `not a decimal number: ${JSON.stringify(length.slice(0, 40))}`);
      return headers;
    };
    // The library reads each chunk in a private method, called through the instance: checked after it.
    const read = Reflect.get(this, 'onData') as (data: Buffer | string) => void;
    Reflect.set(this, 'onData', (data: Buffer | string) => {
      read.call(this, data);
      this.checkBounds();
    });
  }

  private checkBounds(): void {
    const promised = Reflect.get(this, 'nextMessageLength') as number;
    const buffered = (Reflect.get(this, 'buffer') as { _totalLength?: number } | undefined)?._totalLength ?? 0;
    if (promised > MAX_MESSAGE_BYTES) this.fireError(new Error(`a Content-Length of ${promised} bytes, more than the ${MAX_MESSAGE_BYTES} a message may have`));
    else if (promised === -1 && buffered > MAX_HEADER_BYTES) this.fireError(new Error(`a header block longer than ${MAX_HEADER_BYTES} bytes`));
  }

  override listen(callback: DataCallback): Disposable {
    return super.listen((message) => {
      this.heard();
      if (this.admits(message)) callback(withParamsObject(message));
    });
  }
}

/** Methods whose params are void: `null` is theirs to have. */
const NO_PARAMS = new Set(['shutdown', 'exit']);

/**
 * A message of the protocol's own methods with params `null`, as one with empty params: the library read them before
 * any handler of ours could ("Cannot read properties of null (reading 'workDoneToken')", an InternalError), where
 * empty params are refused as InvalidParams in the server's words. Our own methods read what they are sent.
 */
function withParamsObject(message: Message): Message {
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (params !== null || typeof method !== 'string' || NO_PARAMS.has(method) || method.startsWith('kubeResilience/')) return message;
  return { ...message, params: {} } as Message;
}
