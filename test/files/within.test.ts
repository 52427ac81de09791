import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join, sep } from 'node:path';
import { innermostOf, shownWithin, within, withinAny } from '../../server/src/files/within';

const root = sep;
const at = (...parts: string[]) => join(root, ...parts);

describe('within', () => {
  it('is the folder or below it, not a sibling that starts alike', () => {
    assert.equal(within(at('a'), at('a')), true);
    assert.equal(within(at('a'), at('a', 'b.yaml')), true);
    assert.equal(within(at('a'), at('ab', 'c.yaml')), false);
  });
});

describe('withinAny', () => {
  it('answers as within does for any of the folders, found by the path\'s own folders', () => {
    const under = withinAny([at('a', 'b'), at('c'), `${at('d')}${sep}`]);
    assert.deepEqual(
      [at('a', 'b'), at('a', 'b', 'x', 'y.yaml'), at('c', 'z.yaml'), at('d', 'e.yaml'), at('a', 'bc.yaml'), at('a'), at('e', 'c', 'x.yaml'), root].map(under),
      [true, true, true, true, false, false, false, false],
    );
    assert.equal(withinAny([at('a')])(at('a', 'x.yaml')), true, 'one folder');
    assert.equal(withinAny([])(at('a')), false, 'none');
  });
});

describe('innermostOf', () => {
  it('gives the innermost folder a path lies in, as the folder was written, and none for a path in none', () => {
    const chartOf = innermostOf([at('outer'), at('outer', 'extras', 'inner'), `${at('other')}${sep}`]);
    assert.deepEqual(
      [at('outer', 'values.yaml'), at('outer', 'extras', 'inner', 'templates', 'a.yaml'), at('outer', 'extras', 'x.yaml'), at('other', 'a.yaml'), at('outer2', 'a.yaml')].map(chartOf),
      [at('outer'), at('outer', 'extras', 'inner'), at('outer'), `${at('other')}${sep}`, undefined],
    );
  });
});

describe('shownWithin', () => {
  it('names a path from the folder, and the folder itself by its own name rather than as nothing', () => {
    assert.equal(shownWithin(join(sep, 'charts', 'web'), join(sep, 'charts', 'web', 'templates', 'deployment.yaml')), join('templates', 'deployment.yaml'));
    assert.equal(shownWithin(join(sep, 'charts', 'web'), join(sep, 'charts', 'web')), 'web');
    assert.equal(shownWithin(join(sep, 'charts', 'web'), join(sep, 'charts', 'base', 'values.yaml')), join('..', 'base', 'values.yaml'));
  });
});
