import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namesUpTo, plural } from '../server/src/words';

describe('plural', () => {
  it('says one in the singular, any other count in the plural', () => {
    assert.deepEqual([plural(1, 'pod'), plural(0, 'pod'), plural(2, 'fix', 'fixes')], ['1 pod', '0 pods', '2 fixes']);
  });
});

describe('namesUpTo', () => {
  it('keeps every name up to the most shown, and past it the first ones and how many more', () => {
    assert.deepEqual(namesUpTo(['a', 'b'], 2), ['a', 'b']);
    assert.deepEqual(namesUpTo(['a', 'b', 'c', 'd'], 2), ['a', 'b', '2 more']);
    assert.deepEqual(namesUpTo([], 2), []);
  });
});
