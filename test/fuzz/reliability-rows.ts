// Rows of docs/reliability.md, recorded by the suites that try each fault class when RELIABILITY_ROWS names a folder.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReliabilityRow {
  /** The first column, also the key a regenerated table replaces its row by. */
  faultClass: string;
  tried: string;
  cases: number;
  result: string;
}

export function recordRow(row: ReliabilityRow): void {
  const folder = process.env.RELIABILITY_ROWS;
  if (folder) appendFileSync(join(folder, 'rows.jsonl'), `${JSON.stringify(row)}\n`);
}
