import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { deployment, has, lacks, pdb } from './fixtures';
import { LspClient, positionOf } from './lsp-client';

const SERVER = resolve('dist/server.js');

/** A server on its own temporary folder: `run` fills the folder and drives the server, which must then shut down cleanly. */
async function withServer(prefix: string, run: (dir: string, client: LspClient) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const client = LspClient.start(SERVER);
  try {
    await run(dir, client);
    assert.equal(await client.shutdown(), 0);
  } finally {
    client.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `budget` (a PDB of web) counts for `app` (Deployment web, 3 replicas) while it is open, and leaves with its close. */
async function countsWhileOpen(client: LspClient, app: string, budget: string): Promise<void> {
  await client.open(app, deployment('web', 3));
  await client.diagnostics(app, has('pdb-missing'));
  await client.open(budget, pdb('web'));
  await client.diagnostics(app, lacks('pdb-missing'));
  await client.notify('textDocument/didClose', { textDocument: { uri: budget } });
  await client.diagnostics(app, has('pdb-missing'));
}

/** `app`'s diagnostics once it is validated after what was sent before (an edit answers after every earlier message). */
async function revalidated(client: LspClient, app: string, text = deployment('web', 3)) {
  const version = await client.change(app, `# edited ${++edits}\n${text}`);
  return client.nextDiagnostics(app, version);
}

let edits = 0;

/**
 * Sends file events and returns once the server has followed them (it does so in slices, after the notification):
 * a Deployment written for the purpose, told of last, has joined the workspace then.
 */
async function followed(client: LspClient, dir: string, changes: { uri: string; type: number }[]): Promise<void> {
  const name = `marker-${++edits}`;
  writeFileSync(join(dir, `${name}.yaml`), deployment(name, 2));
  await client.notify('workspace/didChangeWatchedFiles', { changes: [...changes, { uri: pathToFileURL(join(dir, `${name}.yaml`)).toString(), type: 1 }] });
  for (let tries = 0; !(await workloadNames(client)).includes(name); tries++) assert.ok(tries < 600, 'the events are followed');
}

/** The workloads the server analyses, open or read from disk (the simulation's input lists them all). */
async function workloadNames(client: LspClient): Promise<string[]> {
  return (await client.request<{ workloads: { name: string }[] }>('kubeResilience/simulationInput', {})).workloads.map((w) => w.name);
}

/** A server on `dir` with `app.yaml` open, a Deployment web of 3 replicas that no PDB covers yet; its uri. */
async function openUncoveredApp(dir: string, client: LspClient): Promise<string> {
  const app = pathToFileURL(join(dir, 'app.yaml')).toString();
  await client.initialize(pathToFileURL(dir).toString());
  await client.open(app, deployment('web', 3));
  await client.diagnostics(app, has('pdb-missing'));
  return app;
}

/** What the server said of a progress token: its begin, reports and end, in order. */
type ProgressValue = { kind: 'begin' | 'report' | 'end'; title?: string; message?: string; percentage?: number; cancellable?: boolean };

describe('workspace scan', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  it('reads a large file in slices with messages handled meanwhile, and a file opened while it was read stands for itself', () =>
    withServer('kr-lsp-scan-', async (dir, client) => {
      // On disk, after 1,500 Deployments, a PDB for `guarded`; web-pdb.yaml comes after big.yaml in the scan.
      const filler = Array.from({ length: 1500 }, (_, i) => deployment(`filler-${i}`, 2)).join('---\n');
      writeFileSync(join(dir, 'big.yaml'), `${filler}---\n${pdb('guarded')}`);
      writeFileSync(join(dir, 'web-pdb.yaml'), pdb('web'));
      await client.initialize(pathToFileURL(dir).toString());
      const big = pathToFileURL(join(dir, 'big.yaml')).toString();
      const app = pathToFileURL(join(dir, 'app.yaml')).toString();
      const covered = pathToFileURL(join(dir, 'covered.yaml')).toString();
      await client.open(covered, deployment('web', 3));
      assert.ok(has('pdb-missing')(await client.diagnostics(covered, () => true)), 'validated while the scan was still reading big.yaml, before web-pdb.yaml');
      // Opened without the PDB while the scan reads big.yaml from disk: the open text is what counts. app.yaml
      // first, so that it is validated again first after the scan, before big.yaml could mend the inventory.
      await client.open(app, deployment('guarded', 3));
      await client.open(big, deployment('other', 2));
      await client.diagnostics(app, has('pdb-missing'));
      // The scan has passed big.yaml once web-pdb.yaml covers the web Deployment; the open documents are
      // validated again after it, which would lose pdb-missing had the disk's big.yaml replaced the open one.
      await client.diagnostics(covered, lacks('pdb-missing'));
      // A request about app.yaml runs its validation if it is still waiting its turn: its diagnostics are then final.
      await client.request('textDocument/hover', { textDocument: { uri: app }, position: { line: 1, character: 2 } });
      assert.ok(has('pdb-missing')(await client.diagnostics(app, () => true)), 'the open big.yaml, without the PDB, is what app.yaml is analysed against');
    }));

  it('reads a folder added to the workspace, and forgets what it read of one removed', () =>
    withServer('kr-lsp-folders-', async (dir, client) => {
      mkdirSync(join(dir, 'app'));
      mkdirSync(join(dir, 'policies'));
      writeFileSync(join(dir, 'policies', 'web-pdb.yaml'), pdb('web'));
      const folder = (name: string) => ({ uri: pathToFileURL(join(dir, name)).toString(), name });
      const app = pathToFileURL(join(dir, 'app', 'web.yaml')).toString();
      const init = await client.initialize(folder('app').uri, undefined, {}, { workspaceFolders: true });
      assert.deepEqual(init.capabilities.workspace?.workspaceFolders, { supported: true, changeNotifications: true });
      const logs = client.notifications<{ message: string }>('window/logMessage');
      await client.open(app, deployment('web', 3));
      await client.diagnostics(app, has('pdb-missing'));
      // Of another shape: said in our words, not failed on in JavaScript's ("Cannot read properties of null").
      await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: null, removed: null } });
      await client.notify('workspace/didChangeWorkspaceFolders', {});
      await logs.first((l) => l.message.includes('DidChangeWorkspaceFolders'));
      await client.request('textDocument/hover', { textDocument: { uri: app }, position: { line: 0, character: 0 } });
      const said = logs.values.map((l) => l.message).filter((m) => /WorkspaceFolders|TypeError|Cannot/.test(m));
      assert.deepEqual(said, Array(2).fill('kube-resilience: ignored a DidChangeWorkspaceFolders notification: its event has no lists of folders added and removed'));
      await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [folder('policies')], removed: [] } });
      await client.diagnostics(app, lacks('pdb-missing'));
      await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [folder('policies')] } });
      await client.diagnostics(app, has('pdb-missing'));
    }));

  it('forgets the files of a folder deleted on disk, told by one event for the folder or by none (read the workspace again), and reads one moved in', () =>
    withServer('kr-lsp-gone-', async (dir, client) => {
      const policies = (name: string) => {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, 'web-pdb.yaml'), pdb('web'));
        return pathToFileURL(join(dir, name)).toString();
      };
      const folderEvent = (uri: string, type: 1 | 3) => client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri, type }] });
      const first = policies('policies');
      const app = pathToFileURL(join(dir, 'app.yaml')).toString();
      await client.initialize(pathToFileURL(dir).toString());
      await client.open(app, deployment('web', 3));
      await client.diagnostics(app, lacks('pdb-missing'));
      rmSync(join(dir, 'policies'), { recursive: true });
      await folderEvent(first, 3);
      await client.diagnostics(app, has('pdb-missing'));
      // Moved in: one event for the folder, none for the file in it.
      await folderEvent(policies('moved'), 1);
      await client.diagnostics(app, lacks('pdb-missing'));
      // Gone with no event at all (an editor whose watcher matches only file names): reading the workspace again forgets it.
      rmSync(join(dir, 'moved'), { recursive: true });
      await client.request('workspace/executeCommand', { command: 'kubeResilience.readWorkspaceAgain', arguments: [] });
      await client.diagnostics(app, has('pdb-missing'));
    }));

  it('follows a batch of events in slices, answering requests between them, and the last event of a file decides what it is', () =>
    withServer('kr-lsp-events-', async (dir, client) => {
      const app = await openUncoveredApp(dir, client);
      const budget = pathToFileURL(join(dir, 'web-pdb.yaml')).toString();
      // A client that does not merge them sends a file's Created, Deleted, Created: it exists, and counts.
      writeFileSync(join(dir, 'web-pdb.yaml'), pdb('web'));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [1, 3, 1].map((type) => ({ uri: budget, type })) });
      await client.diagnostics(app, lacks('pdb-missing'));
      // Created then Deleted of a file gone: forgotten (the first event counted alone kept it).
      rmSync(join(dir, 'web-pdb.yaml'));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [1, 3].map((type) => ({ uri: budget, type })) });
      await client.diagnostics(app, has('pdb-missing'));
      // Deleted then Created of a file there: read.
      writeFileSync(join(dir, 'web-pdb.yaml'), pdb('web'));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [3, 1].map((type) => ({ uri: budget, type })) });
      await client.diagnostics(app, lacks('pdb-missing'));

      // 20,000 events of files that are gone, then one of a Deployment written: a request asked right after the batch
      // is answered before the batch is followed to its end (it waited for all of it), and the Deployment joins after.
      writeFileSync(join(dir, 'late.yaml'), deployment('late', 2));
      const gone = Array.from({ length: 20_000 }, (_, i) => ({ uri: pathToFileURL(join(dir, 'gone', `file-${i}.yaml`)).toString(), type: 3 }));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [...gone, { uri: pathToFileURL(join(dir, 'late.yaml')).toString(), type: 1 }] });
      assert.ok(!(await workloadNames(client)).includes('late'), 'answered between the events');
      for (let tries = 0; !(await workloadNames(client)).includes('late'); tries++) assert.ok(tries < 600, 'the Deployment written joins once the batch is followed');
    }));

  it('follows a folder named like a manifest (`policies.yaml/`): created, its files are read; deleted, they are forgotten', () =>
    withServer('kr-lsp-yaml-folder-', async (dir, client) => {
      const app = await openUncoveredApp(dir, client);
      const folder = pathToFileURL(join(dir, 'policies.yaml')).toString();
      mkdirSync(join(dir, 'policies.yaml'));
      writeFileSync(join(dir, 'policies.yaml', 'web-pdb.yaml'), pdb('web'));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: folder, type: 1 }] });
      await client.diagnostics(app, lacks('pdb-missing'));
      rmSync(join(dir, 'policies.yaml'), { recursive: true });
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: folder, type: 3 }] });
      await client.diagnostics(app, has('pdb-missing'));
    }));

  it('follows folders renamed and deleted in the editor (file operations, which an editor sends for a folder where its watcher of manifests says nothing)', () =>
    withServer('kr-lsp-folder-ops-', async (dir, client) => {
      mkdirSync(join(dir, 'policies'));
      writeFileSync(join(dir, 'policies', 'web-pdb.yaml'), pdb('web'));
      const uriOf = (name: string) => pathToFileURL(join(dir, name)).toString();
      const app = uriOf('app.yaml');
      const init = await client.initialize(pathToFileURL(dir).toString());
      const folders = { filters: [{ pattern: { glob: '**/*', matches: 'folder' } }] };
      assert.deepEqual(init.capabilities.workspace?.fileOperations, { didCreate: folders, didRename: folders, didDelete: folders });
      await client.open(app, deployment('web', 3));
      await client.diagnostics(app, lacks('pdb-missing'));
      renameSync(join(dir, 'policies'), join(dir, 'budgets'));
      await client.notify('workspace/didRenameFiles', { files: [{ oldUri: uriOf('policies'), newUri: uriOf('budgets') }] });
      // Forgotten under its old name at once, read under its new one in the background: typed into until it is.
      let covered = false;
      for (let edit = 0; edit < 30 && !covered; edit++) {
        const version = await client.change(app, `# edit ${edit}\n${deployment('web', 3)}`);
        covered = lacks('pdb-missing')(await client.nextDiagnostics(app, version));
        if (!covered) await new Promise((done) => setTimeout(done, 100));
      }
      assert.ok(covered, 'the renamed folder\'s budget is read');
      rmSync(join(dir, 'budgets'), { recursive: true });
      await client.notify('workspace/didDeleteFiles', { files: [{ uri: uriOf('budgets') }] });
      await client.diagnostics(app, has('pdb-missing'));
    }));

  it('a closed file the scan does not read (outside the workspace folders) leaves the analysis, and an event of one in a build folder brings none in', () =>
    withServer('kr-lsp-outside-', async (dir, client) => {
      for (const folder of ['ws', join('ws', 'dist'), 'elsewhere']) mkdirSync(join(dir, folder));
      const app = pathToFileURL(join(dir, 'ws', 'app.yaml')).toString();
      const outside = pathToFileURL(join(dir, 'elsewhere', 'web-pdb.yaml')).toString();
      writeFileSync(join(dir, 'elsewhere', 'web-pdb.yaml'), pdb('web'));
      await client.initialize(pathToFileURL(join(dir, 'ws')).toString());
      await countsWhileOpen(client, app, outside);
      // `helm template . > dist/all.yaml`: the scan passes build folders by, and so does an event.
      writeFileSync(join(dir, 'ws', 'dist', 'all.yaml'), pdb('web'));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'ws', 'dist', 'all.yaml')).toString(), type: 1 }] });
      // Validated after the event was handled: still without a budget.
      assert.ok(has('pdb-missing')(await revalidated(client, app)), 'dist/all.yaml is no part of the analysis');
    }));

  it('a document of another scheme (a git revision of a file, as a diff view opens it) is not analysed: it is no second copy of what is deployed', () =>
    withServer('kr-lsp-scheme-', async (dir, client) => {
      const file = pathToFileURL(join(dir, 'web-pdb.yaml')).toString();
      const revision = `git:${new URL(file).pathname}?%7B%22ref%22%3A%22HEAD%22%7D`;
      writeFileSync(join(dir, 'web-pdb.yaml'), pdb('web'));
      await client.initialize(pathToFileURL(dir).toString());
      await client.open(pathToFileURL(join(dir, 'app.yaml')).toString(), deployment('web', 3));
      await client.open(file, pdb('web'));
      const published = client.nextDiagnostics(revision);
      await client.open(revision, pdb('web'));
      assert.deepEqual(await published, []);
      const version = await client.change(file, `# edited\n${pdb('web')}`);
      assert.ok(lacks('pdb-multiple')(await client.nextDiagnostics(file, version)), 'the revision is no second budget of the same pods');
    }));

  it('a file reached through a link, or in a workspace opened through one, is one file with its open document: no second budget, the open text counts', () =>
    withServer('kr-lsp-links-', async (dir, client) => {
      for (const folder of [join('real', 'policies'), join('real', '.shared'), 'elsewhere']) mkdirSync(join(dir, folder), { recursive: true });
      writeFileSync(join(dir, 'real', 'policies', 'web-pdb.yaml'), pdb('web'));
      // The workspace opened through a link to it, and inside it a second way to the same folder.
      symlinkSync(join(dir, 'real'), join(dir, 'ws'));
      symlinkSync(join(dir, 'real', 'policies'), join(dir, 'real', 'a-link'));
      // Budgets read through links to a hidden folder and to one outside the workspace count as the scan found them.
      writeFileSync(join(dir, 'real', '.shared', 'api-pdb.yaml'), pdb('api'));
      symlinkSync(join(dir, 'real', '.shared', 'api-pdb.yaml'), join(dir, 'real', 'api-pdb.yaml'));
      writeFileSync(join(dir, 'elsewhere', 'jobs-pdb.yaml'), pdb('jobs'));
      symlinkSync(join(dir, 'elsewhere', 'jobs-pdb.yaml'), join(dir, 'real', 'jobs-pdb.yaml'));
      await client.initialize(pathToFileURL(join(dir, 'ws')).toString());
      const app = pathToFileURL(join(dir, 'real', 'app.yaml')).toString();
      const budget = pathToFileURL(join(dir, 'real', 'policies', 'web-pdb.yaml')).toString();
      await client.open(app, [deployment('web', 3), deployment('api', 3), deployment('jobs', 3)].join('---\n'));
      await client.diagnostics(app, lacks('pdb-missing'));
      await client.open(budget, pdb('web'));
      assert.ok(lacks('pdb-multiple')(await client.diagnostics(budget, () => true)), 'the file on disk is the open one, not a second budget');
      await client.change(budget, pdb('web').replace('app: web', 'app: nothing'));
      await client.diagnostics(app, has('pdb-missing'));
    }));

  it('a link deleted that the scan read a file by, or that an open document stood for the file by: the file, still there, goes on counting (its budget was lost)', () =>
    withServer('kr-lsp-link-gone-', async (dir, client) => {
      mkdirSync(join(dir, 'real'));
      writeFileSync(join(dir, 'real', 'web-pdb.yaml'), pdb('web'));
      writeFileSync(join(dir, 'real', 'api-pdb.yaml'), pdb('api'));
      // `a-link.yaml` comes before `real/` in the scan: the budget is read by the link. `zz/api-link.yaml` comes after.
      symlinkSync(join(dir, 'real', 'web-pdb.yaml'), join(dir, 'a-link.yaml'));
      mkdirSync(join(dir, 'zz'));
      symlinkSync(join(dir, 'real', 'api-pdb.yaml'), join(dir, 'zz', 'api-link.yaml'));
      await client.initialize(pathToFileURL(dir).toString());
      const app = pathToFileURL(join(dir, 'app.yaml')).toString();
      await client.open(app, [deployment('web', 3), deployment('api', 3)].join('---\n'));
      await client.diagnostics(app, lacks('pdb-missing'));
      const both = [deployment('web', 3), deployment('api', 3)].join('---\n');

      rmSync(join(dir, 'a-link.yaml'));
      await followed(client, dir, [{ uri: pathToFileURL(join(dir, 'a-link.yaml')).toString(), type: 3 }]);
      assert.ok(lacks('pdb-missing')(await revalidated(client, app, both)), 'web-pdb.yaml still counts');

      const zLink = pathToFileURL(join(dir, 'zz', 'api-link.yaml')).toString();
      await client.open(zLink, pdb('api'));
      await revalidated(client, app, both);
      rmSync(join(dir, 'zz', 'api-link.yaml'));
      await client.notify('textDocument/didClose', { textDocument: { uri: zLink } });
      assert.ok(lacks('pdb-missing')(await revalidated(client, app, both)), 'api-pdb.yaml still counts');
    }));

  it('a file open by two paths (one through a link) and closed by one: the open text still counts, not the file on disk', () =>
    withServer('kr-lsp-two-views-', async (dir, client) => {
      mkdirSync(join(dir, 'policies'));
      writeFileSync(join(dir, 'policies', 'web-pdb.yaml'), pdb('web'));
      symlinkSync(join(dir, 'policies'), join(dir, 'a-link'));
      await client.initialize(pathToFileURL(dir).toString());
      const app = pathToFileURL(join(dir, 'app.yaml')).toString();
      const real = pathToFileURL(join(dir, 'policies', 'web-pdb.yaml')).toString();
      const viaLink = pathToFileURL(join(dir, 'a-link', 'web-pdb.yaml')).toString();
      await client.open(app, deployment('web', 3));
      await client.diagnostics(app, lacks('pdb-missing'));
      // Edited, not saved: it no longer covers web.
      const edited = pdb('web').replace('app: web', 'app: nobody');
      await client.open(real, edited);
      await client.diagnostics(app, has('pdb-missing'));
      await client.open(viaLink, edited);
      await client.diagnostics(viaLink, () => true);
      await client.notify('textDocument/didClose', { textDocument: { uri: viaLink } });
      // Validated after the close was handled: still without its budget.
      assert.ok(has('pdb-missing')(await revalidated(client, app)), 'the saved budget on disk came back');
    }));

  it('a file behind a linked folder that leads out of the workspace, opened and closed or told of by an event, leaves the analysis as the scan does not read it', () =>
    withServer('kr-lsp-link-out-', async (dir, client) => {
      for (const folder of ['ws', 'other']) mkdirSync(join(dir, folder));
      writeFileSync(join(dir, 'other', 'web-pdb.yaml'), pdb('web'));
      symlinkSync(join(dir, 'other'), join(dir, 'ws', 'shared'));
      await client.initialize(pathToFileURL(join(dir, 'ws')).toString());
      const app = pathToFileURL(join(dir, 'ws', 'app.yaml')).toString();
      const linked = pathToFileURL(join(dir, 'ws', 'shared', 'web-pdb.yaml')).toString();
      await countsWhileOpen(client, app, linked);
      writeFileSync(join(dir, 'other', 'api-pdb.yaml'), pdb('web'));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'ws', 'shared', 'api-pdb.yaml')).toString(), type: 1 }] });
      assert.ok(has('pdb-missing')(await revalidated(client, app)), 'no file from outside joins on an event');
    }));

  it('shows its progress once it lasts, answers requests meanwhile, stops when cancelled from the editor, and reads the workspace again when asked', () =>
    withServer('kr-lsp-cancel-', async (dir, client) => {
      // Read in name order: the Deployments (about 10 MB, seconds of parsing), then the PDB that covers web.
      const filler = (n: number) => Array.from({ length: 1500 }, (_, i) => deployment(`filler-${n}-${i}`, 2)).join('---\n');
      for (let n = 0; n < 24; n++) writeFileSync(join(dir, `filler-${String(n).padStart(2, '0')}.yaml`), filler(n));
      writeFileSync(join(dir, 'zz-web-pdb.yaml'), pdb('web'));
      const app = pathToFileURL(join(dir, 'app.yaml')).toString();
      const progressed = client.notifications<{ token: string; value: ProgressValue }>('$/progress');
      const progress = (token: string) => progressed.values.filter((p) => p.token === token).map((p) => p.value);
      const logged = client.notifications<{ message: string }>('window/logMessage');
      await client.initialize(pathToFileURL(dir).toString(), undefined, {}, {}, { workDoneProgress: true });
      await client.open(app, deployment('web', 3));
      await client.diagnostics(app, has('pdb-missing'));
      const { token } = await progressed.first((p) => p.value.kind === 'begin');
      const [begin] = progress(token);
      assert.equal(begin.cancellable, true);
      assert.match(begin.message ?? '', /manifests/);
      // A hover is answered while the scan goes on: its progress has not ended.
      const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: app }, position: positionOf(deployment('web', 3), 'kind:') });
      assert.ok(hover?.contents.value, 'a hover on the kind line has a card');
      assert.ok(!progress(token).some((v) => v.kind === 'end'), 'the scan had not ended when the hover was answered');
      await client.notify('window/workDoneProgress/cancel', { token });
      const { message } = await logged.first(({ message }) => /workspace scan cancelled/.test(message));
      assert.equal(progress(token).at(-1)?.kind, 'end');
      assert.match(message, /after \d+ files/);
      // Asked now, the hover validates web against what the inventory holds: the PDB read last was never read.
      await client.request('textDocument/hover', { textDocument: { uri: app }, position: positionOf(deployment('web', 3), 'kind:') });
      assert.ok(has('pdb-missing')(await client.diagnostics(app, () => true)), 'the scan stopped before zz-web-pdb.yaml');
      assert.match(message, /kubeResilience\.readWorkspaceAgain/, 'the log says how to read the rest');
      // Read again, up to the PDB this time: web's finding goes.
      assert.equal(await client.request('workspace/executeCommand', { command: 'kubeResilience.readWorkspaceAgain', arguments: [] }), null);
      await client.diagnostics(app, lacks('pdb-missing'));
    }));

  it('offers to read the workspace again as a command, which the package declares for the command palette', () =>
    withServer('kr-lsp-commands-', async (dir, client) => {
      const init = await client.initialize(pathToFileURL(dir).toString());
      const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
      const declared = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
      const commands = init.capabilities.executeCommandProvider?.commands ?? [];
      assert.deepEqual(commands, ['kubeResilience.readWorkspaceAgain']);
      for (const command of commands) assert.ok(declared.has(command), `${command} has a title in package.json`);
    }));

  it('leaves out of its capabilities a command the client registers itself, and runs it when asked', () =>
    withServer('kr-lsp-client-commands-', async (dir, client) => {
      const init = await client.initialize(pathToFileURL(dir).toString(), { clientCommands: ['kubeResilience.readWorkspaceAgain'] });
      assert.deepEqual(init.capabilities.executeCommandProvider?.commands, []);
      assert.equal(await client.request('workspace/executeCommand', { command: 'kubeResilience.readWorkspaceAgain', arguments: [] }), null);
    }));
});
