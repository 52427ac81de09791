import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CompletionItem, Hover } from 'vscode-languageserver';
import { applyTextEdits, LspClient, positionOf } from './lsp-client';

const SERVER = resolve('dist/server.js');

const TEXT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  annotations:
    kube-resilience/sessions: 
spec:
  # kube-resilience-ignore 
  replicas: 1
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
        - name: api
          image: example/api:1.0
`;

describe('completion and field hovers over stdio', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  let dir: string;
  let client: LspClient;
  let uri: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kr-complete-'));
    uri = pathToFileURL(join(dir, 'api.yaml')).toString();
    client = LspClient.start(SERVER);
    const result = await client.initialize(pathToFileURL(dir).toString());
    assert.ok(result.capabilities.completionProvider, 'the server offers completion');
    await client.open(uri, TEXT);
  });

  after(() => {
    client?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes rule ids in an ignore comment, and the edit writes a working suppression', async () => {
    const position = positionOf(TEXT, '# kube-resilience-ignore ', 0, '# kube-resilience-ignore '.length);
    const items = await client.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position });
    const single = items.find((i) => i.label === 'single-replica');
    assert.equal([...items].sort((x, y) => (x.sortText ?? '').localeCompare(y.sortText ?? ''))[0].label, 'single-replica', 'the rule reported on the next line comes first');
    assert.ok(single?.textEdit && 'range' in single.textEdit, 'single-replica is offered with an edit');
    const fixed = applyTextEdits(TEXT, [single.textEdit]);
    assert.match(fixed, /# kube-resilience-ignore single-replica\n {2}replicas: 1/);
    await client.diagnostics(uri, (d) => d.some((x) => x.code === 'single-replica'));
    const version = await client.change(uri, fixed);
    const diagnostics = await client.diagnostics(uri, () => true, version);
    assert.ok(!diagnostics.some((d) => d.code === 'single-replica'), 'the suppressed finding is gone');
  });

  it('completes the values of kube-resilience/sessions', async () => {
    const position = positionOf(TEXT, 'kube-resilience/sessions: ', 0, 'kube-resilience/sessions: '.length);
    const items = await client.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position });
    assert.deepEqual(items.map((i) => i.label), ['in-memory', 'external']);
  });

  it('completes what is being typed, keystroke by keystroke (the lines an edit left in pieces)', async () => {
    const line = positionOf(client.textOf(uri), 'kube-resilience/sessions').line + 1;
    await client.edit(uri, { start: { line, character: 0 }, end: { line, character: 0 } }, '\n');
    let character = 0;
    for (const typed of ['    ', 'k', 'u', 'b', 'e', '-', 'r']) {
      await client.edit(uri, { start: { line, character }, end: { line, character } }, typed);
      character += typed.length;
    }
    const items = await client.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: { line, character } });
    assert.ok(items.length > 0 && items.every((i) => i.label.startsWith('kube-resilience/')), `annotation keys under annotations: ${items.map((i) => i.label)}`);
    assert.deepEqual(items[0].textEdit && 'range' in items[0].textEdit ? items[0].textEdit.range : undefined, { start: { line, character: 4 }, end: { line, character } });
    // The line typed goes again: the document parses as before.
    await client.edit(uri, { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, '');
  });

  it('explains replicas on hover', async () => {
    const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(client.textOf(uri), 'replicas', 0, 2) });
    assert.ok(hover, 'a hover on replicas');
    assert.match((hover.contents as { value: string }).value, /Pods the controller keeps running \(1\)/);
  });
});
