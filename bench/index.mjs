// Runs every bench/*.bench.ts (TypeScript through tsx), one after another, each in its own process with
// the collector exposed (a bench may collect its own garbage before it times), passes its report through,
// and ends with a table of what ran. Each bench may hand back its part of
// the results (BENCH_REPORT names the file); they are merged into bench/results.json. A run of some
// benches only updates their part of an existing results.json.
// Usage: node bench/index.mjs [name-substring ...]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  .sort();

if (benches.length === 0) {
  console.error(`bench: nothing matches ${only.join(' ')}`);
  process.exit(2);
}

function merge(into, part) {
  for (const [key, value] of Object.entries(part)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && into[key] && typeof into[key] === 'object') merge(into[key], value);
    else into[key] = value;
  }
  return into;
}

const resultsPath = join(here, 'results.json');
const results = only.length && existsSync(resultsPath) ? JSON.parse(readFileSync(resultsPath, 'utf8')) : {};
const reports = mkdtempSync(join(tmpdir(), 'kube-resilience-bench-reports-'));
const summary = [];
for (const name of benches) {
  console.log(`\n== ${name}`);
  const start = performance.now();
  const reportPath = join(reports, `${name}.json`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, name)], { stdio: 'inherit', cwd: join(here, '..'), env: { ...process.env, BENCH_REPORT: reportPath } });
  if (result.status === 0 && existsSync(reportPath)) merge(results, JSON.parse(readFileSync(reportPath, 'utf8')));
  summary.push({ name, status: result.status === 0 ? 'ok' : `failed (${result.status ?? result.signal})`, seconds: ((performance.now() - start) / 1000).toFixed(1) });
}
rmSync(reports, { recursive: true, force: true });
results.details = { ...results.details, measuredAt: new Date().toISOString() };
writeFileSync(`${resultsPath}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
renameSync(`${resultsPath}.tmp`, resultsPath);

const width = Math.max(5, ...summary.map((s) => s.name.length));
console.log(`\n${'bench'.padEnd(width)}  ${'result'.padEnd(12)}  seconds`);
for (const s of summary) console.log(`${s.name.padEnd(width)}  ${s.status.padEnd(12)}  ${s.seconds.padStart(7)}`);
console.log(`\nresults: ${JSON.stringify({ ratios: results.ratios, fixAllVsOwnCold: results.fixAllVsOwnCold, open1000DocsSeconds: results.open1000DocsSeconds, snapshot150kPods: results.snapshot150kPods, vsixBytes: results.vsixBytes, initializeMs: results.initializeMs })}`);
process.exit(summary.every((s) => s.status === 'ok') ? 0 : 1);
