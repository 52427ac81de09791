import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { takeFileFromDisk } from '../../server/src/inventory/file-from-disk';
import { Inventory } from '../../server/src/inventory/inventory';
import { clearParseCache, parseManifest } from '../../server/src/manifest/parse';

const URI = 'file:///w/app.yaml';
const deployment = (name: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n      containers: [{name: app, image: nginx}]\n`;
const configMap = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: tools\ndata:\n  mode: ${value}\n`;
const onDisk = `${deployment('web')}---\n${configMap('fast')}`;

function withOpen(uri: string, text: string): Inventory {
  const inventory = new Inventory();
  inventory.setFile(parseManifest(uri, text));
  return inventory;
}

const unreadable = () => {
  throw new Error('ENOENT');
};

describe('takeFileFromDisk', () => {
  it('keeps the parse of a document closed as it is on disk, and moves nothing the other documents asked about', () => {
    const inventory = withOpen(URI, onDisk);
    const parsed = inventory.getFile(URI);
    const { reads } = inventory.recordReads(() => inventory.resources());
    assert.equal(takeFileFromDisk(inventory, URI, URI, () => onDisk), false, 'the other documents see the same text');
    assert.equal(inventory.getFile(URI), parsed);
    assert.ok(inventory.unchangedSince(reads));
  });

  it('gives a document closed with unsaved edits way to the file on disk, whose documents as the editor had them keep their parses', () => {
    const inventory = withOpen(URI, `${deployment('web')}---\n${configMap('slow')}`);
    const web = inventory.resources().find((r) => r.kind === 'Deployment')!;
    const { reads: deployments } = inventory.recordReads(() => inventory.ofKind('Deployment'));
    const { reads: everything } = inventory.recordReads(() => inventory.resources());
    // As in a file larger than the cache holds: the document's own previous parse is what keeps it.
    clearParseCache();
    assert.equal(takeFileFromDisk(inventory, URI, URI, () => onDisk), true);
    assert.equal(inventory.getFile(URI)!.text, onDisk);
    assert.equal(inventory.resources().find((r) => r.kind === 'ConfigMap')!.object.data?.mode, 'fast');
    assert.equal(inventory.resources().find((r) => r.kind === 'Deployment')!.object, web.object, 'the Deployment is not parsed again');
    assert.ok(inventory.unchangedSince(deployments), 'what asked only about Deployments still holds');
    assert.ok(!inventory.unchangedSince(everything), 'what asked about the ConfigMap is redone');
  });

  it('leaves nothing in place of a document whose file cannot be read', () => {
    const inventory = withOpen(URI, onDisk);
    assert.equal(takeFileFromDisk(inventory, URI, URI, unreadable), true);
    assert.equal(inventory.getFile(URI), undefined);
    assert.deepEqual(inventory.resources(), []);
  });

  it('holds nothing for a file on disk that cannot hold a resource (a package-lock.json rewritten), without parsing it', () => {
    const lock = 'file:///w/package-lock.json';
    const inventory = withOpen(lock, '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "was"}}');
    assert.equal(takeFileFromDisk(inventory, lock, lock, () => '{"name": "app", "packages": {"node_modules/kind-of": {"version": "6.0.3"}}}'), true);
    assert.equal(inventory.getFile(lock), undefined);
    assert.deepEqual(inventory.resources(), []);
  });

  it('puts the file on disk under its own key when the editor spelled the URI another way', () => {
    const editorUri = 'file:///w/a%2Bb/app.yaml';
    const disk = 'file:///w/a+b/app.yaml';
    const inventory = withOpen(editorUri, onDisk);
    assert.equal(takeFileFromDisk(inventory, editorUri, disk, () => onDisk), false, 'the same text as before');
    assert.equal(inventory.getFile(editorUri), undefined);
    assert.equal(inventory.getFile(disk)!.text, onDisk);
    assert.equal(inventory.resources().length, 2);
  });

  it('reports a change when a document that was not a manifest gives way to one on disk, and none when neither exists', () => {
    const inventory = new Inventory();
    assert.equal(takeFileFromDisk(inventory, URI, URI, unreadable), false);
    assert.equal(takeFileFromDisk(inventory, URI, URI, () => onDisk), true);
    assert.equal(inventory.resources().length, 2);
  });

  it('takes a file changed on disk in place of its earlier text, parsing only its documents that changed', () => {
    const inventory = withOpen(URI, onDisk);
    const web = inventory.resources().find((r) => r.kind === 'Deployment')!;
    clearParseCache();
    const changed = onDisk.replace('mode: fast', 'mode: slow');
    assert.equal(takeFileFromDisk(inventory, URI, URI, () => changed), true);
    assert.equal(inventory.getFile(URI)!.text, changed);
    assert.equal(inventory.resources().find((r) => r.kind === 'Deployment')!.object, web.object);
    assert.equal(takeFileFromDisk(inventory, URI, URI, () => changed), false, 'read again unchanged, nothing changes');
  });
});
