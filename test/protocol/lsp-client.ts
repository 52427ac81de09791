import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { CodeAction, Diagnostic, Position, PublishDiagnosticsParams, Range, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver';

const WAIT_MS = 15_000;

interface Waiter {
  uri: string;
  accept: (params: PublishDiagnosticsParams) => boolean;
  resolve: (diagnostics: Diagnostic[]) => void;
}

/**
 * A reader of what a server writes, without the protocol library's partial-message timer: it re-arms every
 * 10 s for as long as a message stays partial and outlives dispose, so a server killed while sending kept
 * a test process alive for ever.
 */
export function serverReader(stdout: Readable): StreamMessageReader {
  const reader = new StreamMessageReader(stdout);
  reader.partialMessageTimeout = 0;
  return reader;
}

/**
 * A small LSP client driving the real, bundled server over stdio: what an editor does, one message
 * at a time, with helpers that find positions by the text they point at.
 */
export class LspClient {
  readonly connection: MessageConnection;
  readonly stderr: string[] = [];
  /** What the server asked of this client (registerCapability, configuration, …), in order. */
  readonly serverRequests: { method: string; params: unknown }[] = [];
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  private readonly publishes = new Map<string, number>();
  private readonly waiters: Waiter[] = [];
  /** The client's copy of each open text: edits sent since it was last read are applied when it is read. */
  private readonly texts = new Map<string, { text: string; version: number; pending: TextEdit[] }>();
  readonly exited: Promise<number | null>;

  private constructor(readonly process: ChildProcess) {
    this.connection = createMessageConnection(serverReader(process.stdout!), new StreamMessageWriter(process.stdin!));
    process.stderr!.on('data', (chunk) => this.stderr.push(String(chunk)));
    this.exited = new Promise((resolve) => process.on('exit', (code) => resolve(code)));
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.latest.set(params.uri, params);
      this.publishes.set(params.uri, (this.publishes.get(params.uri) ?? 0) + 1);
      for (const waiter of [...this.waiters]) {
        if (waiter.uri === params.uri && waiter.accept(params)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(params.diagnostics);
        }
      }
    });
    // Requests from the server (registerCapability, configuration, progress): answered as a minimal editor would, and kept.
    this.connection.onRequest((method, params) => {
      this.serverRequests.push({ method, params });
      return method === 'workspace/configuration' ? [null] : null;
    });
    this.connection.onNotification(() => undefined);
    this.connection.listen();
  }

  /** Spawns `node <serverPath> ...args` (this process's Node unless `node` names another) and connects to its stdio. */
  static start(serverPath: string, args: string[] = ['--stdio'], node = process.execPath): LspClient {
    return new LspClient(spawn(node, [serverPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  request<R>(method: string, params?: unknown): Promise<R> {
    return withTimeout(this.connection.sendRequest<R>(method, params), `${method} got no answer`);
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** `codeAction` adds to the client's code action capabilities (e.g. resolveSupport), `workspace` and `window` are its capabilities of those names. */
  async initialize(rootUri: string, initializationOptions?: unknown, codeAction: Record<string, unknown> = {}, workspace: Record<string, unknown> = {}, window: Record<string, unknown> = {}): Promise<any> {
    const result = await this.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
      capabilities: { workspace, window, textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true }, codeAction: { isPreferredSupport: true, ...codeAction } } },
      initializationOptions,
    });
    await this.notify('initialized', {});
    return result;
  }

  async open(uri: string, text: string, languageId = 'yaml'): Promise<void> {
    this.texts.set(uri, { text, version: 1, pending: [] });
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the whole text (as a full-document change) and returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.texts.get(uri)?.version ?? 1) + 1;
    this.texts.set(uri, { text, version, pending: [] });
    await this.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  /**
   * Sends one ranged (incremental) change, as editors do while typing, and returns the new version. The
   * client's copy takes the edit when it is next read: an editor's buffer takes a keystroke in
   * microseconds, where copying a 6 MB string would be timed as if the server had spent it.
   */
  async edit(uri: string, range: Range, newText: string): Promise<number> {
    const entry = this.openEntry(uri);
    entry.version++;
    entry.pending.push({ range, newText });
    await this.notify('textDocument/didChange', { textDocument: { uri, version: entry.version }, contentChanges: [{ range, text: newText }] });
    return entry.version;
  }

  /**
   * Sends ranged changes in a single write to the server's stdin, so that it reads them as one chunk: the
   * burst an editor's pipe holds when the server falls behind. (The connection writes each message after the
   * one before it is flushed, so the server could read and handle them one by one.)
   */
  async editsInOneWrite(uri: string, edits: TextEdit[]): Promise<number> {
    const entry = this.openEntry(uri);
    const frames = edits.map(({ range, newText }) => {
      entry.version++;
      entry.pending.push({ range, newText });
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: entry.version }, contentChanges: [{ range, text: newText }] } }));
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
    });
    await new Promise<void>((resolve, reject) => this.process.stdin!.write(Buffer.concat(frames), (error) => (error ? reject(error) : resolve())));
    return entry.version;
  }

  /** The version the client's copy of `uri` is at (the last one it sent). */
  versionOf(uri: string): number {
    return this.openEntry(uri).version;
  }

  textOf(uri: string): string {
    const entry = this.openEntry(uri);
    // Each change is against the text the ones before it made.
    for (const edit of entry.pending) entry.text = applyTextEdits(entry.text, [edit]);
    entry.pending = [];
    return entry.text;
  }

  private openEntry(uri: string): { text: string; version: number; pending: TextEdit[] } {
    const entry = this.texts.get(uri);
    if (!entry) throw new Error(`${uri} is not open`);
    return entry;
  }

  /**
   * Every notification of `method` the server sends from now on (one handler a method: ask once), and the first
   * of them, seen or to come, that `accept` takes.
   */
  notifications<T>(method: string): { values: T[]; first(accept: (value: T) => boolean): Promise<T> } {
    const values: T[] = [];
    const waiting: { accept: (value: T) => boolean; resolve: (value: T) => void }[] = [];
    this.connection.onNotification(method, (value: T) => {
      values.push(value);
      for (const waiter of [...waiting]) {
        if (!waiter.accept(value)) continue;
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(value);
      }
    });
    const first = (accept: (value: T) => boolean) => {
      const seen = values.find(accept);
      return seen !== undefined ? Promise.resolve(seen) : withTimeout(new Promise<T>((resolve) => waiting.push({ accept, resolve })), `no ${method} as expected`);
    };
    return { values, first };
  }

  /** How many times diagnostics were published for `uri`. */
  publishCount(uri: string): number {
    return this.publishes.get(uri) ?? 0;
  }

  /** The next diagnostics published for `uri` that satisfy `accept` (the latest ones, if they already do). */
  diagnostics(uri: string, accept: (diagnostics: Diagnostic[], version?: number) => boolean = () => true, minVersion = 0): Promise<Diagnostic[]> {
    const test = (p: PublishDiagnosticsParams) => (p.version === undefined || p.version >= minVersion) && accept(p.diagnostics, p.version);
    const current = this.latest.get(uri);
    if (current && test(current)) return Promise.resolve(current.diagnostics);
    const promise = new Promise<Diagnostic[]>((resolve) => this.waiters.push({ uri, accept: test, resolve }));
    return withTimeout(promise, `no diagnostics for ${uri} as expected; last: ${JSON.stringify(this.latest.get(uri)?.diagnostics.map((d) => `${d.code}@${d.range.start.line}`))}`);
  }

  /** The first diagnostics published for `uri` after this call (from `minVersion` on, when the server sends versions). */
  nextDiagnostics(uri: string, minVersion = 0, waitMs = WAIT_MS): Promise<Diagnostic[]> {
    const accept = (p: PublishDiagnosticsParams) => p.version === undefined || p.version >= minVersion;
    const promise = new Promise<Diagnostic[]>((resolve) => this.waiters.push({ uri, accept, resolve }));
    return withTimeout(promise, `no diagnostics for ${uri} within ${waitMs} ms`, waitMs);
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[], only?: string[]): Promise<(CodeAction | { command: string })[] | null> {
    return this.request('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, ...(only ? { only } : {}) } });
  }

  /** Applies a workspace edit's changes of `uri` to the client's copy and sends the result as a change; an edit of another version of the document is refused, as an editor does. */
  async apply(uri: string, edit: WorkspaceEdit | undefined): Promise<{ text: string; version: number }> {
    const versioned = edit?.documentChanges?.find((change): change is TextDocumentEdit => 'textDocument' in change && change.textDocument.uri === uri);
    if (versioned && versioned.textDocument.version !== this.texts.get(uri)?.version) throw new Error(`the edit is of version ${versioned.textDocument.version} of ${uri}`);
    // Snippet edits (which have no newText) are for an editor's own insertion, never in an answer to apply.
    const edits = versioned?.edits.filter((e): e is TextEdit => 'newText' in e) ?? edit?.changes?.[uri];
    if (!edits) throw new Error(`the edit has no changes for ${uri}: ${JSON.stringify(edit)}`);
    const text = applyTextEdits(this.textOf(uri), edits);
    return { text, version: await this.change(uri, text) };
  }

  async shutdown(): Promise<number | null> {
    await this.request('shutdown');
    await this.notify('exit');
    return withTimeout(this.exited, 'the server did not exit');
  }

  kill(): void {
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill();
  }
}

