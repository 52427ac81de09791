import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unchangedEnds } from '../server/src/unchanged-ends';

const ends = (before: string, after: string) => unchangedEnds([...before], [...after], (a, b) => a === b);

describe('unchangedEnds', () => {
  it('counts what an edit left in place at the start and at the end', () => {
    assert.deepEqual(ends('abcde', 'abXde'), { head: 2, tail: 2 });
    assert.deepEqual(ends('abcde', 'abXYde'), { head: 2, tail: 2 }, 'an item added');
    assert.deepEqual(ends('abcde', 'abde'), { head: 2, tail: 2 }, 'an item removed');
    assert.deepEqual(ends('', 'ab'), { head: 0, tail: 0 });
  });

  it('never counts an item twice when the versions repeat it', () => {
    assert.deepEqual(ends('aaa', 'aa'), { head: 2, tail: 0 });
    assert.deepEqual(ends('abab', 'abab'), { head: 4, tail: 0 });
  });
});
