import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { CodeAction, Hover } from 'vscode-languageserver';
import { CancellationToken, CancellationTokenSource } from 'vscode-jsonrpc/node';
import * as manifests from '../rules/manifests';
import { codes, deployment, has, lacks, pdb } from './fixtures';
import { applyTextEdits, LspClient, lineOf, positionOf, textAt } from './lsp-client';

const SERVER = resolve('dist/server.js');

const isAction = (a: CodeAction | { command: string }): a is CodeAction => 'title' in a && 'kind' in a;
/** The documents and versions a versioned edit is of. */
const versionOf = (action: CodeAction) => action.edit?.documentChanges?.map((change) => ('textDocument' in change ? change.textDocument : change));

describe('language server over stdio', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  let dir: string;
  let client: LspClient;
  const uri = (name: string) => pathToFileURL(join(dir, name)).toString();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kr-lsp-'));
    // On disk only: the server finds it by scanning the workspace folder.
    writeFileSync(join(dir, 'web-pdb.yaml'), pdb('web'));
    mkdirSync(join(dir, 'a+b'));
    writeFileSync(join(dir, 'a+b', 'guard.yaml'), pdb('guarded'));
    writeFileSync(join(dir, 'app.yaml'), '');
    // What `kubectl get pdb -A -o json > live.json` leaves in a repository: live objects, not manifests.
    writeFileSync(join(dir, 'live.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: [{ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'snapped-pdb', namespace: 'default', uid: '5f1c', resourceVersion: '4411' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'snapped' } } }, status: { disruptionsAllowed: 1 } }] }));
    client = LspClient.start(SERVER);
    const result = await client.initialize(pathToFileURL(dir).toString());
    assert.equal(result.serverInfo?.name, 'kube-resilience');
    assert.ok(result.capabilities.hoverProvider, 'offers hovers');
    assert.ok(result.capabilities.codeActionProvider.codeActionKinds.includes('source.fixAll.kube-resilience'), 'offers fix-all');
  });

  after(() => {
    client?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes diagnostics with rule ids, exact ranges and docs links, seeing a PDB in another file', async () => {
    const text = `${deployment('web', 3)}---\n${deployment('api', 3)}---\n${deployment('solo', 1)}`;
    await client.open(uri('app.yaml'), text);
    const diagnostics = await client.diagnostics(uri('app.yaml'), (d) => has('pdb-missing')(d) && has('single-replica')(d) && d.filter((x) => x.code === 'pdb-missing').length === 1);
    const missing = diagnostics.find((d) => d.code === 'pdb-missing')!;
    assert.equal(missing.source, 'kube-resilience');
    assert.equal(missing.range.start.line, lineOf(text, 'kind: Deployment', 1), 'on the api Deployment, not web (covered by web-pdb.yaml)');
    assert.equal(textAt(text, missing.range), 'kind: Deployment');
    assert.equal(missing.message, 'Deployment api: 3 replicas and no PDB: a drain may evict all 3 pods at once.', 'the message is the first sentence alone');
    assert.deepEqual(
      missing.relatedInformation?.[0],
      { location: { uri: uri('app.yaml'), range: missing.range }, message: 'A node drain or an autoscaler scale-down evicts without limit; a PDB makes them take the pods one at a time.' },
      'the rest of it comes first among the related information, at the finding itself',
    );
    const single = diagnostics.find((d) => d.code === 'single-replica')!;
    assert.equal(textAt(text, single.range), 'replicas');
    assert.equal(single.range.start.line, lineOf(text, 'replicas: 1'));
    for (const d of diagnostics) {
      const page = join('docs', 'rules', `${d.code}.md`);
      if (existsSync(page)) assert.ok(d.codeDescription?.href.endsWith(`/docs/rules/${d.code}.md`), `${d.code} links its docs`);
      else assert.equal(d.codeDescription, undefined, `${d.code} has no docs page, so no link`);
    }
  });

  it('answers a hover on a workload kind with its card', async () => {
    const text = client.textOf(uri('app.yaml'));
    const hover = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: uri('app.yaml') }, position: positionOf(text, 'kind: Deployment', 1, 2) });
    assert.ok(hover, 'a hover is returned');
    const contents = hover.contents as { kind: string; value: string };
    assert.equal(contents.kind, 'markdown');
    const value = contents.value;
    assert.match(value, /api/);
    assert.match(value, /\[`pdb-missing`\]\(file:[^)]*\/docs\/rules\/pdb-missing\.md "[^"]+"\)/, 'the card links each finding to its rule page, as diagnostics do');
    assert.match(value, /\[control-plane\.md\]\(file:[^)]*\/docs\/facts\/control-plane\.md\) §3/, 'and its timings to the fact sheets');
    const none = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri: uri('app.yaml') }, position: positionOf(text, 'image:') });
    assert.equal(none, null, 'no card away from kind');
  });

  it('fixes pdb-missing and single-replica through code actions, and the findings go away', async () => {
    const u = uri('app.yaml');
    for (const ruleId of ['pdb-missing', 'single-replica']) {
      const diagnostics = await client.diagnostics(u, has(ruleId));
      const diagnostic = diagnostics.find((d) => d.code === ruleId)!;
      const actions = (await client.codeActions(u, diagnostic.range, [diagnostic]))!.filter(isAction);
      const titles = actions.map((a) => a.title);
      assert.ok(titles.some((t) => t.startsWith(`Ignore ${ruleId} for`)), `offers the annotation ignore: ${titles}`);
      assert.ok(titles.includes(`Ignore ${ruleId} here`), 'offers the comment ignore');
      const preferred = actions.find((a) => a.isPreferred);
      assert.ok(preferred, `a preferred fix for ${ruleId}`);
      assert.equal(preferred.kind, 'quickfix');
      const { text, version } = await client.apply(u, preferred.edit);
      assert.ok(text.includes('# pinned'), 'comments survive the fix');
      const after = await client.diagnostics(u, lacks(ruleId), version);
      assert.deepEqual(after.filter((d) => d.code === 'invalid-yaml'), []);
    }
    const text = client.textOf(u);
    assert.match(text, /kind: PodDisruptionBudget\nmetadata:\n  name: api-pdb/);
    assert.match(text, /replicas: 2/);
  });

  it('answers a request carrying every diagnostic of a file as it answers each one asked alone', async () => {
    const u = uri('many.yaml');
    // And two findings of one rule on one line, told apart by their ranges (each container's limit is its own fix).
    const twoOnOneLine = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: two\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: two}}\n  template:\n    metadata: {labels: {app: two}}\n    spec:\n      containers: [{name: a, image: x, resources: {limits: {memory: 1Gi}}}, {name: b, image: y, resources: {limits: {memory: 2Gi}}}]\n`;
    const text = [...['a', 'b', 'c', 'd', 'e'].map((name) => manifests.deployment({ name, spec: '  replicas: 1\n' })), twoOnOneLine].join('---\n');
    await client.open(u, text);
    const diagnostics = (await client.diagnostics(u, has('single-replica'))).filter((d) => d.source === 'kube-resilience');
    assert.ok(diagnostics.length > 8, `more diagnostics than are looked for one by one: ${diagnostics.length}`);
    const whole = { start: { line: 0, character: 0 }, end: { line: text.split('\n').length, character: 0 } };
    const titles = (actions: Parameters<typeof isAction>[0][] | null) => (actions ?? []).filter(isAction).map((a) => `${a.title} @ ${JSON.stringify(a.diagnostics?.[0]?.range)}`);
    const together = titles(await client.codeActions(u, whole, diagnostics, ['quickfix']));
    const alone: string[] = [];
    for (const d of diagnostics) alone.push(...titles(await client.codeActions(u, whole, [d], ['quickfix'])));
    // "Fix all <rule> findings" comes once per rule in a request, with the first of its diagnostics.
    const own = (list: string[]) => new Set(list.filter((t) => !t.startsWith('Fix all ')));
    assert.deepEqual(own(together), own(alone));
    assert.equal(together.filter((t) => t.startsWith('Run 2 replicas')).length, 5, 'each Deployment its own fix');
    assert.equal(together.filter((t) => t.startsWith('Fix all single-replica')).length, 1);
    assert.deepEqual(together.filter((t) => t.startsWith('Request the limit')).map((t) => t.split(' @ ')[0]).sort(), ['Request the limit (1Gi)', 'Request the limit (2Gi)']);
  });

  it('offers an unsafe fix with what it changes, never as the preferred one, and leaves it out of the fix-all', async () => {
    const u = uri('unsafe.yaml');
    const text = manifests.deployment({ name: 'store', spec: '  replicas: 1\n' }).replace('image: nginx:1.27', 'image: postgres:16');
    await client.open(u, text);
    const diagnostic = (await client.diagnostics(u, has('single-replica'))).find((d) => d.code === 'single-replica')!;
    const actions = (await client.codeActions(u, diagnostic.range, [diagnostic]))!.filter(isAction);
    const run = actions.find((a) => a.title.startsWith('Run 2 replicas'))!;
    assert.equal(run.title, 'Run 2 replicas (unsafe: runs a second PostgreSQL (postgres:16) beside the first: a second primary with its own data, not a replica, unless it is set up to replicate)');
    assert.ok(!run.isPreferred, 'an unsafe fix is never preferred');
    assert.deepEqual(actions.filter((a) => a.isPreferred), []);
    const fixAll = (await client.codeActions(u, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.kube-resilience']))!.filter(isAction);
    for (const action of fixAll) assert.ok(!JSON.stringify(action.edit).includes('replicas: 2'), 'the fix-all leaves the replicas alone');
  });

  it('fixes a whole file with source.fixAll.kube-resilience', async () => {
    const u = uri('fix-all.yaml');
    const text = `${deployment('one', 1)}---\n${deployment('many', 4)}`;
    await client.open(u, text);
    const diagnostics = await client.diagnostics(u, (d) => has('single-replica')(d) && has('pdb-missing')(d));
    const actions = (await client.codeActions(u, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.kube-resilience']))!.filter(isAction);
    assert.deepEqual(actions.map((a) => a.kind), ['source.fixAll.kube-resilience']);
    const { version } = await client.apply(u, actions[0].edit);
    const after = await client.diagnostics(u, (d) => lacks('single-replica')(d) && lacks('pdb-missing')(d), version);
    assert.ok(after.length < diagnostics.length);
    const again = (await client.codeActions(u, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.kube-resilience']))!;
    assert.deepEqual(again, [], 'nothing left to fix');
  });

  it('validates what was typed instead of a Fix all that was not applied, and what Fix all made once it is', async () => {
    const u = uri('fix-all-not-applied.yaml');
    const text = `${deployment('alone', 1)}`;
    await client.open(u, text);
    await client.diagnostics(u, has('single-replica'));
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const fixAll = async () => (await client.codeActions(u, top, [], ['source.fixAll.kube-resilience']))!.filter(isAction)[0];
    assert.ok((await fixAll()).edit, 'Fix all is computed (its parse of the fixed text is kept for the validation after its edit)');
    const typed = await client.edit(u, top, '# reviewed\n');
    assert.ok(has('single-replica')(await client.diagnostics(u, () => true, typed)), 'the typed text still runs one pod');
    const { version } = await client.apply(u, (await fixAll()).edit);
    assert.ok(lacks('single-replica')(await client.diagnostics(u, () => true, version)), 'the fixed text runs two');
  });

  it('answers hovers while it fixes a large file, and a cancelled fix-all answers without an edit', async () => {
    const u = uri('fix-all-large.yaml');
    const text = Array.from({ length: 400 }, (_, i) => deployment(`large-${i}`, 1 + (i % 3))).join('---\n');
    await client.open(u, text);
    await client.nextDiagnostics(u, 1);
    const whole = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const params = { textDocument: { uri: u }, range: whole, context: { diagnostics: [], only: ['source.fixAll.kube-resilience'] } };
    const ask = (token = CancellationToken.None) => client.connection.sendRequest<CodeAction[] | null>('textDocument/codeAction', params, token);
    const order: string[] = [];
    const fixing = ask().then((actions) => (order.push('fix-all'), actions));
    const hover = client.request('textDocument/hover', { textDocument: { uri: u }, position: positionOf(text, 'kind: Deployment', 0, 2) }).then((answer) => (order.push('hover'), answer));
    assert.ok(await hover, 'the hover is answered');
    const fixed = (await fixing)!.filter(isAction);
    assert.deepEqual(order, ['hover', 'fix-all'], 'the hover did not wait for the fix-all');
    const edits = fixed[0].edit!.changes![u];
    assert.ok(applyTextEdits(text, edits).includes('replicas: 2'), 'the fix-all still fixes the file');
    assert.ok(edits.length > 400, `in an edit at each place it changes, not one over the whole file: ${edits.length}`);

    const cancel = new CancellationTokenSource();
    const cancelled = ask(cancel.token).catch((error: Error) => error);
    // Cancelled at once: whether the server reads the cancel before the fix starts or between its slices, no edit.
    const hovered = client.request('textDocument/hover', { textDocument: { uri: u }, position: positionOf(text, 'kind: Deployment', 0, 2) });
    cancel.cancel();
    await hovered;
    const answer = await cancelled;
    assert.ok(answer instanceof Error || !answer?.some((a) => 'edit' in a && a.edit), `a cancelled fix-all gives no edit: ${JSON.stringify(answer).slice(0, 200)}`);

    const outdated = ask();
    await client.edit(u, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '# typed while fixing\n');
    const stale = (await outdated) ?? [];
    assert.ok(!stale.some((a) => a.edit), 'a fix-all of a document typed into meanwhile gives no edit (it would undo the typing)');
  });

  /**
   * Once a document just opened is being validated: a request is answered only after the server has read
   * the open and started on it (on a later turn of its loop than the open), and the second of two after that.
   */
  async function validationUnderWay(): Promise<void> {
    for (let i = 0; i < 3; i++) await client.request('textDocument/hover', { textDocument: { uri: uri('app.yaml') }, position: { line: 0, character: 0 } });
  }

  it('validates a large document in slices: other requests are answered meanwhile, and one about it waits for its findings without holding them up', async () => {
    // About 370 KB, past the size validated at once.
    const large = (prefix: string) => Array.from({ length: 1200 }, (_, i) => deployment(`${prefix}-${i}`, 1 + (i % 3))).join('---\n');
    const u = uri('sliced.yaml');
    // Twice that: on a fast machine too, its validation lasts several slices.
    const text = `${large('sliced')}---\n${large('sliced-too')}`;
    const small = { textDocument: { uri: uri('app.yaml') }, position: { line: 0, character: 0 } };
    let published = false;
    const diagnostics = client.nextDiagnostics(u, 1).then((d) => ((published = true), d));
    await client.open(u, text);
    let answeredBefore = 0;
    while (!published) {
      await client.request('textDocument/hover', small);
      if (!published) answeredBefore++;
    }
    assert.ok(answeredBefore >= 3, `hovers about another document were answered while it was validated: ${answeredBefore}`);
    assert.equal(codes(await diagnostics).filter((c) => c === 'single-replica').length, 800);

    // Larger, so that it is still being validated after the requests below.
    const other = uri('sliced-hover.yaml');
    const otherText = Array.from({ length: 3 }, (_, i) => large(`asked-${i}`)).join('---\n');
    let otherPublished = false;
    const opened = client.nextDiagnostics(other, 1).then(() => (otherPublished = true));
    await client.open(other, otherText);
    await validationUnderWay();
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const lightbulb = await client.request('textDocument/codeAction', { textDocument: { uri: other }, range: top, context: { diagnostics: [], triggerKind: 2 } });
    assert.deepEqual(lightbulb, []);
    assert.equal(otherPublished, false, 'a lightbulb where none of its diagnostics are is answered without waiting for its findings');
    let hovered = false;
    const hover = client.request<Hover>('textDocument/hover', { textDocument: { uri: other }, position: positionOf(otherText, 'kind: Deployment', 0, 2) }).then((h) => ((hovered = true), h));
    let answeredWhileWaiting = 0;
    while (!hovered) {
      await client.request('textDocument/hover', small);
      if (!hovered) answeredWhileWaiting++;
    }
    assert.ok(answeredWhileWaiting >= 2, `a hover about the document waits for its findings without holding up the others: ${answeredWhileWaiting}`);
    assert.match(((await hover).contents as { value: string }).value, /2 findings[\s\S]*Findings: .*single-replica/, 'the hover has the findings of the document');
    await opened;
  });

  it('typed into while it is validated in slices, a large document gets the diagnostics of what it holds last', async () => {
    const u = uri('sliced-typed.yaml');
    const text = Array.from({ length: 1200 }, (_, i) => deployment(`typed-${i}`, 1 + (i % 3))).join('---\n');
    await client.open(u, text);
    await validationUnderWay();
    const at = positionOf(text, 'replicas: 1', 0, 'replicas: '.length);
    const version = await client.edit(u, { start: at, end: { line: at.line, character: at.character + 1 } }, '3');
    const last = await client.nextDiagnostics(u, version);
    assert.equal(codes(last).filter((c) => c === 'single-replica').length, 399, 'the first Deployment no longer runs one pod');
    assert.ok(!last.some((d) => d.code === 'single-replica' && d.range.start.line === at.line));
  });

  it('leaves the whole-file fix out of automatic lightbulb requests (it held the server up on every cursor move), and offers it when invoked', async () => {
    const u = uri('lightbulb.yaml');
    await client.open(u, `${deployment('bulb-one', 1)}---\n${deployment('bulb-many', 4)}`);
    await client.diagnostics(u, (d) => has('single-replica')(d) && has('pdb-missing')(d));
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const request = (triggerKind: number) => client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: u }, range: top, context: { diagnostics: [], triggerKind } });
    assert.deepEqual((await request(2)).map((a) => a.kind), [], 'automatic: nothing a lightbulb would show');
    assert.deepEqual((await request(1)).map((a) => a.kind), ['source.fixAll.kube-resilience'], 'invoked (a client without kinds): the fix-all is offered');
  });

  /** A server of its own for a client that asks for an action's edit when it is picked (resolveSupport), killed after `body`. */
  async function withResolvingClient(body: (own: LspClient) => Promise<void>): Promise<void> {
    const own = LspClient.start(SERVER);
    try {
      await own.initialize(pathToFileURL(dir).toString(), undefined, { resolveSupport: { properties: ['edit'] } });
      await body(own);
    } finally {
      own.kill();
    }
  }

  it('Fix all on a file of more documents than its memory can fix at once writes nothing and says why (a 30 MB file ran --fix out of memory)', async () => {
    // A server with a heap of 150 MB works out the fixes of about 2,000 documents at once.
    const own = LspClient.start('--max-old-space-size=150', [SERVER, '--stdio']);
    try {
      await own.initialize(pathToFileURL(dir).toString());
      const u = uri('too-many.yaml');
      await own.open(u, Array.from({ length: 3_000 }, (_, i) => deployment(`many-${i}`, 1)).join('---\n'));
      const single = (await own.diagnostics(u, has('single-replica'))).find((d) => d.code === 'single-replica')!;
      // A lightbulb works its "Fix all single-replica" out beforehand: nothing is said for it (it was, on every cursor move).
      await own.codeActions(u, single.range, [single]);
      assert.deepEqual(own.serverRequests.filter((r) => r.method === 'window/showMessageRequest'), []);
      const fixAll = await own.codeActions(u, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.kube-resilience']);
      assert.deepEqual((fixAll ?? []).filter((a) => isAction(a) && a.edit), []);
      const said = own.serverRequests.filter((r) => r.method === 'window/showMessageRequest').map((r) => (r.params as { message: string }).message);
      assert.equal(said.length, 1, JSON.stringify(said));
      assert.match(said[0], /^Kube Resilience wrote no fixes in this file: it holds 3,000 documents, more than the [12],\d{3} whose fixes this process has the memory to work out at once: split it into files\.$/);
    } finally {
      own.kill();
    }
  });

  it('a client that resolves code actions gets the per-rule "Fix all" quick fix without its edit, computed when picked', () =>
    withResolvingClient(async (own) => {
      const u = uri('resolve.yaml');
      const text = `${deployment('lazy-a', 1)}---\n${deployment('lazy-b', 1)}`;
      await own.open(u, text);
      const diagnostics = await own.diagnostics(u, (d) => codes(d).filter((c) => c === 'single-replica').length === 2);
      const first = diagnostics.find((d) => d.code === 'single-replica')!;
      const actions = (await own.codeActions(u, first.range, [first]))!.filter(isAction);
      const fixAll = actions.find((a) => a.title === 'Fix all single-replica findings in this file');
      assert.ok(fixAll, `offered: ${actions.map((a) => a.title)}`);
      assert.equal(fixAll.edit, undefined, 'not computed for the lightbulb');
      const resolved = await own.request<CodeAction>('codeAction/resolve', fixAll);
      const { text: fixed } = await own.apply(u, resolved.edit);
      assert.equal(fixed.match(/replicas: 2/g)?.length, 2, 'both Deployments fixed');
    }));

  it('a client that resolves code actions gets the whole-file fixes of an invoked request and of Source Action… without their edits, computed when picked; source.fixAll asked by name comes with its edit', () =>
    withResolvingClient(async (own) => {
      const u = uri('resolve-whole.yaml');
      const text = `${deployment('whole-a', 1)}---\n${deployment('whole-b', 4)}`;
      await own.open(u, text);
      await own.diagnostics(u, (d) => has('single-replica')(d) && has('pdb-missing')(d));
      const ask = async (context: Record<string, unknown>) => (await own.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: u }, range: TOP, context: { diagnostics: [], ...context } })).filter(isAction);
      const invoked = await ask({ triggerKind: 1 });
      assert.deepEqual(invoked.map((a) => [a.kind, a.edit]), [['source.fixAll.kube-resilience', undefined]], 'offered by hand, not computed');
      const fixedAll = (await own.apply(u, (await own.request<CodeAction>('codeAction/resolve', invoked[0])).edit)).text;
      assert.ok(fixedAll.includes('replicas: 2') && fixedAll.includes('kind: PodDisruptionBudget'), 'picked, it fixes every rule');
      await own.change(u, text);
      const menu = await ask({ only: ['source'] });
      assert.ok(menu.length > 2 && menu.every((a) => a.edit === undefined), `Source Action…: nothing computed before one is picked: ${menu.map((a) => a.kind)}`);
      const single = menu.find((a) => a.kind === 'source.kube-resilience.fixRule.single-replica')!;
      const fixedRule = (await own.apply(u, (await own.request<CodeAction>('codeAction/resolve', single)).edit)).text;
      assert.ok(fixedRule.includes('replicas: 2') && !fixedRule.includes('kind: PodDisruptionBudget'), 'picked, a rule fix fixes that rule only');
      await own.change(u, text);
      const onSave = await ask({ only: ['source.fixAll'] });
      assert.equal(onSave.length, 1);
      assert.ok(onSave[0].edit, 'codeActionsOnSave applies what it gets: the edit comes with it');
    }));

  /** A server of its own for a client that takes versioned edits (documentChanges), killed after `body`. */
  async function withVersionedEdits(body: (own: LspClient) => Promise<void>): Promise<void> {
    const own = LspClient.start(SERVER);
    try {
      await own.initialize(pathToFileURL(dir).toString(), undefined, {}, { workspaceEdit: { documentChanges: true } });
      await body(own);
    } finally {
      own.kill();
    }
  }

  const TOP = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const TYPED = '# typed after the lightbulb showed\n';

  /**
   * What `ask` gives for version 1 is an edit of version 1, which an editor refuses once the document is
   * typed into; asked again, it is of version 2, and applying it keeps what was typed. The text it makes.
   */
  async function refusedOnceTypedInto(own: LspClient, u: string, ask: (version: number) => Promise<CodeAction>): Promise<string> {
    const first = await ask(1);
    assert.deepEqual(versionOf(first), [{ uri: u, version: 1 }]);
    await own.edit(u, TOP, TYPED);
    await assert.rejects(own.apply(u, first.edit), /version 1/, 'an editor refuses it now');
    const again = await ask(2);
    assert.deepEqual(versionOf(again), [{ uri: u, version: 2 }], 'asked again, it is of the version typed');
    const { text } = await own.apply(u, again.edit);
    assert.ok(text.startsWith(TYPED), `and keeps what was typed: ${text.slice(0, 200)}`);
    return text;
  }

  it('a client that takes versioned edits gets Fix all as an edit of the version it fixed, which it refuses once typed into', () =>
    withVersionedEdits(async (own) => {
      const u = uri('versioned.yaml');
      await own.open(u, `${deployment('versioned-a', 1)}---\n${deployment('versioned-b', 1)}`);
      await own.diagnostics(u, (d) => codes(d).filter((c) => c === 'single-replica').length === 2);
      const fixAll = async () => (await own.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: u }, range: TOP, context: { diagnostics: [], only: ['source.fixAll.kube-resilience'] } })).filter(isAction)[0];
      const text = await refusedOnceTypedInto(own, u, fixAll);
      assert.equal(text.match(/replicas: 2/g)?.length, 2, 'both single replicas raised');
    }));

  it('a change of no content that brings a new version is taken: Fix all then names that version (it named the one before, which the client refuses)', () =>
    withVersionedEdits(async (own) => {
      const u = uri('versioned-empty-change.yaml');
      await own.open(u, deployment('versioned-empty', 1));
      const first = await own.diagnostics(u, has('single-replica'));
      await own.notify('textDocument/didChange', { textDocument: { uri: u, version: 2 }, contentChanges: [] });
      const published = await own.diagnostics(u, (d, version) => version === 2 && has('single-replica')(d));
      assert.ok(published.length > 0, 'diagnostics published for version 2');
      assert.deepEqual(published, first, 'a change of no content changes no finding');
      const fixAll = (await own.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: u }, range: TOP, context: { diagnostics: [], only: ['source.fixAll.kube-resilience'] } })).filter(isAction)[0];
      assert.equal((fixAll.edit as { documentChanges: { textDocument: { version: number } }[] }).documentChanges[0].textDocument.version, 2);
    }));

  it('a client that takes versioned edits gets quick fixes as edits of the version they fix, which it refuses once typed into', () =>
    withVersionedEdits(async (own) => {
      const u = uri('versioned-quick-fix.yaml');
      await own.open(u, deployment('versioned-quick', 1));
      const quickFix = async (version: number) => {
        const single = (await own.diagnostics(u, has('single-replica'), version)).find((d) => d.code === 'single-replica')!;
        return (await own.codeActions(u, single.range, [single], ['quickfix']))!.filter(isAction).find((a) => a.isPreferred)!;
      };
      const text = await refusedOnceTypedInto(own, u, quickFix);
      assert.ok(text.includes('replicas: 2'), 'the single replica raised');
    }));

  it('builds every quick fix of a request before its whole-file fixes, so a change read while those run leaves them of the version asked about', () =>
    // Without resolveSupport, "Fix all <rule> findings" is computed in the request, in slices that let the change in.
    withVersionedEdits(async (own) => {
      const u = uri('versioned-during-rule-fix.yaml');
      await own.open(u, Array.from({ length: 400 }, (_, i) => deployment(`during-${i}`, 1 + (i % 3))).join('---\n'));
      const diagnostics = await own.nextDiagnostics(u, 1);
      const single = diagnostics.find((d) => d.code === 'single-replica')!;
      const others = diagnostics.filter((d) => d.code !== 'single-replica').slice(0, 5);
      assert.equal(others.length, 5);
      const asked = own.codeActions(u, single.range, [single, ...others], ['quickfix']);
      await own.edit(u, TOP, '# typed while the rule fixes ran\n');
      const actions = (await asked)!.filter(isAction);
      assert.ok(actions.some((a) => a.title === 'Fix all single-replica findings in this file'), 'a whole-file fix was computed in the request');
      const quickFixes = actions.filter((a) => !a.title.startsWith('Fix all '));
      assert.ok(quickFixes.length > others.length, `quick fixes of every finding asked about: ${quickFixes.length}`);
      for (const action of quickFixes) assert.deepEqual(versionOf(action), [{ uri: u, version: 1 }], `${action.title} is of the version its findings are`);
    }));

  it('offers "Fix all <rule> findings in this file" under Source Action…, fixing that rule only, and keeps it out of source.fixAll', async () => {
    const u = uri('fix-rule.yaml');
    await client.open(u, `${deployment('first', 1)}---\n${deployment('second', 1)}---\n${deployment('wide', 4)}`);
    await client.diagnostics(u, (d) => codes(d).filter((c) => c === 'single-replica').length === 2 && has('pdb-missing')(d));
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const source = (await client.codeActions(u, top, [], ['source']))!.filter(isAction);
    const byRule = source.find((a) => a.kind === 'source.kube-resilience.fixRule.single-replica');
    assert.ok(byRule, `a source action per fixable rule: ${source.map((a) => a.kind)}`);
    assert.equal(byRule.title, 'Fix all single-replica findings in this file');
    assert.ok(source.some((a) => a.kind === 'source.kube-resilience.fixRule.pdb-missing'));
    assert.ok(source.some((a) => a.kind === 'source.fixAll.kube-resilience'), 'the whole fix-all is still there');
    const onSave = (await client.codeActions(u, top, [], ['source.fixAll']))!.filter(isAction);
    assert.deepEqual(onSave.map((a) => a.kind), ['source.fixAll.kube-resilience'], 'codeActionsOnSave gets one edit, not competing ones');
    const lightbulb = (await client.codeActions(u, top, []))!.filter(isAction);
    assert.ok(!lightbulb.some((a) => a.kind?.startsWith('source.kube-resilience')), 'not computed for requests that did not ask for source actions');
    const { text, version } = await client.apply(u, byRule.edit);
    assert.equal(text.match(/replicas: 2/g)?.length, 2, 'both single replicas raised');
    const after = await client.diagnostics(u, lacks('single-replica'), version);
    assert.ok(has('pdb-missing')(after), 'other rules left alone');
  });

  it('follows incremental edits: typing 1 over the 2 brings single-replica back, an undo removes it', async () => {
    const u = uri('typing.yaml');
    await client.open(u, deployment('typed', 2));
    await client.diagnostics(u, lacks('single-replica'));
    const at = positionOf(client.textOf(u), 'replicas: 2', 0, 'replicas: '.length);
    const one = await client.edit(u, { start: at, end: { line: at.line, character: at.character + 1 } }, '1');
    const fired = await client.diagnostics(u, has('single-replica'), one);
    assert.equal(fired.find((d) => d.code === 'single-replica')!.range.start.line, at.line);
    const two = await client.edit(u, { start: at, end: { line: at.line, character: at.character + 1 } }, '2');
    await client.diagnostics(u, lacks('single-replica'), two);
    assert.match(client.textOf(u), /replicas: 2\n/);
  });

  it('counts a carriage return alone as a line break, as editors do: a finding below one is where it is, and its quick fix keeps the file whole', async () => {
    const u = uri('pasted.yaml');
    const text = `# notes pasted from an old editor\r# whose lines ended so\n${deployment('pasted', 1)}`;
    await client.open(u, text);
    const single = (await client.diagnostics(u, has('single-replica'))).find((d) => d.code === 'single-replica')!;
    assert.equal(textAt(text, single.range), 'replicas');
    const fix = (await client.codeActions(u, single.range, [single]))!.filter(isAction).find((a) => a.isPreferred)!;
    const { text: fixed, version } = await client.apply(u, fix.edit);
    assert.ok(fixed.startsWith('# notes pasted from an old editor\r# whose lines ended so\n'), 'the carriage return is kept');
    assert.match(fixed, /\n {2}replicas: 2\n/);
    const after = await client.diagnostics(u, lacks('single-replica'), version);
    assert.deepEqual(after.filter((d) => d.code === 'invalid-yaml'), []);
  });

  it('validates keystrokes sent back to back once they stop coming, not once per keystroke', async () => {
    const u = uri('burst.yaml');
    const text = Array.from({ length: 40 }, (_, i) => deployment(`burst-${i}`, 2)).join('---\n');
    await client.open(u, text);
    await client.diagnostics(u);
    const at = positionOf(text, 'name: burst-20', 0, 'name: burst-20'.length);
    const keystroke = (k: number) => ({ range: { start: { line: at.line, character: at.character + k }, end: { line: at.line, character: at.character + k } }, newText: 'x' });
    // One keystroke first: what validating it cost paces the burst's (a timer of about a millisecond).
    await client.diagnostics(u, () => true, await client.editsInOneWrite(u, [keystroke(0)]));
    const before = client.publishCount(u);
    // Enough that handling them takes milliseconds: such a timer may fire between them, and the validation
    // must still wait for the keystrokes already read.
    const keystrokes = Array.from({ length: 400 }, (_, k) => keystroke(k + 1));
    const version = await client.editsInOneWrite(u, keystrokes);
    await client.diagnostics(u, () => true, version);
    assert.match(client.textOf(u), /name: burst-20x{401}\n/);
    assert.ok(client.publishCount(u) - before <= 2, `${client.publishCount(u) - before} publishes for 400 keystrokes read together`);
  });

  it('typing inside a huge CRD answers from its previous parse at once, and parses it again when typing pauses', async () => {
    const u = uri('crds.yaml');
    const fields = Array.from({ length: 2000 }, (_, i) => `                field${i}:\n                  type: string\n                  description: The field number ${i} of the spec\n`).join('');
    const crd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              properties:\n${fields}`;
    await client.open(u, `${crd}---\n${deployment('widgets', 1)}`);
    await client.diagnostics(u, has('single-replica'));
    const at = positionOf(client.textOf(u), 'description: The field number 1000 ', 0, 'description: '.length);
    const before = codes(await client.diagnostics(u, has('single-replica')));
    const version = await client.edit(u, { start: at, end: at }, '[');
    const first = await client.diagnostics(u, () => true, version);
    assert.deepEqual(codes(first), before, 'the keystroke is answered from the previous parse, before the CRD is parsed again');
    const parsed = await client.diagnostics(u, has('invalid-yaml'), version);
    const error = parsed.find((d) => d.code === 'invalid-yaml')!.range.start.line;
    assert.ok(error === at.line || error === at.line + 1, `once typing pauses, the CRD is parsed and its error shown where the unclosed [ ends (line ${error}, typed on ${at.line})`);
    const undone = await client.edit(u, { start: at, end: { line: at.line, character: at.character + 1 } }, '');
    assert.deepEqual(codes(await client.diagnostics(u, lacks('invalid-yaml'), undone)), before);
  });

  it('re-analyses a Deployment when a PDB for it is opened in another file', async () => {
    const app = uri('cache.yaml');
    await client.open(app, deployment('cache', 2));
    await client.diagnostics(app, has('pdb-missing'));
    await client.open(uri('cache-pdb.yaml'), pdb('cache'));
    const after = await client.diagnostics(app, lacks('pdb-missing'));
    assert.deepEqual(codes(after).filter((c) => c === 'pdb-missing'), []);
  });

  it('an open document replaces its disk copy even when the editor spells its URI differently (%2B for +)', async () => {
    const app = uri('guarded.yaml');
    await client.open(app, deployment('guarded', 3));
    await client.diagnostics(app, lacks('pdb-missing'));
    // VS Code encodes `+` in paths; pathToFileURL, which the workspace scan uses, does not.
    const editorUri = uri(join('a+b', 'guard.yaml')).replace('a+b', 'a%2Bb');
    assert.notEqual(editorUri, uri(join('a+b', 'guard.yaml')));
    await client.open(editorUri, pdb('guarded').replace('app: guarded', 'app: somebody-else'));
    await client.diagnostics(app, has('pdb-missing'));
    await client.notify('textDocument/didClose', { textDocument: { uri: editorUri } });
    await client.diagnostics(app, lacks('pdb-missing'));
  });

  it('leaves a cluster snapshot in the workspace out: its live PDB covers no manifest, and opened it gets no diagnostics', async () => {
    // A Deployment covered by a PDB on disk: the workspace scan has finished once it is quiet.
    const covered = uri('covered.yaml');
    await client.open(covered, deployment('web', 3));
    await client.diagnostics(covered, lacks('pdb-missing'));
    const app = uri('snapped.yaml');
    await client.open(app, deployment('snapped', 3));
    const diagnostics = await client.diagnostics(app, has('pdb-missing'));
    assert.match(diagnostics.find((d) => d.code === 'pdb-missing')!.message as string, /^Deployment snapped: 3 replicas and no PDB: /);
    const live = uri('live.json');
    await client.open(live, readFileSync(join(dir, 'live.json'), 'utf8'));
    assert.deepEqual(await client.diagnostics(live, () => true), []);
  });

  it('applies settings pushed by workspace/didChangeConfiguration', async () => {
    const u = uri('settings.yaml');
    await client.open(u, deployment('lonely', 1));
    await client.diagnostics(u, has('single-replica'));
    await client.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: { rules: { 'single-replica': 'off' } } } });
    await client.diagnostics(u, lacks('single-replica'));
    await client.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: { rules: { 'single-replica': 'error' } } } });
    const back = await client.diagnostics(u, has('single-replica'));
    assert.equal(back.find((d) => d.code === 'single-replica')!.severity, 1, 'severity override: error');
    await client.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: {} } });
  });

  it('gives broken YAML one diagnostic and keeps answering', async () => {
    const u = uri('broken.yaml');
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken\ndata: [unclosed, \n';
    await client.open(u, text);
    const diagnostics = await client.diagnostics(u, (d) => d.length > 0);
    assert.deepEqual(codes(diagnostics), ['invalid-yaml']);
    assert.equal(diagnostics[0].severity, 1);
    const hover = await client.request('textDocument/hover', { textDocument: { uri: uri('app.yaml') }, position: positionOf(client.textOf(uri('app.yaml')), 'kind: Deployment', 0, 1) });
    assert.ok(hover, 'the server still answers');
  });

  it('follows a manifest changed and deleted on disk (watched-file events): what the open documents see changes with it', async () => {
    const app = uri('watched-app.yaml');
    writeFileSync(join(dir, 'watched-pdb.yaml'), pdb('watched'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('watched-pdb.yaml'), type: 1 }] });
    await client.open(app, deployment('watched', 3));
    await client.diagnostics(app, lacks('pdb-missing'));
    writeFileSync(join(dir, 'watched-pdb.yaml'), pdb('watched').replace('app: watched', 'app: somebody-else'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('watched-pdb.yaml'), type: 2 }] });
    await client.diagnostics(app, has('pdb-missing'));
    writeFileSync(join(dir, 'watched-pdb.yaml'), pdb('watched'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('watched-pdb.yaml'), type: 2 }] });
    await client.diagnostics(app, lacks('pdb-missing'));
    rmSync(join(dir, 'watched-pdb.yaml'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('watched-pdb.yaml'), type: 3 }] });
    await client.diagnostics(app, has('pdb-missing'));
  });

  it('clears diagnostics of a closed document', async () => {
    const u = uri('closing.yaml');
    await client.open(u, deployment('closing', 1));
    await client.diagnostics(u, has('single-replica'));
    await client.notify('textDocument/didClose', { textDocument: { uri: u } });
    await client.diagnostics(u, (d) => d.length === 0);
  });

  it('shuts down and exits cleanly', async () => {
    assert.equal(await client.shutdown(), 0);
    assert.deepEqual(client.stderr.filter((line) => /Error|at /.test(line)), []);
  });
});

describe('language server started with no transport flag', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built' }, () => {
  it('speaks LSP on stdio, as a generic client expects', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kr-lsp-plain-'));
    const client = LspClient.start(SERVER, []);
    try {
      const result = await client.initialize(pathToFileURL(dir).toString());
      assert.equal(result.serverInfo?.name, 'kube-resilience');
      const u = pathToFileURL(join(dir, 'solo.yaml')).toString();
      await client.open(u, deployment('solo', 1));
      assert.ok(has('single-replica')(await client.diagnostics(u, has('single-replica'))));
      assert.equal(await client.shutdown(), 0);
    } finally {
      client.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
