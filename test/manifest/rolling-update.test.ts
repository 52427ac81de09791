import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest } from '../../server/src/manifest/parse';
import { recreateWithRollingUpdate, resolvedMaxUnavailable, rollingUpdateFenceposts, type Fenceposts } from '../../server/src/manifest/rolling-update';

/** A Deployment whose `spec` holds `strategy` (YAML flow). */
const withStrategy = (strategy: string) => parseManifest('file:///d.yaml', `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  strategy: ${strategy}\n`).resources[0];
const fencepostsOf = (strategy: string) => rollingUpdateFenceposts(withStrategy(strategy));

const percent = (value: number) => ({ kind: 'percent' as const, value });
const int = (value: number) => ({ kind: 'int' as const, value });

describe('rollingUpdateFenceposts', () => {
  it('defaults each unset fencepost to 25%, whether the type is written or not', () => {
    assert.deepEqual(fencepostsOf('null'), { maxUnavailable: percent(25), maxSurge: percent(25) });
    assert.deepEqual(fencepostsOf('{type: RollingUpdate, rollingUpdate: {maxSurge: 1}}'), { maxUnavailable: percent(25), maxSurge: int(1) });
    assert.deepEqual(fencepostsOf('{rollingUpdate: {maxUnavailable: 100%, maxSurge: null}}'), { maxUnavailable: percent(100), maxSurge: percent(25) });
  });

  it('has none for Recreate', () => assert.equal(fencepostsOf('{type: Recreate}'), undefined));

  it('has none for settings the API server refuses', () => {
    for (const refused of [
      '{type: rolling}',
      '"RollingUpdate"',
      '{rollingUpdate: [maxUnavailable]}',
      '{rollingUpdate: {maxUnavailable: "3"}}',
      '{rollingUpdate: {maxUnavailable: -1}}',
      '{rollingUpdate: {maxUnavailable: 101%}}',
      '{rollingUpdate: {maxSurge: 1.5}}',
      '{rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}',
      '{rollingUpdate: {maxUnavailable: 0%, maxSurge: 0}}',
    ]) {
      assert.equal(fencepostsOf(refused), undefined, refused);
    }
  });

  it('takes a maxSurge over 100%: only maxUnavailable is capped', () => {
    assert.deepEqual(fencepostsOf('{rollingUpdate: {maxUnavailable: 1, maxSurge: 200%}}'), { maxUnavailable: int(1), maxSurge: percent(200) });
  });
});

describe('recreateWithRollingUpdate', () => {
  it('is a Recreate that sets rollingUpdate to anything, an empty mapping or no mapping too', () => {
    for (const refused of ['{type: Recreate, rollingUpdate: {maxSurge: 1}}', '{type: Recreate, rollingUpdate: {}}', '{type: Recreate, rollingUpdate: 5}']) assert.equal(recreateWithRollingUpdate(withStrategy(refused)), true, refused);
  });

  it('is not a Recreate whose rollingUpdate has no value, nor a strategy of another type', () => {
    for (const taken of ['{type: Recreate, rollingUpdate: null}', '{type: Recreate, rollingUpdate: }', '{type: Recreate}', '{type: RollingUpdate, rollingUpdate: {maxSurge: 1}}', '{rollingUpdate: {}}', 'Recreate']) assert.equal(recreateWithRollingUpdate(withStrategy(taken)), false, taken);
  });
});

describe('resolvedMaxUnavailable', () => {
  const cases: [string, Fenceposts, number, number][] = [
    ['a number as written', { maxUnavailable: int(2), maxSurge: int(0) }, 3, 2],
    ['a percentage rounded down: 99% of 3', { maxUnavailable: percent(99), maxSurge: int(1) }, 3, 2],
    ['100% is every pod', { maxUnavailable: percent(100), maxSurge: percent(25) }, 3, 3],
    ['capped at the replicas', { maxUnavailable: int(5), maxSurge: int(1) }, 3, 3],
    ['both resolving to 0 (10% of 3 down, 0% up) lets one pod go', { maxUnavailable: percent(10), maxSurge: percent(0) }, 3, 1],
    ['a maxSurge rounded up from 10% of 3 keeps maxUnavailable at 0', { maxUnavailable: percent(10), maxSurge: percent(10) }, 3, 0],
    ['no pod of 0 replicas', { maxUnavailable: percent(10), maxSurge: int(0) }, 0, 0],
  ];
  for (const [name, fenceposts, replicas, expected] of cases) it(name, () => assert.equal(resolvedMaxUnavailable(fenceposts, replicas), expected));
});
