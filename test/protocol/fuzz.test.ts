import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { mutate, pick, seeded, seedFiles } from '../fuzz/mutate';
import { recordRow } from '../fuzz/reliability-rows';
import * as manifests from '../rules/manifests';
import { LspClient, positionAt } from './lsp-client';

const SERVER = resolve('dist/server.js');
const SEED = Number(process.env.KR_FUZZ_SEED ?? 9);
const MESSAGES = 3000;
const BUDGET_MS = 25_000;
const BATCH = 40;

const REQUESTS = ['textDocument/hover', 'textDocument/codeAction', 'textDocument/completion', 'textDocument/codeLens', 'codeAction/resolve', 'kubeResilience/simulate', 'kubeResilience/clusterFindings', 'textDocument/definition', 'no/such-method'];
const NOTIFICATIONS = ['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave', 'workspace/didChangeWatchedFiles', 'workspace/didChangeConfiguration', '$/cancelRequest', '$/setTrace', 'no/such-notification'];

/** Any JSON value, leaning towards the shapes LSP params have, so that checks past the first level are reached. */
function junk(random: () => number, depth = 0): unknown {
  const roll = random();
  if (depth > 3 || roll < 0.3) return pick(random, [null, 0, -1, 1.5, 2 ** 53, '', 'x', 'file:///', true, [], {}, '\u0000', 'a'.repeat(1000)]);
  if (roll < 0.45) return Array.from({ length: Math.floor(random() * 4) }, () => junk(random, depth + 1));
  const keys = ['textDocument', 'uri', 'text', 'version', 'languageId', 'position', 'range', 'start', 'end', 'line', 'character', 'context', 'only', 'diagnostics', 'contentChanges', 'changes', 'type', 'settings', 'data', 'id'];
  return Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, () => [pick(random, keys), junk(random, depth + 1)]));
}

describe(`fuzz: random protocol messages and edits against the bundled server (seed ${SEED})`, { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  let dir: string;
  let client: LspClient;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kr-lsp-fuzz-'));
    writeFileSync(join(dir, 'pdb.yaml'), manifests.pdb('  maxUnavailable: 1\n', { name: 'web-pdb', selector: '    matchLabels:\n      app: web\n' }));
    client = LspClient.start(SERVER);
    await client.initialize(pathToFileURL(dir).toString(), undefined, { resolveSupport: { properties: ['edit'] } });
  });
  after(() => {
    client.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every request, survives every notification and edit, and still analyses afterwards', async () => {
    const random = seeded(SEED);
    const seeds = seedFiles(20);
    const uris = Array.from({ length: 6 }, (_, i) => pathToFileURL(join(dir, `doc-${i}.yaml`)).toString());
    const texts = new Map<string, { text: string; version: number }>();
    const started = Date.now();
    const counts = { requests: 0, answered: 0, errors: 0, notifications: 0, edits: 0 };
    let sent = 0;
    while (sent < MESSAGES && Date.now() - started < BUDGET_MS) {
      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < BATCH; i++, sent++) {
        const uri = pick(random, uris);
        const open = texts.get(uri);
        const roll = random();
        if (roll < 0.2 || !open) {
          // Well-formed sync traffic keeps real documents open for the requests to reach the engine.
          const text = mutate(pick(random, seeds).text, random, Math.floor(random() * 3)).text;
          texts.set(uri, { text, version: 1 });
          counts.notifications++;
          pending.push(client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } }));
        } else if (roll < 0.45) {
          const version = open.version + 1;
          const from = Math.floor(random() * (open.text.length + 1));
          const to = Math.min(open.text.length, from + Math.floor(random() * 40));
          const insert = pick(random, ['', 'x', '\n', ': ', '- ', '  ', '---\n', 'replicas: 1\n', '{', '"', '\t', '#']);
          texts.set(uri, { text: open.text.slice(0, from) + insert + open.text.slice(to), version });
          counts.edits++;
          pending.push(client.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: positionAt(open.text, from), end: positionAt(open.text, to) }, text: insert }] }));
        } else if (roll < 0.75) {
          const method = pick(random, REQUESTS);
          const params = random() < 0.5 ? { textDocument: { uri }, position: positionAt(open.text, Math.floor(random() * (open.text.length + 1))), range: { start: { line: 0, character: 0 }, end: positionAt(open.text, open.text.length) }, context: { diagnostics: [], only: random() < 0.5 ? ['source.fixAll'] : undefined } } : junk(random);
          counts.requests++;
          pending.push(
            client.request(method, params).then(
              () => counts.answered++,
              (error: Error) => {
                if (/got no answer/.test(error.message)) throw error;
                counts.errors++;
              },
            ),
          );
        } else {
          counts.notifications++;
          pending.push(client.notify(pick(random, NOTIFICATIONS), junk(random)));
        }
      }
      await Promise.all(pending);
      assert.equal(client.process.exitCode, null, `the server exited after ${sent} messages: ${client.stderr.join('').slice(-2000)}`);
    }
    assert.equal(counts.answered + counts.errors, counts.requests, 'every request answered');
    assert.ok(sent >= 500, `only ${sent} messages sent`);
    const alive = pathToFileURL(join(dir, 'alive.yaml')).toString();
    await client.open(alive, manifests.deployment({ name: 'alive', spec: '  replicas: 1\n' }));
    const diagnostics: Diagnostic[] = await client.diagnostics(alive, (d) => d.some((x) => x.code === 'single-replica'));
    assert.ok(diagnostics.length > 0);
    recordRow({
      faultClass: 'protocol: random messages and edits',
      tried: `${sent} messages against dist/server.js over stdio, seed ${SEED}: didOpen of mutated manifests, random ranged edits, requests (hover, codeAction, completion, codeLens, resolve, simulate, unknown methods) with real or random params, notifications with random params`,
      cases: sent,
      result: `server never exited; ${counts.requests} requests: ${counts.answered} answered, ${counts.errors} answered with an error, 0 unanswered; still analysing afterwards`,
    });
  });
});
