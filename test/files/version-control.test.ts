import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insideVersionControl } from '../../server/src/files/version-control';

describe('insideVersionControl', () => {
  it('is true inside .git, .hg or .svn, as a path or a file uri, on either separator', () => {
    for (const path of ['file:///repo/.git/index', '/repo/chart/.hg/store/data', 'C:\\repo\\.svn\\wc.db', 'file:///repo/.git']) assert.equal(insideVersionControl(path), true, path);
  });

  it('is false elsewhere, .github and .gitignore included', () => {
    for (const path of ['file:///repo/.github/workflows/ci.yaml', '/repo/.gitignore', '/repo/chart/templates/git.yaml']) assert.equal(insideVersionControl(path), false, path);
  });
});
