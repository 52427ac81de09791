import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { collectFileTrees } from '../../server/src/commands/check';

describe('collectFileTrees: the files check reads, by the tree each was found in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kr-collect-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a folder holding more manifests than a walk takes is named as passed over in part (a finding past the limit passed CI unseen)', () => {
    mkdirSync(join(dir, 'many'));
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, 'many', `${name}.yaml`), 'kind: ConfigMap\n');
    const skipped: string[] = [];
    const trees = collectFileTrees([join(dir, 'many')], (path, reason) => skipped.push(`${path}: ${reason}`), 3);
    assert.equal(trees.size, 3);
    assert.deepEqual(skipped, [`${join(dir, 'many')}: it holds more than 3 manifests: only the first 3 found are checked (name its subfolders in runs of their own)`]);
    const within: string[] = [];
    assert.equal(collectFileTrees([join(dir, 'many')], (path) => within.push(path), 10).size, 4);
    assert.deepEqual(within, [], 'below the limit, nothing is said');
    const exactly: string[] = [];
    assert.equal(collectFileTrees([join(dir, 'many')], (path) => exactly.push(path), 4).size, 4);
    assert.deepEqual(exactly, [], 'a folder of exactly the limit is checked whole, and nothing is said (it was "cut short", exit 2)');
  });
});