/** The promise, or an error with `message` once `waitMs` have passed. */
function withTimeout<T>(promise: Promise<T>, message: string, waitMs = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), waitMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The position of the `occurrence`-th (0-based) match of `needle` in `text`, plus `offset` characters. */
export function positionOf(text: string, needle: string, occurrence = 0, offset = 0): Position {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`"${needle}" occurs fewer than ${occurrence + 1} times`);
  }
  return positionAt(text, at + offset);
}

/** The line (0-based) of the `occurrence`-th line that contains `needle`. */
export function lineOf(text: string, needle: string, occurrence = 0): number {
  return positionOf(text, needle, occurrence).line;
}

/** Where each line of `text` starts, as an editor counts lines: after `\n`, `\r\n`, and a `\r` alone. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n|\r|\n/g)) starts.push(match.index + match[0].length);
  return starts;
}

export function positionAt(text: string, offset: number): Position {
  const starts = lineStarts(text);
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
  return { line, character: offset - starts[line] };
}

export function offsetAt(text: string, position: Position): number {
  return (lineStarts(text)[position.line] ?? text.length) + position.character;
}

/** The text a range covers. */
export function textAt(text: string, range: Range): string {
  return text.slice(offsetAt(text, range.start), offsetAt(text, range.end));
}

export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  let out = text;
  for (const edit of sorted) out = out.slice(0, offsetAt(out, edit.range.start)) + edit.newText + out.slice(offsetAt(out, edit.range.end));
  return out;
}
