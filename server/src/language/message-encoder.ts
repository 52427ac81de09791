import type { ContentTypeEncoder, Message } from 'vscode-languageserver/node';

/**
 * The JSON of outgoing messages, with one difference from the protocol library's: a diagnostics publish
 * reuses the bytes of each diagnostic it sent before. A keystroke in a large file publishes thousands of
 * diagnostics of which a handful changed (the others are the same objects, see Validation.diagnosticOf);
 * encoding them all again was a fifth of the keystroke's cost.
 */
export function reusingDiagnosticsEncoder(): ContentTypeEncoder {
  const sent = new WeakMap<object, Buffer>();
  const out: Output = { buffer: Buffer.alloc(0) };
  return {
    name: 'application/json',
    encode(message: Message): Promise<Uint8Array> {
      try {
        return Promise.resolve(isPublish(message) ? publishBytes(message, sent, out) : Buffer.from(JSON.stringify(message), 'utf8'));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

interface Publish extends Message {
  method: 'textDocument/publishDiagnostics';
  params: { uri: string; version?: number; diagnostics: object[] };
}

function isPublish(message: Message): message is Publish {
  const { method, params } = message as { method?: unknown; params?: { diagnostics?: unknown } };
  return method === 'textDocument/publishDiagnostics' && Array.isArray(params?.diagnostics);
}

const COMMA = Buffer.from(',');

function publishBytes(message: Publish, sent: WeakMap<object, Buffer>, out: Output): Uint8Array {
  const empty = JSON.stringify({ ...message, params: { ...message.params, diagnostics: [] } });
  // The message with no diagnostics ends in `[]}}`: the diagnostics go between its brackets.
  const at = empty.lastIndexOf('[]');
  const parts: Buffer[] = [Buffer.from(empty.slice(0, at + 1), 'utf8')];
  const { diagnostics } = message.params;
  for (let i = 0; i < diagnostics.length; i++) {
    const diagnostic = diagnostics[i];
    let bytes = sent.get(diagnostic);
    if (!bytes) sent.set(diagnostic, (bytes = Buffer.from(JSON.stringify(diagnostic), 'utf8')));
    if (i > 0) parts.push(COMMA);
    parts.push(bytes);
  }
  parts.push(Buffer.from(empty.slice(at + 1), 'utf8'));
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  if (out.buffer.length < length) out.buffer = Buffer.allocUnsafe(Math.max(length, out.buffer.length * 2));
  let offset = 0;
  for (const part of parts) offset += part.copy(out.buffer, offset);
  return out.buffer.subarray(0, length);
}

/**
 * Where publishes are written: one buffer, grown when a publish needs more, instead of megabytes of new
 * memory per keystroke (which also brings garbage collections forward). The protocol writer encodes a
 * message only once the previous one's write has completed (it holds a lock until then), so the buffer
 * is never written to while its last contents are still being sent.
 */
interface Output {
  buffer: Buffer;
}
