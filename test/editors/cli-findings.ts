import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..');

export interface CliFinding {
  ruleId: string;
  message: string;
  /** Relative to the directory the CLI ran in; null for findings about the cluster itself. */
  file: string | null;
  range: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
  fixes: { title: string; preferred: boolean }[];
}

/** What `kube-resilience check` (dist/cli.js) finds, run in `cwd`: the reference an editor must show. */
export function cliFindings(cwd: string, args: string[]): CliFinding[] {
  const run = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'check', ...args, '--format', 'json', '--fail-on', 'none'], { cwd, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { findings: CliFinding[] }).findings;
}
