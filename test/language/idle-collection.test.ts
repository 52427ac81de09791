import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { IdleCollection } from '../../server/src/language/idle-collection';
import { collectGarbage } from '../collect-garbage';

const youngSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;

/** Work whose results outlive a few young-generation collections, as typing's do: the young generation grows. Its size then. */
function growYoungGeneration(): number {
  let kept: unknown[][] = [];
  for (let round = 0; round < 40; round++) kept = [...kept.slice(-3), Array.from({ length: 200_000 }, (_, i) => ({ i }))];
  const grown = youngSpace();
  assert.ok(grown > 8e6 && kept.length === 4, `the burst grew the young generation to ${(grown / 1e6).toFixed(1)} MB`);
  return grown;
}

describe('IdleCollection', () => {
  it('returns the garbage of a burst of work once the server has been idle for two seconds', { timeout: 15_000 }, async () => {
    let burst: unknown[] | undefined = Array.from({ length: 1_000_000 }, (_, i) => ({ i, text: `line ${i}` }));
    const during = process.memoryUsage().heapUsed;
    burst = undefined;
    new IdleCollection().worked();
    await sleep(2_500);
    const after = process.memoryUsage().heapUsed;
    assert.equal(burst, undefined);
    assert.ok(after < during - 40e6, `heap ${(during / 1e6).toFixed(0)} MB during the burst, ${(after / 1e6).toFixed(0)} MB after the pause`);
  });

  it('waits for two seconds in which the editor asked nothing: requests coming in postpone it', { timeout: 15_000 }, async () => {
    let collections = 0;
    const idle = new IdleCollection((done) => {
      collections++;
      done();
    }, undefined);
    const held = Array.from({ length: 500_000 }, (_, i) => ({ i }));
    idle.worked();
    for (let i = 0; i < 6; i++) {
      await sleep(500);
      idle.heard();
    }
    assert.equal(collections, 0, 'three seconds of requests every half second, and no collection');
    await sleep(2_500);
    assert.equal(collections, 1);
    // The heap grows again without work of the server's: a request then schedules nothing.
    const more = Array.from({ length: 1_000_000 }, (_, i) => ({ i, text: `item ${i}` }));
    idle.heard();
    await sleep(2_500);
    assert.equal(collections, 1, 'a request with no work after the collection schedules none');
    assert.equal(held.length + more.length, 1_500_000);
  });

  it('gives back the pages a burst left sparse, even when what is in use did not grow', { timeout: 15_000 }, async () => {
    const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!;
    const idle = new IdleCollection();
    idle.worked();
    await sleep(2_500);
    let kept: unknown[] = Array.from({ length: 600_000 }, (_, i) => ({ i, text: `item ${i}` }));
    // Old enough to have been promoted; then one object in eight is kept, on every page, and the runtime
    // collects on its own: what is in use is about what it was, the pages held are many more.
    await sleep(100);
    kept = kept.filter((_, i) => i % 8 === 0);
    collectGarbage();
    const sparse = oldSpace().space_size;
    idle.worked();
    await sleep(2_500);
    const { space_size: size, space_used_size: used } = oldSpace();
    assert.equal(kept.length, 75_000);
    assert.ok(size < used * 1.5 + 4e6, `old generation ${(sparse / 1e6).toFixed(0)} MB before the pause, ${(size / 1e6).toFixed(0)} MB for ${(used / 1e6).toFixed(0)} MB in use after it`);
  });

  it('gives back the space the young generation grew to', { timeout: 15_000 }, async () => {
    const grown = growYoungGeneration();
    new IdleCollection().worked();
    await sleep(2_500);
    assert.ok(youngSpace() < grown / 4, `young generation ${(grown / 1e6).toFixed(1)} MB after the burst, ${(youngSpace() / 1e6).toFixed(1)} MB after the pause`);
  });

  it('keeps the young generation\'s space where the live heap is much larger (a large file\'s next keystrokes would grow it again)', { timeout: 15_000 }, async () => {
    const live = new Array(12_000_000).fill(1);
    growYoungGeneration();
    let plain = 0;
    let lastResort = 0;
    const idle = new IdleCollection(
      (done) => {
        plain++;
        collectGarbage();
        done();
      },
      (done) => {
        lastResort++;
        done();
      },
    );
    idle.worked();
    await sleep(2_500);
    assert.equal(live.length, 12_000_000);
    assert.deepEqual({ plain, lastResort }, { plain: 1, lastResort: 0 });
  });
});
