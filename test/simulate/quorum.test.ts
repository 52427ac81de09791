import assert from 'node:assert/strict';
import { it } from 'node:test';
import { failureTolerance, hasQuorum, quorumSize } from '../../server/src/simulate/quorum';

it('matches the etcd FAQ failure-tolerance table (facts/control-plane.md §1)', () => {
  const table: [number, number, number][] = [[1, 1, 0], [2, 2, 0], [3, 2, 1], [4, 3, 1], [5, 3, 2], [6, 4, 2], [7, 4, 3]];
  for (const [members, majority, tolerance] of table) {
    assert.equal(quorumSize(members), majority, `${members} members`);
    assert.equal(failureTolerance(members), tolerance, `${members} members`);
  }
  assert.ok(hasQuorum(3, 2));
  assert.ok(!hasQuorum(3, 1));
  assert.ok(!hasQuorum(0, 0), 'no members, no quorum');
});
