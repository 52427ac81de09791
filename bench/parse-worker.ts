// A worker of parse.bench.ts: reads each document text it is sent with the block reader (the package for
// what it leaves, as the server calls it) and posts back the plain values (the nodes cannot cross: a structured clone keeps no class).
import { parentPort } from 'node:worker_threads';
import { parseUncached } from '../server/src/manifest/parse';

parentPort!.on('message', (texts: string[]) => {
  parentPort!.postMessage(texts.map((text) => parseUncached(text).value));
});
