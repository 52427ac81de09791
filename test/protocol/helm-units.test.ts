// Helm charts in the editor: a chart renders in the background when a template is opened (trusted workspaces
// only), its findings sit on the template line and the values line, and the quick fix edits the values file.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import type { CodeAction, Diagnostic, TextDocumentEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Methods } from '../../server/src/protocol';
import { validateSimulationInput } from '../../server/src/simulate/messages';
import { copyChart } from '../render/helm-charts';
import { renderTools } from '../render/render-tools';
import { canListProcesses, runningTools, until } from '../render/running-tools';
import { editorsOnCopies } from './units-editor';

const SERVER = resolve('dist/server.js');
const PODINFO = resolve([join('..', 'shared'), join('..', '..', 'shared')].map((dir) => join(dir, 'corpus-rendered', 'podinfo', 'charts', 'podinfo')).find((dir) => existsSync(dir)) ?? 'no-podinfo-chart');
const tools = renderTools();
const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.code}@${d.range.start.line}`).sort();

const editors = editorsOnCopies(SERVER, PODINFO, 'podinfo');
/** The chart in a folder whose name an editor encodes otherwise than Node (VS Code writes `@` as `%40`). */
const atEditors = editorsOnCopies(SERVER, PODINFO, 'podinfo@v2');
/** A chart with another chart in its folder, elsewhere than under charts/ (extras/inner). */
const NESTED = (() => {
  // Without podinfo the suite is skipped; the path still lies in a folder of its own, which is what `after` removes.
  if (!existsSync(PODINFO)) return join(mkdtempSync(join(tmpdir(), 'kr-nested-')), 'chart');
  const dir = copyChart(PODINFO);
  const inner = join(dir, 'extras', 'inner');
  cpSync(PODINFO, inner, { recursive: true });
  writeFileSync(join(inner, 'Chart.yaml'), readFileSync(join(inner, 'Chart.yaml'), 'utf8').replace(/^name: podinfo$/m, 'name: inner'));
  return dir;
})();
const nestedEditors = editorsOnCopies(SERVER, NESTED, 'outer');
/** The chart at charts/podinfo of a workspace folder two levels above it. */
const inWorkspace = editorsOnCopies(SERVER, PODINFO, join('charts', 'podinfo'), join('..', '..'));



const skip = (!existsSync(SERVER) && 'dist/server.js is not built (npm run build)') || tools.skip || (!existsSync(PODINFO) && 'the podinfo chart is not present');

describe('Helm charts in the language server', { skip }, () => {
  after(async () => {
    await Promise.all([editors.closeAll(), atEditors.closeAll(), inWorkspace.closeAll(), nestedEditors.closeAll()]);
    rmSync(dirname(NESTED), { recursive: true, force: true });
  });

  it('in a trusted workspace: the template line and the values line show the rendered finding; the quick fix edits values.yaml', async () => {
    const { client, dir, uri, openFile } = await editors.open(true);
    const template = await openFile('templates/deployment.yaml');
    const onTemplate = await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    const single = onTemplate.find((d) => d.code === 'single-replica')!;
    assert.equal(single.message, 'Deployment release-podinfo runs 1 pod: one node drain or node failure takes it offline.');
    assert.match(String(single.relatedInformation?.[0].message), /\(from values key replicaCount in values\.yaml\)$/);
    assert.ok(!codes(onTemplate).some((c) => c.startsWith('templated-file')), 'a rendered template is not reported as unanalysable');

    const hover = (await client.request('textDocument/hover', { textDocument: { uri: template }, position: { line: 9, character: 4 } })) as { contents: { value: string } };
    assert.match(hover.contents.value, /`single-replica`\S* \(warning\): One replica and no autoscaler — from values key replicaCount in values\.yaml/);
    assert.ok(!String(hover.contents.value).includes(String(single.message)), 'the hover does not repeat the diagnostic');

    const values = uri('values.yaml');
    const valuesText = readFileSync(join(dir, 'values.yaml'), 'utf8');
    await client.open(values, valuesText);
    const onValues = await client.diagnostics(values, (d) => codes(d).includes('single-replica@2'));
    const actions = ((await client.codeActions(template, single.range, [single])) ?? []) as CodeAction[];
    const fix = actions.find((a) => a.isPreferred && a.edit?.documentChanges);
    assert.ok(fix, `a preferred fix with document changes: ${JSON.stringify(actions.map((a) => a.title))}`);
    const valuesEdit = fix.edit!.documentChanges!.find((c): c is TextDocumentEdit => 'textDocument' in c && c.textDocument.uri === values);
    assert.ok(valuesEdit, 'the fix edits values.yaml');
    const fixed = TextDocument.applyEdits(TextDocument.create(values, 'yaml', 1, valuesText), valuesEdit.edits as { range: Diagnostic["range"]; newText: string }[]);
    assert.match(fixed, /^# Default values for podinfo\.\n\nreplicaCount: 2\n/);
    assert.ok(onValues.length > 0);

    const input = validateSimulationInput(await client.request(Methods.simulationInput, {}));
    assert.ok(input.ok, !input.ok ? input.error : '');
    const names = input.value.workloads.map((w) => `${w.namespace}/${w.name}`);
    assert.ok(names.includes('default/release-podinfo'), `the simulator runs what the chart renders: ${names.join(', ')}`);
    assert.ok(!names.some((n) => n.includes('{{')), 'no template is simulated as a workload');
  });

  it('a quick fix editing an open values.yaml names it by the uri the editor opened it under, with its version (in a folder `podinfo@v2` opened as `podinfo%40v2`, it named another uri and no version)', async () => {
    const { client, dir, uri, openFile } = await atEditors.open(true);
    const template = await openFile('templates/deployment.yaml');
    const single = (await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'))).find((d) => d.code === 'single-replica')!;
    const values = uri('values.yaml').replace('podinfo@v2', 'podinfo%40v2');
    assert.notEqual(values, uri('values.yaml'));
    const text = readFileSync(join(dir, 'values.yaml'), 'utf8');
    await client.open(values, text);
    const version = await client.change(values, text);
    const actions = ((await client.codeActions(template, single.range, [single])) ?? []) as CodeAction[];
    const edit = actions.find((a) => a.isPreferred)!.edit!.documentChanges!.find((c): c is TextDocumentEdit => 'textDocument' in c)!;
    assert.deepEqual(edit.textDocument, { uri: values, version });
  });

  it('a fix the chart cannot be edited to make is shown greyed with why, to a client that shows such actions, and not offered to another', async () => {
    const computed = (dir: string) => {
      const path = join(dir, 'templates', 'deployment.yaml');
      writeFileSync(path, readFileSync(path, 'utf8').replace('replicas: {{ .Values.replicaCount }}', 'replicas: {{ add .Values.replicaCount 0 }}'));
    };
    for (const disabledSupport of [true, false]) {
      const { client, dir, openFile } = await editors.open(true, {}, {}, { disabledSupport });
      computed(dir);
      const template = await openFile('templates/deployment.yaml');
      const single = (await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'))).find((d) => d.code === 'single-replica')!;
      const actions = ((await client.codeActions(template, single.range, [single])) ?? []) as CodeAction[];
      const greyed = actions.filter((a) => a.disabled);
      assert.ok(!actions.some((a) => a.isPreferred), JSON.stringify(actions.map((a) => a.title)));
      if (!disabledSupport) assert.deepEqual(greyed, []);
      else assert.deepEqual(greyed.map((a) => [a.title, a.disabled!.reason]), [['Run 2 replicas', 'Not written: templates/deployment.yaml writes it with an expression or a helper, not a literal value to change']]);
    }
  });

  it('a render while values.yaml holds unsaved edits is of the file on disk, and cached as such: once saved, the chart renders what was saved (the cache served the render of the unsaved text)', async () => {
    const { client, dir, openFile } = await editors.open(true);
    const values = await openFile('values.yaml');
    await client.diagnostics(values, (d) => codes(d).includes('single-replica@2'));
    const three = readFileSync(join(dir, 'values.yaml'), 'utf8').replace('replicaCount: 1', 'replicaCount: 3');
    const typed = await client.change(values, three);
    await client.diagnostics(values, () => true, typed);
    // Another file of the chart opened while values.yaml is unsaved: helm renders the disk's 1 replica.
    const template = await openFile('templates/deployment.yaml');
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    // That render ends unseen (its findings are the ones before): given time to end, and to be cached, before the save.
    await new Promise((done) => setTimeout(done, 3000));
    writeFileSync(join(dir, 'values.yaml'), three);
    await client.notify('textDocument/didSave', { textDocument: { uri: values } });
    const saved = await client.diagnostics(template, (d) => codes(d).includes('replicas-not-spread@9'));
    assert.ok(!codes(saved).includes('single-replica@9'), codes(saved).join(' '));
  });

  it('a render that fails in a file not open: each open file of the chart says so at its top, naming where (they showed no finding, as if clean)', async () => {
    const { client, dir, openFile } = await editors.open(true);
    const template = await openFile('templates/deployment.yaml');
    const values = await openFile('values.yaml');
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    writeFileSync(join(dir, 'values.yaml'), readFileSync(join(dir, 'values.yaml'), 'utf8').replace(/^tls:/m, 'tlsx:'));
    await client.change(values, readFileSync(join(dir, 'values.yaml'), 'utf8'));
    await client.notify('textDocument/didSave', { textDocument: { uri: values } });
    let failing = '';
    for (const uri of [template, values]) {
      const said = await client.diagnostics(uri, (d) => codes(d).includes('helm-render@0'));
      const notice = String(said.find((d) => d.code === 'helm-render')!.message);
      assert.match(notice, /^The chart podinfo did not render, so the findings of this file are not shown until it does: templates\/[\w/.-]+:\d+: /);
      failing = /: (templates\/[\w/.-]+):\d+: /.exec(notice)![1];
    }
    // The file helm names holds the error itself, and no notice that the chart failed elsewhere.
    const named = await openFile(failing);
    const onNamed = await client.diagnostics(named, (d) => d.some((x) => x.code === 'helm-render'));
    assert.deepEqual(onNamed.filter((d) => d.code === 'helm-render').map((d) => d.severity), [1]);
  });

  it('in an untrusted workspace: no helm runs, one information finding on Chart.yaml says why; once trust is granted, the open chart renders', async () => {
    const { client, openFile } = await editors.open(false);
    const chart = await openFile('Chart.yaml');
    const notice = await client.diagnostics(chart, (d) => codes(d).includes('helm-render@0'));
    assert.match(String(notice.find((d) => d.code === 'helm-render')!.message), /helm runs only in a trusted workspace/);
    // Each open file of the chart says why at its top too (a values file said nothing at all).
    const values = await openFile('values.yaml');
    const onValues = await client.diagnostics(values, (d) => codes(d).includes('helm-render@0'));
    assert.match(String(onValues.find((d) => d.code === 'helm-render')!.message), /^The chart podinfo is not rendered, so its files are analysed one by one: helm runs only in a trusted workspace/);
    const template = await openFile('templates/deployment.yaml');
    await client.notify('workspace/didChangeConfiguration', { settings: { kubeResilience: { trusted: true, cluster: 'off' } } });
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
  });

  it('files of a chart opened one after another: the renders cut short are not served again ("helm was cancelled" stayed)', async () => {
    const { client, openFile } = await editors.open(true);
    const template = await openFile('templates/deployment.yaml');
    const chart = await openFile('Chart.yaml');
    await openFile('values-prod.yaml');
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    assert.ok(!codes((await client.diagnostics(chart)) ?? []).includes('helm-render@0'));
  });

  it('a saved _helpers.tpl (no manifest) renders the chart again, and the render before it is not served', async () => {
    const { client, dir, uri, openFile } = await editors.open(true);
    const template = await openFile('templates/deployment.yaml');
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    const helpers = join(dir, 'templates', '_helpers.tpl');
    writeFileSync(helpers, readFileSync(helpers, 'utf8').replace('{{- define "podinfo.fullname" -}}', '{{- define "podinfo.fullname" -}}\nrenamed-by-helper\n{{- end }}\n{{- define "podinfo.unused" -}}'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('templates/_helpers.tpl'), type: 2 }] });
    await client.diagnostics(template, (d) => d.some((x) => String(x.message).includes('Deployment renamed-by-helper ')));
  });

  it('a server stopped by SIGTERM ends the helm it started (in its own process group, helm outlived it at full CPU)', { skip: !canListProcesses && 'no /proc to list processes' }, async () => {
    const release = `sigterm-${process.pid}-${Date.now()}`;
    const { client, dir, openFile } = await editors.open(true, { helm: { releaseName: release } });
    writeFileSync(join(dir, 'templates', 'many.yaml'), '{{- range $i := until 3000000 }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{{ $i }}\n{{- end }}\n');
    const helms = () => runningTools('helm', release);
    await openFile('templates/deployment.yaml');
    await until(() => helms().length > 0, 30_000, 'helm started');
    const exited = new Promise<number | null>((done) => client.process.on('exit', (code) => done(code)));
    client.process.kill('SIGTERM');
    assert.equal(await exited, 143);
    await until(() => helms().length === 0, 5_000, 'no helm left running');
  });

  it('closing the last open file of a chart stops its render (helm ran on to its deadline at full CPU, for no file shown)', { skip: !canListProcesses && 'no /proc to list processes' }, async () => {
    const release = `close-${process.pid}-${Date.now()}`;
    const { client, dir, openFile } = await editors.open(true, { helm: { releaseName: release } });
    writeFileSync(join(dir, 'templates', 'many.yaml'), '{{- range $i := until 3000000 }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{{ $i }}\n{{- end }}\n');
    const helms = () => runningTools('helm', release);
    const template = await openFile('templates/deployment.yaml');
    const values = await openFile('values.yaml');
    await until(() => helms().length > 0, 30_000, 'helm started');
    await client.notify('textDocument/didClose', { textDocument: { uri: template } });
    await new Promise((done) => setTimeout(done, 500));
    assert.ok(helms().length > 0, 'values.yaml, a file of the chart, is still open');
    await client.notify('textDocument/didClose', { textDocument: { uri: values } });
    await until(() => helms().length === 0, 5_000, 'no helm left running');
  });

  it('a file the chart reads with .Files.Get (no manifest) is watched, and its change renders the chart again', async () => {
    const workspace = { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } };
    const { client, dir, uri, openFile } = await editors.open(true, {}, workspace);
    writeFileSync(join(dir, 'replica-count.txt'), '1\n');
    const templatePath = join(dir, 'templates', 'deployment.yaml');
    writeFileSync(templatePath, readFileSync(templatePath, 'utf8').replace('replicas: {{ .Values.replicaCount }}', 'replicas: {{ .Files.Get "replica-count.txt" | trim }}'));
    const template = await openFile('templates/deployment.yaml');
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    const registration = client.serverRequests.find((r) => r.method === 'client/registerCapability');
    assert.deepEqual((registration?.params as any)?.registrations?.map((r: any) => [r.method, r.registerOptions.watchers]), [
      ['workspace/didChangeWatchedFiles', [{ globPattern: { baseUri: pathToFileURL(dir).href, pattern: '**/*' } }]],
    ]);
    writeFileSync(join(dir, 'replica-count.txt'), '3\n');
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('replica-count.txt'), type: 2 }] });
    await client.diagnostics(template, (d) => !codes(d).includes('single-replica@9'));
  });

  it('an editor that takes no watchers relative to a folder is asked for no chart watcher', async () => {
    const workspace = { didChangeWatchedFiles: { dynamicRegistration: true } };
    const { client, openFile } = await editors.open(true, {}, workspace);
    const template = await openFile('templates/deployment.yaml');
    await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    assert.deepEqual(client.serverRequests.filter((r) => r.method === 'client/registerCapability' && JSON.stringify(r.params).includes('didChangeWatchedFiles')), []);
  });

  it('a values file set for the chart outside it: its findings move as it is typed into, its quick fix is offered, and saving it renders the chart again', async () => {
    const { client, dir, openFile } = await inWorkspace.open(true, { helm: { valuesFiles: { 'charts/podinfo': ['env/shared.yaml'] } } });
    mkdirSync(join(dir, '..', '..', 'env'));
    const sharedPath = join(dir, '..', '..', 'env', 'shared.yaml');
    writeFileSync(sharedPath, '# shared values\nreplicaCount: 1\n');
    const template = await openFile('templates/deployment.yaml');
    const shared = await openFile(join('..', '..', 'env', 'shared.yaml'));
    const onShared = (await client.diagnostics(shared, (d) => codes(d).includes('single-replica@1'))).find((d) => d.code === 'single-replica')!;
    const actions = ((await client.codeActions(shared, onShared.range, [onShared])) ?? []) as CodeAction[];
    const fix = actions.find((a) => a.isPreferred);
    assert.ok(fix, `the values file's fix is offered: ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.match(fix.title, /^Run 2 replicas \(set replicaCount: 2 in .*shared\.yaml\)$/);
    const typed = await client.change(shared, '# shared values\n# for every environment\n\nreplicaCount: 1\n');
    await client.diagnostics(shared, (d) => codes(d).includes('single-replica@3'), typed);
    writeFileSync(sharedPath, '# shared values\nreplicaCount: 3\n');
    await client.change(shared, '# shared values\nreplicaCount: 3\n');
    await client.notify('textDocument/didSave', { textDocument: { uri: shared } });
    await client.diagnostics(template, (d) => !codes(d).includes('single-replica@9') && codes(d).includes('replicas-not-spread@9'));
  });

  it('a values file set for two charts: its fix is offered as unsafe, naming the other chart, which it would change too', async () => {
    const { client, dir, openFile } = await inWorkspace.open(true, { helm: { valuesFiles: { 'charts/podinfo': ['env/shared.yaml'], 'charts/other': ['env/shared.yaml'] } } });
    cpSync(dir, join(dir, '..', 'other'), { recursive: true });
    mkdirSync(join(dir, '..', '..', 'env'));
    writeFileSync(join(dir, '..', '..', 'env', 'shared.yaml'), '# shared values\nreplicaCount: 1\n');
    // Once both charts have rendered (a template not rendered yet says only templated-file): before, the values file is
    // known to be read by the one that has.
    for (const template of [join('..', 'other', 'templates', 'deployment.yaml'), join('templates', 'deployment.yaml')]) await client.diagnostics(await openFile(template), (d) => codes(d).includes('single-replica@9'));
    const shared = await openFile(join('..', '..', 'env', 'shared.yaml'));
    const onShared = (await client.diagnostics(shared, (d) => codes(d).includes('single-replica@1'))).find((d) => d.code === 'single-replica')!;
    const actions = ((await client.codeActions(shared, onShared.range, [onShared])) ?? []) as CodeAction[];
    const run2 = actions.filter((a) => a.title.startsWith('Run 2 replicas'));
    assert.ok(run2.length > 0, JSON.stringify(actions.map((a) => a.title)));
    for (const action of run2) {
      assert.equal(action.isPreferred, false, action.title);
      assert.match(action.title, /\(unsafe: it edits shared\.yaml, which chart (other|podinfo) renders from too\)$/);
    }
  });

  it("a fix that creates a file is not offered once a file or a link holds its name, though it was worked out before; and it asks the editor to refuse a file there rather than write into it", { skip: process.platform === 'win32' && 'links' }, async () => {
    const { client, dir, openFile } = await editors.open(true);
    writeFileSync(join(dir, 'values.yaml'), readFileSync(join(dir, 'values.yaml'), 'utf8').replace(/^replicaCount: 1$/m, 'replicaCount: 2'));
    const template = await openFile('templates/deployment.yaml');
    const missing = (await client.diagnostics(template, (d) => d.some((x) => x.code === 'pdb-missing'))).find((d) => d.code === 'pdb-missing')!;
    const creating = (actions: CodeAction[]) => actions.filter((a) => a.edit?.documentChanges?.some((c) => 'kind' in c && c.kind === 'create'));
    const [before] = creating(((await client.codeActions(template, missing.range, [missing])) ?? []) as CodeAction[]);
    assert.ok(before, 'offered while the name is free');
    assert.deepEqual(before.edit!.documentChanges!.filter((c) => 'kind' in c).map((c) => (c as { options?: unknown }).options), [{ overwrite: false, ignoreIfExists: false }]);
    symlinkSync(join(dirname(dir), 'elsewhere.yaml'), join(dir, 'templates', 'podinfo-pdb.yaml'));
    assert.deepEqual(creating(((await client.codeActions(template, missing.range, [missing])) ?? []) as CodeAction[]), [], 'a link to nothing holds the name now');
    assert.ok(!existsSync(join(dirname(dir), 'elsewhere.yaml')));
  });

  it('a values file set for the chart from outside the workspace folder is not edited by a fix (charts out of view may read it)', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'kr-outside-values-')), 'shared.yaml');
    writeFileSync(outside, 'replicaCount: 1\n');
    const { client, openFile } = await editors.open(true, { helm: { valuesFiles: { podinfo: [outside] } } }, {}, { disabledSupport: true });
    const template = await openFile('templates/deployment.yaml');
    const single = (await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'))).find((d) => d.code === 'single-replica')!;
    const actions = ((await client.codeActions(template, single.range, [single])) ?? []) as CodeAction[];
    assert.deepEqual(actions.filter((a) => a.title.startsWith('Run 2 replicas') && !a.disabled), [], JSON.stringify(actions.map((a) => a.title)));
    assert.ok(actions.some((a) => a.title.startsWith('Run 2 replicas') && a.disabled?.reason === `Not written: ${outside} lies outside the workspace folders`), JSON.stringify(actions.map((a) => [a.title, a.disabled])));
    rmSync(dirname(outside), { recursive: true, force: true });
  });

  it('a chart kept in another chart\'s folder but not under charts/ is a chart of its own: its files are its own, and their fixes are written', async () => {
    const { client, openFile } = await nestedEditors.open(true);
    const template = await openFile('extras/inner/templates/deployment.yaml');
    const single = (await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'))).find((d) => d.code === 'single-replica')!;
    assert.equal(single.message, 'Deployment release-inner runs 1 pod: one node drain or node failure takes it offline.');
    const actions = ((await client.codeActions(template, single.range, [single])) ?? []) as CodeAction[];
    assert.ok(actions.some((a) => a.isPreferred && a.title === 'Run 2 replicas (set replicaCount: 2 in values.yaml)'), JSON.stringify(actions.map((a) => [a.title, a.disabled])));
  });

  it('a chart folder renamed in the editor (one event for the folder) is found under its new name and renders', async () => {
    const { client, dir, openFile } = await inWorkspace.open(true);
    const values = await openFile('values.yaml');
    await client.diagnostics(values, (d) => codes(d).includes('single-replica@2'));
    await client.notify('textDocument/didClose', { textDocument: { uri: values } });
    const renamed = join(dir, '..', 'renamed');
    renameSync(dir, renamed);
    await client.notify('workspace/didRenameFiles', { files: [{ oldUri: pathToFileURL(dir).toString(), newUri: pathToFileURL(renamed).toString() }] });
    const template = pathToFileURL(join(renamed, 'templates', 'deployment.yaml')).toString();
    await client.open(template, readFileSync(join(renamed, 'templates', 'deployment.yaml'), 'utf8'));
    const shown = await client.diagnostics(template, (d) => codes(d).includes('single-replica@9'));
    assert.ok(!codes(shown).some((c) => c.startsWith('templated-file')), codes(shown).join(' '));
    renameSync(renamed, dir);
  });

  it('values files set for the chart, relative to the workspace folder (not to wherever the server started)', async () => {
    const { client, openFile } = await editors.open(true, { helm: { valuesFiles: { '.': ['values-prod.yaml'] } } });
    await openFile('templates/deployment.yaml');
    const prod = await openFile('values-prod.yaml');
    const onProd = await client.diagnostics(prod, (d) => codes(d).includes('hpa-min-one@3'));
    assert.ok(!codes(onProd).some((c) => c.startsWith('helm-render')), codes(onProd).join(', '));
  });
});
