import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareCodeUnits, countLeading } from '../server/src/sorted';

describe('countLeading', () => {
  it('counts the items at the start of a sorted list that a prefix predicate holds for, as a scan would', () => {
    const sorted = [1, 3, 3, 7, 9, 12];
    for (let value = 0; value <= 13; value++) {
      assert.equal(countLeading(sorted.length, (i) => sorted[i] <= value), sorted.filter((x) => x <= value).length, `≤ ${value}`);
      assert.equal(countLeading(sorted.length, (i) => sorted[i] < value), sorted.filter((x) => x < value).length, `< ${value}`);
    }
    assert.equal(countLeading(0, () => true), 0, 'an empty list');
  });
});

describe('compareCodeUnits', () => {
  it('orders strings as sort() with no comparator does: by code units, case first, shorter first', () => {
    const words = ['pdb-missing', 'a10', 'Zebra', 'a-b', 'pdb', 'a2', 'é', 'pdb-multiple', ''];
    assert.deepEqual([...words].sort(compareCodeUnits), [...words].sort());
    assert.equal(compareCodeUnits('same', 'same'), 0);
  });
});
