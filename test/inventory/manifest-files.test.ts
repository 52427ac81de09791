import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';

describe('findManifestFiles', () => {
  let dir: string;
  const touch = (path: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), 'kind: x\n');
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-files-'));
    for (const path of ['b.yaml', 'a.yml', 'c.json', 'D.YAML', 'notes.txt', 'chart/templates/x.yaml', 'node_modules/dep/x.yaml', '.git/x.yaml', '.hidden/x.yaml', 'dist/x.yaml', 'k8s/base/deploy.yaml']) touch(path);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists *.yaml, *.yml and *.json below the folder, sorted, skipping dependency, build and hidden folders', () => {
    assert.deepEqual(findManifestFiles(dir).map((p) => relative(dir, p)), ['D.YAML', 'a.yml', 'b.yaml', 'c.json', join('chart', 'templates', 'x.yaml'), join('k8s', 'base', 'deploy.yaml')]);
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

  it('stops at the limit', () => {
    assert.equal(findManifestFiles(dir, 2).length, 2);
  });

  it('a folder that does not exist has no files', () => {
    assert.deepEqual(findManifestFiles(join(dir, 'missing')), []);
  });
});
