import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import type { Connection } from 'vscode-languageserver/node';
import { Inventory } from '../../server/src/inventory/inventory';
import { WorkspaceScan } from '../../server/src/language/workspace-scan';
import { parseManifest } from '../../server/src/manifest/parse';

const deployment = (name: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n`;

/** A scan of its own inventory, with what it logged and a promise of its next end. */
function scanWith(isOpen: (uri: string) => boolean = () => false, maxFiles?: number, worked: () => void = () => undefined) {
  const inventory = new Inventory();
  const logged: string[] = [];
  const log = (message: string) => logged.push(message);
  const connection = { console: { log, warn: log, error: log }, window: { createWorkDoneProgress: () => new Promise(() => undefined) } } as unknown as Connection;
  let ended: () => void = () => undefined;
  const scan = new WorkspaceScan({ connection, inventory, isOpen, scanned: () => ended(), worked }, maxFiles);
  const nextEnd = () => new Promise<void>((resolve) => (ended = resolve));
  const uris = () => inventory.allFiles().map((f) => f.uri).sort();
  return { scan, inventory, logged, nextEnd, uris };
}

describe('WorkspaceScan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kr-scan-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const uri = (path: string) => pathToFileURL(join(dir, path)).toString();
  const folder = (name: string) => pathToFileURL(join(dir, name)).toString();
  mkdirSync(join(dir, 'apps'));
  mkdirSync(join(dir, 'more'));
  writeFileSync(join(dir, 'apps', 'web.yaml'), deployment('web'));
  writeFileSync(join(dir, 'apps', 'package-lock.json'), '{"name": "site", "packages": {"node_modules/kind-of": {}}}');
  writeFileSync(join(dir, 'apps', 'open.yaml'), deployment('on-disk'));
  writeFileSync(join(dir, 'more', 'api.yaml'), deployment('api'));

  it('reads the manifests of the folders added, not those that cannot hold a resource nor those open in the editor', async () => {
    const { scan, nextEnd, uris, inventory } = scanWith((u) => u === uri('apps/open.yaml'));
    const ended = nextEnd();
    scan.add([folder('apps'), 'untitled:Untitled-1']);
    await ended;
    assert.deepEqual(uris(), [uri('apps/web.yaml')]);
    const web = inventory.getFile(uri('apps/web.yaml'));
    const more = nextEnd();
    scan.add([folder('more'), folder('apps')]);
    await more;
    assert.deepEqual(uris(), [uri('apps/web.yaml'), uri('more/api.yaml')]);
    assert.equal(inventory.getFile(uri('apps/web.yaml')), web, 'apps/, added again, is not read again');
    assert.deepEqual(inventory.resources().map((r) => r.name).sort(), ['api', 'web']);
  });

  it('a folder removed takes its files out of the inventory, but an open document and the files of the folders left', async () => {
    const { scan, nextEnd, uris, inventory } = scanWith((u) => u === uri('apps/open.yaml'));
    const ended = nextEnd();
    scan.add([folder('apps'), folder('more'), folder('')]);
    await ended;
    inventory.setFile(parseManifest(uri('apps/open.yaml'), deployment('typed')));
    scan.remove([folder('apps')]);
    assert.deepEqual(uris(), [uri('apps/open.yaml'), uri('apps/web.yaml'), uri('more/api.yaml')], 'apps/ is inside the folder that contains it all');
    scan.remove([folder(''), folder('more')]);
    assert.deepEqual(uris(), [uri('apps/open.yaml')]);
  });

  it('read again, takes what changed on disk and keeps the parse of a file whose text is the same', async () => {
    const { scan, nextEnd, inventory } = scanWith();
    mkdirSync(join(dir, 'reread'));
    writeFileSync(join(dir, 'reread', 'edited.yaml'), deployment('before'));
    const ended = nextEnd();
    scan.add([folder('more'), folder('reread')]);
    await ended;
    const api = inventory.getFile(uri('more/api.yaml'));
    writeFileSync(join(dir, 'reread', 'edited.yaml'), deployment('after'));
    writeFileSync(join(dir, 'reread', 'new.yaml'), deployment('new'));
    const readAgain = nextEnd();
    scan.again();
    await readAgain;
    assert.equal(inventory.getFile(uri('more/api.yaml')), api, 'more/api.yaml did not change');
    assert.deepEqual(inventory.resources().map((r) => r.name).sort(), ['after', 'api', 'new']);
  });

  it('a folder created below a workspace folder is read, but not one that is a link leading out of it (a link to / renamed in the editor walked the machine)', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'kr-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'outside.yaml'), deployment('outside'));
      const { scan, nextEnd, uris } = scanWith();
      const ended = nextEnd();
      scan.add([folder('more')]);
      await ended;
      symlinkSync(elsewhere, join(dir, 'more', 'linked'));
      mkdirSync(join(dir, 'more', 'fresh'));
      writeFileSync(join(dir, 'more', 'fresh', 'new.yaml'), deployment('new'));
      const fresh = nextEnd();
      scan.folderCreated(join(dir, 'more', 'linked'));
      scan.folderCreated(join(dir, 'more', 'fresh'));
      await fresh;
      assert.deepEqual(uris(), [uri('more/api.yaml'), uri('more/fresh/new.yaml')]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
      rmSync(join(dir, 'more', 'linked'), { force: true });
      rmSync(join(dir, 'more', 'fresh'), { recursive: true, force: true });
    }
  });

  /**
   * A scan of `name` holding a file of 3,000 documents (parsed in several slices), during whose parse `change` runs,
   * as the server does on a watched-file event: between two slices of the parse.
   */
  const racing = async (name: string, change: (inventory: Inventory, uri: string) => void) => {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'big.yaml'), Array.from({ length: 3000 }, (_, i) => deployment(`old-${i}`)).join('---\n'));
    const big = uri(`${name}/big.yaml`);
    let reading = false;
    let told = false;
    const { scan, nextEnd, inventory } = scanWith(
      (u) => {
        if (u === big) reading = true;
        return false;
      },
      undefined,
      () => {
        if (!reading || told) return;
        told = true;
        change(inventory, big);
      },
    );
    const ended = nextEnd();
    scan.add([folder(name)]);
    await ended;
    assert.ok(told, 'the change came while the file was parsed');
    return inventory.getFile(big);
  };

  it('a file changed on disk while the scan parses it keeps its newer text (the scan put back the older one)', async () => {
    const file = await racing('racing', (inventory, big) => inventory.setFile(parseManifest(big, deployment('new'))));
    assert.deepEqual(file?.resources.map((r) => r.name), ['new']);
  });

  it('a file emptied on disk while the first scan parses it stays out (it was put back, its old resources counted)', async () => {
    // The event finds a text that holds no resource: the file leaves the inventory, where it was not yet.
    assert.equal(await racing('emptied', (inventory, big) => inventory.removeFile(big)), undefined);
  });

  it('holds a file behind a linked folder only when the link leads inside the workspace folder, as its walk enters', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'kr-elsewhere-'));
    try {
      mkdirSync(join(dir, 'held', 'policies'), { recursive: true });
      symlinkSync(elsewhere, join(dir, 'held', 'outside'));
      symlinkSync(join(dir, 'held', 'policies'), join(dir, 'held', 'inside'));
      const { scan } = scanWith();
      scan.add([folder('held')]);
      assert.equal(scan.holds(join(dir, 'held', 'policies', 'pdb.yaml')), true);
      assert.equal(scan.holds(join(dir, 'held', 'inside', 'pdb.yaml')), true);
      assert.equal(scan.holds(join(dir, 'held', 'outside', 'pdb.yaml')), false, 'an editor may open a file there, or tell of one created');
      assert.equal(scan.holds(join(dir, 'held', 'dist', 'pdb.yaml')), false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('reads a file once when two workspace folders lead to it (one a link to the other), and again from the other when its folder goes', async () => {
    mkdirSync(join(dir, 'twice'));
    writeFileSync(join(dir, 'twice', 'web.yaml'), deployment('web'));
    symlinkSync(join(dir, 'twice'), join(dir, 'twice-link'));
    const { scan, nextEnd, uris } = scanWith();
    const ended = nextEnd();
    scan.add([folder('twice'), folder('twice-link')]);
    await ended;
    assert.deepEqual(uris(), [uri('twice/web.yaml')]);
    assert.equal(scan.keyOf(join(dir, 'twice', 'web.yaml')), uri('twice/web.yaml'));
    const readAgain = nextEnd();
    scan.remove([folder('twice')]);
    await readAgain;
    assert.deepEqual(uris(), [uri('twice-link/web.yaml')]);
  });

  it('reads the other folder\'s copy when the folder goes while its copy is open (closed later, the file was lost)', async () => {
    mkdirSync(join(dir, 'held-open'));
    writeFileSync(join(dir, 'held-open', 'web.yaml'), deployment('web'));
    symlinkSync(join(dir, 'held-open'), join(dir, 'held-open-link'));
    const open = uri('held-open/web.yaml');
    const { scan, nextEnd, uris, inventory } = scanWith((u) => u === open);
    // Open in the editor before the scan: its text stands for the file under the key it was opened by.
    inventory.setFile(parseManifest(open, deployment('typed')));
    const ended = nextEnd();
    scan.add([folder('held-open'), folder('held-open-link')]);
    await ended;
    assert.deepEqual(uris(), [open], 'one file, the open one');
    const readAgain = nextEnd();
    scan.remove([folder('held-open')]);
    await readAgain;
    assert.deepEqual(uris(), [uri('held-open-link/web.yaml'), open]);
  });

  it('past its limit, reads the first files found and says that the others are not seen', async () => {
    const { scan, nextEnd, uris, logged } = scanWith(undefined, 2);
    const ended = nextEnd();
    scan.add([folder('')]);
    await ended;
    assert.deepEqual(uris(), [uri('apps/open.yaml')], 'apps/open.yaml and apps/package-lock.json are the first two, in name order');
    assert.match(logged.join('\n'), new RegExp(`${dir.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} holds 2 YAML and JSON files or more: the first 2 found are read`));
  });
});
