import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { greatest, least } from '../server/src/extremes';

describe('greatest and least', () => {
  it('of many numbers, more than a call takes as arguments (the pods of a large snapshot)', () => {
    // 0 … 299,999 in a scrambled order: the greatest sits in the middle, the least near the end.
    const values = Array.from({ length: 300_000 }, (_, i) => (i + 150_001) % 300_000);
    assert.throws(() => Math.max(...values), RangeError, 'what they replace');
    assert.equal(greatest(values), 299_999);
    assert.equal(least(values), 0);
  });

  it('as Math.max and Math.min: -Infinity and Infinity when empty, NaN when one is', () => {
    assert.equal(greatest([]), -Infinity);
    assert.equal(least([]), Infinity);
    assert.ok(Number.isNaN(greatest([1, NaN, 3])));
    assert.deepEqual([greatest([3, -1, 2]), least([3, -1, 2])], [3, -1]);
  });
});
