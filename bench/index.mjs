// Runs every bench/*.bench.ts (TypeScript through tsx), one after another, each in its own process,
// passes its report through, and ends with a table of what ran.
// Usage: node bench/index.mjs [name-substring ...]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
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

const summary = [];
for (const name of benches) {
  console.log(`\n== ${name}`);
  const start = performance.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, name)], { stdio: 'inherit', cwd: join(here, '..') });
  summary.push({ name, status: result.status === 0 ? 'ok' : `failed (${result.status ?? result.signal})`, seconds: ((performance.now() - start) / 1000).toFixed(1) });
}

const width = Math.max(5, ...summary.map((s) => s.name.length));
console.log(`\n${'bench'.padEnd(width)}  ${'result'.padEnd(12)}  seconds`);
for (const s of summary) console.log(`${s.name.padEnd(width)}  ${s.status.padEnd(12)}  ${s.seconds.padStart(7)}`);
process.exit(summary.every((s) => s.status === 'ok') ? 0 : 1);
