import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
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
});
