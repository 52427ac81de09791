import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { decodeManifest, encodeManifest, findManifestFiles, manifestFilesInSteps, walkEnters, walkReaches } from '../../server/src/inventory/manifest-files';
import { pausesOf } from '../steps';

describe('findManifestFiles', () => {
  let dir: string;
  const touch = (path: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), 'kind: x\n');
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-files-'));
    for (const path of ['b.yaml', 'a.yml', 'c.json', 'D.YAML', 'notes.txt', 'overlay/Kustomization', 'overlay/Kustomization.bak', 'chart/templates/x.yaml', 'node_modules/dep/x.yaml', '.git/x.yaml', '.hidden/x.yaml', 'dist/x.yaml', 'k8s/base/deploy.yaml']) touch(path);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists *.yaml, *.yml, *.json and a Kustomize root\'s extensionless Kustomization below the folder, sorted, skipping dependency, build and hidden folders', () => {
    assert.deepEqual(findManifestFiles(dir).map((p) => relative(dir, p)), ['D.YAML', 'a.yml', 'b.yaml', 'c.json', join('chart', 'templates', 'x.yaml'), join('k8s', 'base', 'deploy.yaml'), join('overlay', 'Kustomization')]);
  });

  it('follows symbolic links once: a link back up the tree or to a listed file adds nothing', () => {
    const looped = mkdtempSync(join(tmpdir(), 'kr-loop-'));
    try {
      mkdirSync(join(looped, 'sub'));
      writeFileSync(join(looped, 'sub', 'a.yaml'), 'kind: x\n');
      symlinkSync('..', join(looped, 'sub', 'up'));
      symlinkSync('a.yaml', join(looped, 'sub', 'same.yaml'));
      symlinkSync(join(looped, 'sub'), join(looped, 'linked'));
      assert.deepEqual(findManifestFiles(looped).map((p) => relative(looped, p)), [join('linked', 'a.yaml')]);
    } finally {
      rmSync(looped, { recursive: true, force: true });
    }
  });

  it('does not enter a linked folder outside the one walked, as kubectl does not (a link to / walked the whole machine)', () => {
    const tree = mkdtempSync(join(tmpdir(), 'kr-tree-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'kr-elsewhere-'));
    try {
      writeFileSync(join(tree, 'a.yaml'), 'kind: x\n');
      writeFileSync(join(elsewhere, 'b.yaml'), 'kind: x\n');
      symlinkSync(elsewhere, join(tree, 'shared'));
      symlinkSync(join(elsewhere, 'b.yaml'), join(tree, 'one.yaml'));
      symlinkSync('/', join(tree, 'root'));
      assert.deepEqual(findManifestFiles(tree).map((p) => relative(tree, p)), ['a.yaml', 'one.yaml'], 'a linked file is read, wherever it leads');
      assert.deepEqual(findManifestFiles(join(tree, 'shared')).map((p) => relative(tree, p)), [join('shared', 'b.yaml')], 'a linked folder named is walked');
    } finally {
      rmSync(tree, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('lists only regular files: a FIFO or a link to a device named *.yaml is never read', () => {
    const odd = mkdtempSync(join(tmpdir(), 'kr-odd-'));
    try {
      execFileSync('mkfifo', [join(odd, 'pipe.yaml')]);
      symlinkSync('/dev/zero', join(odd, 'zero.yaml'));
      writeFileSync(join(odd, 'real.yaml'), 'kind: x\n');
      assert.deepEqual(findManifestFiles(odd).map((p) => relative(odd, p)), ['real.yaml']);
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });

  it('tells of a manifest larger than 32 MB instead of passing over it without a word, and lists the others', () => {
    const big = mkdtempSync(join(tmpdir(), 'kr-big-'));
    try {
      writeFileSync(join(big, 'a.yaml'), 'kind: x\n');
      writeFileSync(join(big, 'dump.yaml'), Buffer.alloc(33 * 2 ** 20, 0x20));
      const told: string[] = [];
      const found = findManifestFiles(big, undefined, (path, error, what) => told.push(`${what} ${relative(big, path)}: ${(error as Error).message}`));
      assert.deepEqual(found.map((p) => relative(big, p)), ['a.yaml']);
      assert.deepEqual(told, ['file dump.yaml: larger than 32 MB']);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });

  it('in steps, pauses after each entry of a folder, and lists what findManifestFiles lists', () => {
    const { pauses, value } = pausesOf(manifestFilesInSteps(dir));
    // 11 files and the folders holding them, each entry looked at once.
    assert.ok(pauses >= 11, `${pauses} pauses`);
    assert.deepEqual(value, findManifestFiles(dir));
  });

  it('stops at the limit', () => {
    assert.equal(findManifestFiles(dir, 2).length, 2);
  });

  it('a folder that does not exist has no files', () => {
    assert.deepEqual(findManifestFiles(join(dir, 'missing')), []);
  });
});

describe('walkReaches and walkEnters: what a walk from a root finds, told from a path alone', () => {
  const root = join(tmpdir(), 'ws');
  it('reaches manifests below the root, in no build, dependency or hidden folder', () => {
    assert.equal(walkReaches(root, join(root, 'app', 'web.yaml')), true);
    assert.equal(walkReaches(root, join(root, 'web.JSON')), true);
    for (const skipped of ['dist', 'node_modules', '.git', '.hidden']) assert.equal(walkReaches(root, join(root, 'app', skipped, 'web.yaml')), false, skipped);
    assert.equal(walkReaches(root, join(root, 'README.md')), false);
    assert.equal(walkReaches(root, join(`${root}-other`, 'web.yaml')), false);
  });
  it('enters the root and the folders below it a walk does not pass by (a build folder given as the root is entered)', () => {
    assert.equal(walkEnters(root, root), true);
    assert.equal(walkEnters(root, join(root, 'charts', 'web')), true);
    assert.equal(walkEnters(root, join(root, 'out')), false);
    assert.equal(walkEnters(join(root, 'dist'), join(root, 'dist', 'app')), true);
  });
});

describe('decodeManifest and encodeManifest', () => {
  const text = 'apiVersion: v1\r\nkind: ConfigMap # é ✓\r\n';
  const cases: [string, Buffer, string][] = [
    ['UTF-8', Buffer.from(text, 'utf8'), 'utf8'],
    ['UTF-8 with its BOM (left out of the text, as editors do)', Buffer.from(`\uFEFF${text}`, 'utf8'), 'utf8-bom'],
    ['UTF-16LE with its BOM (PowerShell)', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'utf16le'],
    ['UTF-16BE with its BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), 'utf16be'],
  ];
  for (const [name, bytes, encoding] of cases) {
    it(`${name}: decoded, and written back byte for byte`, () => {
      const decoded = decodeManifest(bytes);
      assert.deepEqual(decoded, { text, encoding });
      assert.deepEqual(encodeManifest(decoded.text, decoded.encoding), bytes);
    });
  }

  it('bytes that are not UTF-8 (a Latin-1 comment) are read with replacement characters, and never encoded back', () => {
    const bytes = Buffer.concat([Buffer.from('# J'), Buffer.from([0xfc]), Buffer.from('rgen\nkind: ConfigMap\n')]);
    const decoded = decodeManifest(bytes);
    assert.deepEqual(decoded, { text: '# J\uFFFDrgen\nkind: ConfigMap\n', encoding: 'not-utf8' });
    assert.throws(() => encodeManifest(decoded.text, decoded.encoding), /not UTF-8 text .* left as it was/);
  });

  for (const [name, bom, units] of [
    ['UTF-16LE', [0xff, 0xfe], Buffer.from(text, 'utf16le')],
    ['UTF-16BE', [0xfe, 0xff], Buffer.from(text, 'utf16le').swap16()],
  ] as const) {
    it(`${name} with an odd last byte is read, and never encoded back (the byte was dropped on --fix)`, () => {
      const decoded = decodeManifest(Buffer.concat([Buffer.from(bom), units, Buffer.from([0x0a])]));
      assert.deepEqual(decoded, { text, encoding: 'odd-utf16' });
      assert.throws(() => encodeManifest(decoded.text, decoded.encoding), /UTF-16 text with an odd number of bytes: .* left as it was/);
    });
  }
});
