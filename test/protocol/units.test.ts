// Kustomize roots in the editor: rendered in the background on open (trusted workspaces only), findings on the
// patch and base lines, kept and moved while typing, a patch never analysed as a resource.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { renderTools } from '../render/render-tools';
import { editorsOnCopies } from './units-editor';

const SERVER = resolve('dist/server.js');
const FIXTURE = resolve('test/render/fixtures/kustomize-shop');
const tools = renderTools();
const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.code}@${d.range.start.line}`).sort();

const editors = editorsOnCopies(SERVER, FIXTURE);

/** A base and two overlays of it, opened with `overlays/` as the workspace folder: the base lies outside it. */
const outsideBaseTree = join(mkdtempSync(join(tmpdir(), 'kr-outside-base-')), 'tree');
mkdirSync(join(outsideBaseTree, 'base'), { recursive: true });
writeFileSync(join(outsideBaseTree, 'base', 'deployment.yaml'), readFileSync(join(FIXTURE, 'base', 'deployment.yaml'), 'utf8'));
writeFileSync(join(outsideBaseTree, 'base', 'kustomization.yaml'), 'resources:\n  - deployment.yaml\n');
for (const overlay of ['a', 'b']) {
  mkdirSync(join(outsideBaseTree, 'overlays', overlay), { recursive: true });
  writeFileSync(join(outsideBaseTree, 'overlays', overlay, 'kustomization.yaml'), `namespace: ${overlay}\nresources:\n  - ../../base\n`);
}
const outsideBase = editorsOnCopies(SERVER, outsideBaseTree, '', 'overlays');
/** The same overlays with the base linked into the workspace folder from outside it (`base` a link to that folder). */
const linkedBaseTree = join(mkdtempSync(join(tmpdir(), 'kr-linked-base-')), 'tree');
mkdirSync(linkedBaseTree);
cpSync(join(outsideBaseTree, 'overlays'), join(linkedBaseTree, 'overlays'), { recursive: true });
if (process.platform !== 'win32') symlinkSync(join(outsideBaseTree, 'base'), join(linkedBaseTree, 'base'));
const linkedBase = editorsOnCopies(SERVER, linkedBaseTree);

/** That the fix of the base's single replica, asked on the base, edits files of the overlays only. */
async function assertBaseFixedInOverlays({ client, dir, uri, openFile }: Awaited<ReturnType<typeof outsideBase.open>>): Promise<void> {
    const base = await openFile('base/deployment.yaml');
    const single = (await client.diagnostics(base, (d) => d.some((x) => x.code === 'single-replica' && /Rendered in/.test(JSON.stringify(x))))).find((d) => d.code === 'single-replica')!;
    const actions = ((await client.codeActions(base, single.range, [single])) ?? []) as CodeAction[];
    const run = actions.find((a) => a.title.startsWith('Run 2 replicas'))!;
    const edited = (run.edit?.documentChanges ?? []).map((change) => ('textDocument' in change ? change.textDocument.uri : 'uri' in change ? change.uri : '')).map((u) => relative(dir, fileURLToPath(u)));
    assert.ok(edited.length > 0 && edited.every((file) => file.startsWith(`overlays${sep}`)), edited.join(', '));
    assert.ok(!edited.includes(relative(dir, fileURLToPath(uri('base/deployment.yaml')))));
}

describe('Kustomize roots in the language server', { skip: existsSync(SERVER) ? tools.skip : 'dist/server.js is not built (npm run build)' }, () => {
  after(async () => {
    await Promise.all([editors.closeAll(), outsideBase.closeAll(), linkedBase.closeAll()]);
    rmSync(dirname(outsideBaseTree), { recursive: true, force: true });
    rmSync(dirname(linkedBaseTree), { recursive: true, force: true });
  });

  it('in a trusted workspace: the overlay patch shows the rendered finding, which stays and moves while typing', async () => {
    const { client, dir, uri, openFile } = await editors.open(true);
    const patch = uri('overlays/staging/replicas.yaml');
    const text = readFileSync(join(dir, 'overlays/staging/replicas.yaml'), 'utf8');
    await client.open(patch, text);
    const rendered = await client.diagnostics(patch, (d) => codes(d).includes('replicas-not-spread@5'));
    assert.match(String(rendered.find((d) => d.code === "replicas-not-spread")!.message), /^Deployment staging\/web: both pods may run on one node/);
    assert.ok(!codes(rendered).some((c) => c.startsWith('pdb-missing')), 'the patch is no Deployment of its own');
    const version = await client.change(patch, `# a comment typed above\n${text}`);
    const moved = await client.diagnostics(patch, (d) => codes(d).includes('replicas-not-spread@6'), version);
    assert.equal(moved.filter((d) => d.code === 'replicas-not-spread').length, 1);
    const base = await openFile('base/deployment.yaml');
    const onBase = await client.diagnostics(base, (d) => codes(d).includes('pdb-missing@2'));
    assert.ok(!codes(onBase).includes('single-replica@8'), 'replicas: 1 of the base is what no overlay runs');
    assert.equal(new Set(codes(onBase)).size, codes(onBase).length, `one diagnostic per finding on a base two overlays deploy: ${codes(onBase)}`);
    const onBaseMissing = onBase.find((d) => d.code === 'pdb-missing')!;
    assert.equal(onBaseMissing.message, 'Deployment staging/web: 2 replicas and no PDB: a drain may evict both pods at once.');
    assert.match(String(onBaseMissing.relatedInformation?.[0].message), /^Rendered in overlays\/staging\. /, 'the details name the root that renders the base');
  });

  it('an overlay created on disk (a checkout) is found once the editor reports the new files; a deleted one takes its findings along', async () => {
    const { client, dir, uri, openFile } = await editors.open(true);
    const staging = await openFile('overlays/staging/replicas.yaml');
    await client.diagnostics(staging, (d) => codes(d).includes('replicas-not-spread@5'));
    mkdirSync(join(dir, 'overlays/qa'));
    const kustomization = readFileSync(join(dir, 'overlays/staging/kustomization.yaml'), 'utf8').replace('namespace: staging', 'namespace: qa');
    writeFileSync(join(dir, 'overlays/qa/kustomization.yaml'), kustomization);
    writeFileSync(join(dir, 'overlays/qa/replicas.yaml'), readFileSync(join(dir, 'overlays/staging/replicas.yaml'), 'utf8').replace('replicas: 2', 'replicas: 3'));
    const created = ['overlays/qa/kustomization.yaml', 'overlays/qa/replicas.yaml'].map((p) => ({ uri: uri(p), type: 1 }));
    await client.notify('workspace/didChangeWatchedFiles', { changes: created });
    const qa = await openFile('overlays/qa/replicas.yaml');
    const onQa = await client.diagnostics(qa, (d) => codes(d).includes('replicas-not-spread@5'));
    assert.match(String(onQa.find((d) => d.code === 'replicas-not-spread')!.message), /^Deployment qa\/web: all 3 pods may run on one node/);

    rmSync(join(dir, 'overlays/qa/kustomization.yaml'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('overlays/qa/kustomization.yaml'), type: 3 }] });
    await client.notify('textDocument/didSave', { textDocument: { uri: qa } });
    // The overlay is gone, and its rendered findings with it: the file is analysed on its own again.
    const alone = await client.diagnostics(qa, (d) => !d.some((x) => /qa\/web/.test(String(x.message))));
    assert.deepEqual(alone.map((d) => `${d.code}: ${d.message}`), ['pdb-missing: Deployment web: 3 replicas and no PDB: a drain may evict all 3 pods at once.']);
  });

  it('a base outside the workspace folder, that both overlays in it deploy: its fix is a patch in each overlay, not an edit of the base (which roots outside may deploy)', async () => {
    await assertBaseFixedInOverlays(await outsideBase.open(true));
  });

  it('a base linked into the workspace folder from outside it is outside it too: its fix is a patch in each overlay (the base was edited through the link)', { skip: process.platform === 'win32' && 'links' }, async () => {
    await assertBaseFixedInOverlays(await linkedBase.open(true));
  });

  it('in an untrusted workspace: no kustomize runs, one information finding says why, files are analysed as today', async () => {
    const { client, openFile } = await editors.open(false);
    const kustomization = await openFile('overlays/prod/kustomization.yaml');
    const notice = await client.diagnostics(kustomization, (d) => codes(d).includes('kustomize-render@0'));
    assert.match(String(notice[0].message), /runs only in a trusted workspace/);
    const base = await openFile('base/deployment.yaml');
    assert.ok(codes(await client.diagnostics(base, (d) => d.length > 0)).includes('single-replica@8'));
  });
});
