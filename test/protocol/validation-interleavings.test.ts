import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import * as manifests from '../rules/manifests';
import { LspClient, positionOf } from './lsp-client';

const SERVER = resolve('dist/server.js');
const SEED = Number(process.env.INTERLEAVINGS_SEED ?? 7);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
}

const deployment = (name: string, replicas: number) => manifests.deployment({ name, spec: `  replicas: ${replicas}\n` });
/** `count` Deployments, one in three with a single replica: 1,000 of them are about 270 KB, 1,200 past the size validated in slices. */
const deployments = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => deployment(`${prefix}-${i}`, 1 + (i % 3))).join('---\n') + '---\n';

const described = (diagnostics: Diagnostic[]) =>
  diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`).sort();

/**
 * Once the document's validation in slices has ended (a code lens waits for it) and the server has published
 * nothing about it for a second.
 */
async function quiet(client: LspClient, uri: string): Promise<void> {
  await client.request('textDocument/codeLens', { textDocument: { uri } });
  for (let count = -1; count !== client.publishCount(uri); ) {
    count = client.publishCount(uri);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe('validation of a large document while edits, requests and settings come in', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kr-interleavings-'));
  const uri = pathToFileURL(join(dir, 'large.yaml')).toString();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`ends with the diagnostics a fresh server gives its last text, and logs no failure (seed ${SEED})`, async () => {
    const next = random(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    const client = LspClient.start(SERVER);
    const steps: string[] = [];
    try {
      await client.initialize(pathToFileURL(dir).toString(), { settings: { cluster: 'off' } });
      await client.open(uri, deployments('start', 1000));
      const pending: Promise<unknown>[] = [];
      for (let step = 0; step < 30; step++) {
        const text = client.textOf(uri);
        const roll = next();
        if (roll < 0.35) {
          // A keystroke: one replica count changed.
          const at = positionOf(text, 'replicas: ', Math.floor(next() * 50), 'replicas: '.length);
          await client.edit(uri, { start: at, end: { line: at.line, character: at.character + 1 } }, String(1 + Math.floor(next() * 3)));
          steps.push('keystroke');
        } else if (roll < 0.45) {
          // A paste of many Deployments at a document boundary: validated in slices.
          await client.edit(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, deployments(`pasted-${step}`, 1200));
          steps.push('paste');
        } else if (roll < 0.6) {
          pending.push(client.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'kind: Deployment', Math.floor(next() * 50), 2) }));
          steps.push('hover');
        } else if (roll < 0.7) {
          const triggerKind = pick([1, 2]);
          pending.push(client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 5, character: 2 }, end: { line: 5, character: 2 } }, context: { diagnostics: [], triggerKind } }));
          steps.push(`code action (trigger ${triggerKind})`);
        } else if (roll < 0.76) {
          // Settings that change findings, and back: everything analysed is dropped each time.
          await client.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: { rules: { 'single-replica': 'off' } } } });
          await client.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: {} } });
          steps.push('settings');
        } else if (roll < 0.8) {
          await client.notify('textDocument/didClose', { textDocument: { uri } });
          await client.open(uri, text);
          steps.push('close and reopen');
        } else {
          const ms = Math.floor(next() * 40);
          await new Promise((resolve) => setTimeout(resolve, ms));
          steps.push(`wait ${ms} ms`);
        }
      }
      await Promise.all(pending);
      await quiet(client, uri);
      // At the end, a keystroke and a hover while a paste is validated in slices: the keystroke is validated
      // after it, and the hover answers about the text with the keystroke. Typing has paused for longer than
      // the last validation lasted, so the paste is validated at once; each request to another document is
      // answered between two of its slices once it has started.
      await client.edit(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, deployments('last', 1200));
      for (let i = 0; i < 2; i++) await client.request('textDocument/hover', { textDocument: { uri: `${uri}.other` }, position: { line: 0, character: 0 } });
      const one = positionOf(client.textOf(uri), 'replicas: 1', 0, 'replicas: '.length);
      await client.edit(uri, { start: one, end: { line: one.line, character: one.character + 1 } }, '3');
      const card = await client.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: positionOf(client.textOf(uri), 'kind: Deployment', 0, 2) });
      assert.match(card.contents.value, /\*\*.*Deployment last-0/);
      assert.doesNotMatch(card.contents.value, /single-replica/, 'the hover knows the keystroke: last-0 runs 3 replicas now');
      const last = client.textOf(uri);
      await quiet(client, uri);
      const ours = await client.diagnostics(uri, (_, version) => version === client.versionOf(uri));

      const fresh = LspClient.start(SERVER);
      try {
        await fresh.initialize(pathToFileURL(dir).toString(), { settings: { cluster: 'off' } });
        await fresh.open(uri, last);
        const expected = await fresh.nextDiagnostics(uri, 1, 60_000);
        assert.deepEqual(described(ours), described(expected), `after: ${steps.join(', ')}`);
      } finally {
        fresh.kill();
      }
      assert.deepEqual(client.stderr.filter((line) => /failed|Error|at /.test(line)), [], `after: ${steps.join(', ')}`);
    } finally {
      client.kill();
    }
  });
});
