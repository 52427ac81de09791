import type { Readable } from 'node:stream';

const PUBLISH = Buffer.from('"textDocument/publishDiagnostics"');
/** How much of what came before a chunk can hold the start of a name the chunk ends. */
const KEPT = PUBLISH.length - 1;

/**
 * When the first bytes of a diagnostics publish arrived on a server's stdout since the last `reset`:
 * the server's part of a keystroke, before the client carries and reads the message. The chunk that
 * brings the start of a publish names its method (the header and the method come first), or the name
 * is split between that chunk and those before it.
 */
export function publishStarts(stream: Readable) {
  let seenAt: number | undefined;
  // The last bytes that came before, too few to hold the whole name (from several chunks, if they were short).
  let carried: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    if (seenAt !== undefined) return;
    const across = Buffer.concat([carried, chunk.subarray(0, KEPT)]);
    if (across.includes(PUBLISH) || chunk.includes(PUBLISH)) seenAt = performance.now();
    else carried = chunk.length >= KEPT ? chunk.subarray(chunk.length - KEPT) : across.subarray(-KEPT);
  };
  stream.on('data', onData);
  return {
    reset: () => {
      seenAt = undefined;
      carried = Buffer.alloc(0);
    },
    seenAt: () => seenAt,
    stop: () => stream.off('data', onData),
  };
}
