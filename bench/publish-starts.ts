import type { Readable } from 'node:stream';

const PUBLISH = Buffer.from('"textDocument/publishDiagnostics"');

/**
 * When the first bytes of a diagnostics publish arrived on a server's stdout since the last `reset`:
 * the server's part of a keystroke, before the client carries and reads the message. The chunk that
 * brings the start of a publish names its method (the header and the method come first), or the name
 * is split between that chunk and the one before.
 */
export function publishStarts(stream: Readable) {
  let seenAt: number | undefined;
  // The end of the chunk before, too short to hold the whole name.
  let carried: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    if (seenAt !== undefined) return;
    const across = Buffer.concat([carried, chunk.subarray(0, PUBLISH.length - 1)]);
    if (across.includes(PUBLISH) || chunk.includes(PUBLISH)) seenAt = performance.now();
    else carried = chunk.subarray(Math.max(0, chunk.length - (PUBLISH.length - 1)));
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
