// Runs the suites that try each fault class and rewrites their rows of docs/reliability.md from what the run found.
// Rows are keyed by their first cell: a row this run did not record (another suite's) is kept as it is.
// Nothing is written unless every suite of the run passed.
//   node scripts/reliability.mjs [suite-path-substring ...]   (default: the file and protocol fault suites)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DOC = 'docs/reliability.md';
// The fuzz suites record rows; the targeted suites beside them prove the cases those rows also name.
const DEFAULT_SUITES = ['test/fixes/fuzz', 'test/cli/fuzz', 'test/protocol/fuzz', 'test/files/', 'test/cli/fix-safety', 'test/protocol/hostile-input', 'test/fixes/apply'];
const HEADER = '| fault class | tried | cases | result |';
const suites = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_SUITES;

const folder = mkdtempSync(join(tmpdir(), 'kr-reliability-'));
try {
  const run = spawnSync(process.execPath, ['scripts/test.mjs', ...suites], { stdio: 'inherit', env: { ...process.env, RELIABILITY_ROWS: folder } });
  if (run.status !== 0) {
    console.error('reliability: a suite failed; docs/reliability.md is left as it was');
    process.exit(1);
  }
  const rowsFile = join(folder, 'rows.jsonl');
  const rows = existsSync(rowsFile) ? readFileSync(rowsFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
  const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const line = (row) => `| ${cell(row.faultClass)} | ${cell(row.tried)} | ${row.cases} | ${cell(row.result)} |`;
  const doc = readFileSync(DOC, 'utf8').split('\n');
  const start = doc.indexOf(HEADER);
  if (start === -1) throw new Error(`${DOC} has no table starting with "${HEADER}"`);
  let end = start + 2;
  while (end < doc.length && doc[end].startsWith('|')) end++;
  const table = doc.slice(start + 2, end);
  for (const row of rows) {
    const at = table.findIndex((existing) => existing.startsWith(`| ${cell(row.faultClass)} |`));
    if (at === -1) table.push(line(row));
    else table[at] = line(row);
  }
  doc.splice(start + 2, end - start - 2, ...table);
  writeFileSync(DOC, doc.join('\n'));
  console.log(`reliability: ${rows.length} rows written to ${DOC}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
