import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { IdleCollection } from '../../server/src/language/idle-collection';

describe('IdleCollection', () => {
  it('returns the garbage of a burst of work once the server has been idle for two seconds', async () => {
    let burst: unknown[] | undefined = Array.from({ length: 1_000_000 }, (_, i) => ({ i, text: `line ${i}` }));
    const during = process.memoryUsage().heapUsed;
    burst = undefined;
    new IdleCollection().worked();
    await sleep(2_500);
    const after = process.memoryUsage().heapUsed;
    assert.equal(burst, undefined);
    assert.ok(after < during - 40e6, `heap ${(during / 1e6).toFixed(0)} MB during the burst, ${(after / 1e6).toFixed(0)} MB after the pause`);
  });

  const node22 = Number(process.versions.node.split('.')[0]) >= 22;
  it('gives back the space the young generation grew to', { skip: node22 ? false : 'Node 20 cannot shrink it' }, async () => {
    const youngSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
    let kept: unknown[][] = [];
    for (let round = 0; round < 40; round++) kept = [...kept.slice(-3), Array.from({ length: 200_000 }, (_, i) => ({ i }))];
    const grown = youngSpace();
    assert.ok(grown > 8e6, `the burst grew the young generation to ${(grown / 1e6).toFixed(1)} MB`);
    kept = [];
    new IdleCollection().worked();
    await sleep(2_500);
    assert.ok(youngSpace() < grown / 4, `young generation ${(grown / 1e6).toFixed(1)} MB after the burst, ${(youngSpace() / 1e6).toFixed(1)} MB after the pause`);
  });
});
