// `kube-resilience check` (a process: read, parse, analyse every rule, report) against the same files
// read and parsed by the yaml package in a process of its own, in the same run, interleaved: on the
// corpus (../shared/corpus, skipped when absent) and on the generated 106,000-line file.
// Run: npx tsx bench/check.bench.ts   (or npm run bench)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findManifestFiles } from '../server/src/inventory/manifest-files';
import { generateManifests } from './generate';
import { corpusDir, median, report } from './peer';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function timedProcess(args: string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}`);
  return performance.now() - start;
}

function compare(name: string, target: string, files: string[], dir: string): number {
  const list = join(dir, `${name}.list`);
  writeFileSync(list, files.join('\n'));
  const check: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(timedProcess([join('bench', 'read-and-parse.mjs'), list]));
    check.push(timedProcess([join('dist', 'cli.js'), 'check', target, '--format', 'json', '--fail-on', 'none']));
  }
  const ratio = median(check) / median(bare);
  console.log(`${name.padEnd(16)} ${String(files.length).padStart(5)} files  check ${median(check).toFixed(0).padStart(6)} ms  read+parse ${median(bare).toFixed(0).padStart(6)} ms  ratio ${ratio.toFixed(2)}`);
  return ratio;
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'kube-resilience-check-bench-'));
  try {
    console.log(`medians of ${RUNS} runs, each a process of its own`);
    const generated = join(dir, 'generated-106k.yaml');
    writeFileSync(generated, generateManifests(106_000));
    const ratios = [compare('generated-106k', generated, [generated], dir)];
    const corpus = corpusDir();
    if (corpus) ratios.push(compare('corpus', corpus, findManifestFiles(corpus), dir));
    else console.log('(no corpus: only the generated file)');
    report({ ratios: { coldAnalysisVsBareParse: Math.max(...ratios) } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
