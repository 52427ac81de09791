import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupBy } from '../server/src/grouped';

describe('groupBy', () => {
  it('gathers the items by key, the groups in the order their keys first come and each in the items\' order', () => {
    const groups = groupBy(['b1', 'a1', 'b2', 'c1', 'a2'], (item) => item[0]);
    assert.deepEqual([...groups], [['b', ['b1', 'b2']], ['a', ['a1', 'a2']], ['c', ['c1']]]);
  });

  it('has no group for no items', () => {
    assert.equal(groupBy([], String).size, 0);
  });
});
