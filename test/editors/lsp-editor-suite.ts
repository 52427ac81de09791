// One specification for every real LSP client nobody here wrote (Neovim, Emacs): open billing.yaml,
// get the CLI's diagnostics, hover the kind line, apply the pdb-missing fix through the client's own
// workspace-edit code, save, and see the finding go. Each editor brings a script that does those
// steps and writes what it saw as JSON to KR_RESULT.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { splitMessage } from '../../server/src/rules/message-parts';
import { commandExists } from '../../scripts/editors';
import { editorsUnavailable } from './availability';
import { cliFindings, repoRoot, type CliFinding } from './cli-findings';

export const server = join(repoRoot, 'dist', 'server.js');

interface LspDiagnostic {
  code: string;
  source: string;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

interface EditorResult {
  before: LspDiagnostic[];
  hover: string;
  actions: string[];
  fixed_finding_gone: boolean;
  after: LspDiagnostic[];
}

export interface LspEditor {
  /** How the suite is named: "Neovim 0.7", "Emacs 28 and eglot". */
  name: string;
  /** The program that must be installed. */
  command: string;
  /** The command line that runs the editor's script; `dir` is the test's own folder. */
  args(dir: string): string[];
  /** Prepares `dir` (an init file) before the editor starts. */
  prepare?(dir: string): void;
}

/** Rule, first sentence and range: a diagnostic's message is the first sentence of the CLI's. */
function comparable(list: { code?: string; ruleId?: string; message: string; range: LspDiagnostic['range'] | null }[]) {
  return list.map((d) => ({ rule: d.code ?? d.ruleId, message: splitMessage(d.message).headline, range: d.range })).sort((a, b) => a.range!.start.line - b.range!.start.line || a.range!.start.character - b.range!.start.character || String(a.rule).localeCompare(String(b.rule)));
}

export function describeLspEditor(editor: LspEditor): void {
  const unavailable = editorsUnavailable([
    [editor.command, commandExists(editor.command)],
    ['the bundles (npm run build)', existsSync(server) && existsSync(join(repoRoot, 'dist', 'cli.js'))],
  ]);

  describe(`${editor.name} with the bundled language server`, { skip: unavailable }, () => {
    let dir: string;
    let manifest: string;
    let original: string;
    let expected: CliFinding[];
    let result: EditorResult;
    let elapsedMs: number;

    before(() => {
      dir = mkdtempSync(join(tmpdir(), `kr-${editor.command}-`));
      const workspace = join(dir, 'workspace');
      mkdirSync(workspace);
      manifest = join(workspace, 'billing.yaml');
      copyFileSync(join(repoRoot, 'examples', 'billing.yaml'), manifest);
      original = readFileSync(manifest, 'utf8');
      expected = cliFindings(workspace, ['billing.yaml', '--demo']).filter((f) => f.file === 'billing.yaml');
      const pdbMissing = expected.find((f) => f.ruleId === 'pdb-missing');
      assert.ok(pdbMissing, 'the CLI reports pdb-missing for billing.yaml');
      const fixTitle = pdbMissing.fixes.find((f) => f.preferred)?.title;
      assert.ok(fixTitle, 'pdb-missing has a preferred fix');
      editor.prepare?.(dir);
      const xdg = (name: string) => join(dir, name);
      const started = Date.now();
      const run = spawnSync(editor.command, editor.args(dir), {
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          HOME: xdg('home'),
          XDG_CONFIG_HOME: xdg('config'),
          XDG_DATA_HOME: xdg('data'),
          XDG_STATE_HOME: xdg('state'),
          XDG_CACHE_HOME: xdg('cache'),
          KR_SERVER: server,
          KR_FILE: manifest,
          KR_RESULT: join(dir, 'result.json'),
          KR_FIX_RULE: 'pdb-missing',
          KR_FIX_TITLE: fixTitle,
          KR_HOVER_LINE: String(original.split('\n').findIndex((line) => line.startsWith('kind: Deployment'))),
        },
      });
      elapsedMs = Date.now() - started;
      assert.equal(run.status, 0, `${editor.command} failed (${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`);
      result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    });

    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      console.log(`${editor.name} editor test: ${(elapsedMs / 1000).toFixed(1)} s in ${editor.command}`);
    });

    it('receives the diagnostics the CLI reports, with rule ids, messages and exact ranges', () => {
      assert.ok(result.before.every((d) => d.source === 'kube-resilience'));
      assert.deepEqual(result.before.filter((d) => splitMessage(d.message).details), [], 'each message is one sentence: the rest is in the related information');
      assert.deepEqual(comparable(result.before), comparable(expected));
    });

    it("answers a hover on the workload's kind with the resilience card", () => {
      assert.match(result.hover, /Deployment legacy\/billing/);
      assert.match(result.hover, /\| Failure \| What happens \|/);
    });

    it("offers the pdb-missing fix, which the client applies with its own workspace-edit code", () => {
      const fixed = readFileSync(manifest, 'utf8');
      assert.ok(result.actions.length >= 2, `code actions: ${result.actions.join(', ')}`);
      assert.ok(fixed.startsWith(original.trimEnd()), 'the original text and its comments are kept as they were');
      const added = fixed.slice(original.trimEnd().length);
      assert.match(added, /^\n---\n/);
      assert.match(added, /kind: PodDisruptionBudget/);
      assert.match(added, /name: billing-pdb/);
      assert.match(added, /namespace: legacy/);
      assert.match(added, /maxUnavailable: 1/);
      assert.match(added, /app: billing/);
    });

    it('no longer reports the finding after saving, and keeps every other one', () => {
      assert.equal(result.fixed_finding_gone, true);
      const others = expected.filter((f) => f.ruleId !== 'pdb-missing');
      assert.deepEqual(comparable(result.after).filter((d) => d.rule !== 'pdb-missing').map((d) => d.rule), comparable(others).map((d) => d.rule));
      assert.ok(!result.after.some((d) => d.code === 'pdb-missing'));
    });
  });
}
