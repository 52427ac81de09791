// How to read the YAML of a cold open: the approaches issue 13 names, timed on the same texts in one run
// (median of BENCH_RUNS, each cold: a fresh parse, the parse cache cleared, interleaved). Each must give the
// documents' values the server gives (checked first); all but the token stream and the workers also build
// each document's nodes (for ranges), as the analysis needs:
// - parseAllDocuments: the yaml package's whole-text API;
// - Parser + Composer: the package's own pipeline from its token stream, each document's value taken;
// - Lexer: the package's token stream alone, a floor for anything built on the package's tokens;
// - split + parseDocument: each YAML document parsed by the package on its own;
// - split + block reader alone: each document read by our block reader (the package for what it leaves,
//   as the server calls it);
// - split + block reader (ours): what the server does, the documents and resources of the file made too;
// - worker threads: the documents shared between workers already started that read them with the block
//   reader and post back their values; a floor for that approach, since the nodes cannot cross threads
//   (a structured clone keeps no class) and would be read again on the main thread.
// Run: npx tsx bench/parse.bench.ts   (or npm run bench)
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Composer, Lexer, Parser, parseAllDocuments, parseDocument } from 'yaml';
import { clearParseCache, parseManifest, parseUncached } from '../server/src/manifest/parse';
import { splitDocuments } from '../server/src/manifest/split';
import { generateManifests } from './generate';
import { corpusDir, median, report } from './peer';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OURS = 'split + block reader (ours)';

interface Input {
  name: string;
  text: string;
}

function inputs(): Input[] {
  const list: Input[] = [
    { name: 'generated-106k', text: generateManifests(106_000) },
    { name: 'generated-35k', text: generateManifests(35_000) },
  ];
  const argo = join(corpusDir() ?? '', 'argo-cd', 'manifests', 'install.yaml');
  if (existsSync(argo)) list.push({ name: 'argo-cd-install', text: readFileSync(argo, 'utf8') });
  else console.log('(no argo-cd/manifests/install.yaml in the corpus: left out)');
  return list;
}

/** Reads a text; gives each document's plain value (the Lexer, which makes none, its token count). */
type Approach = (text: string) => unknown[] | number | Promise<unknown[]>;

const SYNC_APPROACHES: [string, Approach][] = [
  ['parseAllDocuments', (text) => parseAllDocuments(text).map((doc) => doc.toJS())],
  ['Parser + Composer', (text) => Array.from(new Composer().compose(new Parser().parse(text)), (doc) => doc.toJS())],
  ['Lexer (tokens only)', (text) => Array.from(new Lexer().lex(text)).length],
  ['split + parseDocument', (text) => splitDocuments(text).map(({ text: own }) => parseDocument(own).toJS())],
  ['split + block reader alone', (text) => splitDocuments(text).map(({ text: own }) => parseUncached(own).value)],
  [
    OURS,
    (text) => {
      clearParseCache();
      return parseManifest('file:///bench.yaml', text).documents.map((d) => d.parsed.value);
    },
  ],
];

/** Workers that read document texts with the block reader and send back their values. */
class WorkerPool {
  private readonly workers: Worker[];

  constructor(size: number) {
    // A worker of Node 20 does not take the parent's --import tsx: it registers tsx's require hook itself.
    const source = `require('tsx/cjs/api').register(); require(${JSON.stringify(join(__dirname, 'parse-worker.ts'))});`;
    this.workers = Array.from({ length: size }, () => new Worker(source, { eval: true }));
  }

  get size(): number {
    return this.workers.length;
  }

  /** The values of the text's documents, each worker given an equal run of them. */
  async parse(text: string): Promise<unknown[]> {
    const texts = splitDocuments(text).map((c) => c.text);
    const share = Math.ceil(texts.length / this.workers.length);
    const parts = await Promise.all(
      this.workers.map(
        (worker, i) =>
          new Promise<unknown[]>((resolve) => {
            worker.once('message', resolve);
            worker.postMessage(texts.slice(i * share, (i + 1) * share));
          }),
      ),
    );
    return parts.flat();
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

async function timed(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const pools = [new WorkerPool(1), new WorkerPool(Math.max(2, availableParallelism()))];
  const results: Record<string, Record<string, number>> = {};
  try {
    for (const { name, text } of inputs()) {
      const approaches: [string, Approach][] = [...SYNC_APPROACHES, ...pools.map((pool): [string, Approach] => [`${pool.size} worker thread${pool.size > 1 ? 's' : ''} (values only)`, (t) => pool.parse(t)])];
      // Each approach once untimed, so that none is timed while V8 compiles it; each must read what ours reads.
      const expected = JSON.stringify(await approaches.find(([label]) => label === OURS)![1](text));
      for (const [label, run] of approaches) {
        const values = await run(text);
        if (Array.isArray(values) && JSON.stringify(values) !== expected) throw new Error(`${label} reads ${name} otherwise than the server`);
      }
      const times = new Map<string, number[]>(approaches.map(([label]) => [label, []]));
      // Interleaved, so that the machine's load falls on every approach alike.
      for (let round = 0; round < RUNS; round++) {
        for (const [label, run] of approaches) {
          (globalThis as { gc?: () => void }).gc?.();
          times.get(label)!.push(await timed(() => run(text)));
        }
      }
      const ours = median(times.get(OURS)!);
      console.log(`\n${name}: ${text.split('\n').length} lines, ${splitDocuments(text).length} documents; median of ${RUNS} (ms, and against ours)`);
      results[name] = {};
      for (const [label] of approaches) {
        const ms = median(times.get(label)!);
        results[name][label] = Math.round(ms * 10) / 10;
        console.log(`  ${label.padEnd(36)} ${ms.toFixed(1).padStart(8)}  ${(ms / ours).toFixed(2)}×`);
      }
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.stop()));
  }
  report({ details: { coldParseMs: results } });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
