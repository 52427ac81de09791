// Analysis benchmark: a generated 35,000-line file and the largest files of ../shared/corpus.
// For each: the yaml package's own parseAllDocuments of the same text (the baseline, same run),
// a cold parse + analysis with every rule, and a re-analysis after a one-line edit; reported as
// ratios (no absolute thresholds), with each input's peak RSS measured in a process of its own.
// edit/yaml is what a keystroke costs the language server (parse via the cache + every rule, fixes
// left uncomputed as diagnostics leave them) against reading the same text once with the yaml package.
// Run: npx tsx bench/analysis.bench.ts   (or npm run bench)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Inventory } from '../server/src/inventory/inventory';
import { findManifestFiles } from '../server/src/inventory/manifest-files';
import { clearParseCache, parseManifest } from '../server/src/manifest/parse';
import { analyzeFile } from '../server/src/rules/engine';
import { generateManifests } from './generate';

const CORPUS = join('..', 'shared', 'corpus');
const GENERATED = 'generated:35000';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Measurement {
  input: string;
  lines: number;
  documents: number;
  findings: number;
  baselineMs: number;
  coldMs: number;
  editMs: number;
  peakRssMb: number;
}

function textOf(input: string): string {
  return input === GENERATED ? generateManifests(35_000) : readFileSync(input, 'utf8');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** The text with one line in its middle changed, as a keystroke would: a digit, or a trailing comment. */
function oneLineEdit(text: string): string {
  const middle = Math.floor(text.length / 2);
  const lineStart = text.lastIndexOf('\n', middle) + 1;
  const lineEnd = text.indexOf('\n', middle);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  const edited = /\d/.test(line) ? line.replace(/\d/, (d) => String((Number(d) + 1) % 10)) : `${line} # edited`;
  return text.slice(0, lineStart) + edited + text.slice(lineStart + line.length);
}

function analyse(uri: string, text: string, inventory: Inventory): number {
  const file = parseManifest(uri, text);
  inventory.setFile(file);
  return analyzeFile(file, inventory).length;
}

function measure(input: string): Measurement {
  const text = textOf(input);
  const edited = oneLineEdit(text);
  const uri = input === GENERATED ? 'generated.yaml' : input;
  const baseline: number[] = [];
  const cold: number[] = [];
  const edit: number[] = [];
  let findings = 0;
  for (let run = 0; run < RUNS; run++) {
    baseline.push(timed(() => parseAllDocuments(text)));
    clearParseCache();
    cold.push(timed(() => (findings = analyse(uri, text, new Inventory()))));
    const inventory = new Inventory();
    analyse(uri, text, inventory);
    edit.push(timed(() => analyse(uri, edited, inventory)));
  }
  return {
    input: input === GENERATED ? input : relative(CORPUS, input),
    lines: text.split('\n').length,
    documents: parseManifest(uri, text).documents.length,
    findings,
    baselineMs: median(baseline),
    coldMs: median(cold),
    editMs: median(edit),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function largestCorpusFiles(count: number): string[] {
  if (!existsSync(CORPUS)) return [];
  return findManifestFiles(CORPUS)
    .map((path) => ({ path, size: statSync(path).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, count)
    .map((f) => f.path);
}

function main(): void {
  const inputs = [GENERATED, ...largestCorpusFiles(Number(process.env.BENCH_CORPUS_FILES ?? 3))];
  if (!existsSync(CORPUS)) console.log(`(no corpus at ${CORPUS}: only the generated file)`);
  console.log(`median of ${RUNS} runs each; every input measured in a process of its own`);
  const header = ['input', 'lines', 'docs', 'findings', 'yaml ms', 'cold ms', 'cold/yaml', 'edit ms', 'edit/yaml', 'edit/cold', 'peak RSS'];
  const rows: string[][] = [];
  for (const input of inputs) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--measure', input], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (child.status !== 0) {
      rows.push([input, 'failed:', (child.stderr || '').trim().split('\n').pop() ?? '']);
      continue;
    }
    const m = JSON.parse(child.stdout.trim().split('\n').pop()!) as Measurement;
    rows.push([
      m.input,
      String(m.lines),
      String(m.documents),
      String(m.findings),
      m.baselineMs.toFixed(0),
      m.coldMs.toFixed(0),
      (m.coldMs / m.baselineMs).toFixed(2),
      m.editMs.toFixed(1),
      (m.editMs / m.baselineMs).toFixed(3),
      (m.editMs / m.coldMs).toFixed(3),
      `${m.peakRssMb.toFixed(0)} MB`,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (row: string[]) => row.map((cell, i) => (i === 0 ? (cell ?? '').padEnd(widths[i]) : (cell ?? '').padStart(widths[i]))).join('  ');
  console.log(format(header));
  for (const row of rows) console.log(format(row));
}

const measureAt = process.argv.indexOf('--measure');
if (measureAt >= 0) console.log(JSON.stringify(measure(process.argv[measureAt + 1])));
else main();
