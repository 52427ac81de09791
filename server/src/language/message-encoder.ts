import type { ContentTypeEncoder, Message } from 'vscode-languageserver/node';

/**
 * The JSON of outgoing messages, with one difference from the protocol library's: a diagnostics publish
 * reuses the bytes of each diagnostic it sent before. A keystroke in a large file publishes thousands of
 * diagnostics of which a handful changed (the others are the same objects, see Validation.diagnosticOf);
 * encoding them all again was a fifth of the keystroke's cost.
 */
export function reusingDiagnosticsEncoder(): ContentTypeEncoder {
  const sent = new WeakMap<object, Buffer>();
  return {
    name: 'application/json',
    encode(message: Message): Promise<Uint8Array> {
      try {
        return Promise.resolve(isPublish(message) ? publishBytes(message, sent) : Buffer.from(JSON.stringify(message), 'utf8'));
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

function publishBytes(message: Publish, sent: WeakMap<object, Buffer>): Buffer {
  const empty = JSON.stringify({ ...message, params: { ...message.params, diagnostics: [] } });
  // The message with no diagnostics ends in `[]}}`: the diagnostics go between its brackets.
  const at = empty.lastIndexOf('[]');
  const parts: Buffer[] = [Buffer.from(empty.slice(0, at + 1), 'utf8')];
  for (const [i, diagnostic] of message.params.diagnostics.entries()) {
    let bytes = sent.get(diagnostic);
    if (!bytes) sent.set(diagnostic, (bytes = Buffer.from(JSON.stringify(diagnostic), 'utf8')));
    if (i > 0) parts.push(COMMA);
    parts.push(bytes);
  }
  parts.push(Buffer.from(empty.slice(at + 1), 'utf8'));
  return Buffer.concat(parts);
}
