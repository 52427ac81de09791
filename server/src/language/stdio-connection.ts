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

/** A reader of stdin that calls `heard` on every message it reads, then hands the connection those `admits` lets through. */
export class HeardReader extends StreamMessageReader {
  constructor(
    readable: NodeJS.ReadableStream,
    private readonly heard: () => void,
    private readonly admits: (message: Message) => boolean = () => true,
  ) {
    super(readable);
  }

  override listen(callback: DataCallback): Disposable {
    return super.listen((message) => {
      this.heard();
      if (this.admits(message)) callback(message);
    });
  }
}
