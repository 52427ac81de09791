import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assumedPlacement } from '../../server/src/simulate/placement';

const nodes = [
  { name: 'a-1', zone: 'a' },
  { name: 'a-2', zone: 'a' },
  { name: 'b-1', zone: 'b' },
  { name: 'b-2', zone: 'b' },
];

it('places on a node named __proto__ as on any other (its pods were lost: the assignment set the record\'s prototype)', () => {
  const placement = assumedPlacement(2, [{ name: '__proto__', zone: 'a' }, { name: 'b-1', zone: 'b' }], { byZone: false, onePerNode: true }, 'shop/api');
  assert.deepEqual(Object.entries(placement).sort(), [['__proto__', 1], ['b-1', 1]]);
  assert.equal(Object.getPrototypeOf(placement), Object.prototype);
});

it('spreads replicas round-robin and is deterministic', () => {
  const one = assumedPlacement(5, nodes, { byZone: false, onePerNode: false }, 'shop/api');
  assert.deepEqual(one, assumedPlacement(5, [...nodes].reverse(), { byZone: false, onePerNode: false }, 'shop/api'));
  assert.equal(Object.values(one).reduce((a, b) => a + b, 0), 5);
  assert.ok(Math.max(...Object.values(one)) - Math.min(...Object.values(one)) <= 1);
});

it('puts two replicas in two zones when the manifest spreads by zone', () => {
  for (const seed of ['shop/api', 'shop/web', 'x', 'kube-system/coredns']) {
    const placement = assumedPlacement(2, nodes, { byZone: true, onePerNode: false }, seed);
    const zones = new Set(Object.keys(placement).map((n) => n[0]));
    assert.equal(zones.size, 2, `${seed}: ${JSON.stringify(placement)}`);
  }
});

it('leaves replicas unplaced beyond one a node under required hostname anti-affinity', () => {
  const placement = assumedPlacement(6, nodes, { byZone: false, onePerNode: true }, 'shop/api');
  assert.deepEqual(Object.values(placement), [1, 1, 1, 1]);
});

it('places nothing without an eligible node', () => {
  assert.deepEqual(assumedPlacement(3, [], { byZone: false, onePerNode: false }, 'shop/api'), {});
});

it('does not stack every single replica on the first node', () => {
  const homes = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => Object.keys(assumedPlacement(1, nodes, { byZone: false, onePerNode: false }, `shop/${name}`))[0]));
  assert.ok(homes.size > 1);
});
