import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConcurrencyLimit } from '../server/src/concurrency-limit';

describe('ConcurrencyLimit', () => {
  it('lets that many run at once, the others in the order they asked, each as a turn ends', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    const asked = [1, 2, 3, 4].map((n) => limit.acquire(new AbortController().signal).then((ok) => ok && started.push(n)));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [1, 2]);
    limit.release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, [1, 2, 3]);
    limit.release();
    await Promise.all(asked);
    assert.deepEqual(started, [1, 2, 3, 4]);
  });

  it('a task that gives up while it waits takes no turn, and the next one gets it', async () => {
    const limit = new ConcurrencyLimit(1);
    assert.equal(await limit.acquire(new AbortController().signal), true);
    const given = new AbortController();
    const waiting = limit.acquire(given.signal);
    const next = limit.acquire(new AbortController().signal);
    given.abort();
    assert.equal(await waiting, false);
    limit.release();
    assert.equal(await next, true);
    const aborted = new AbortController();
    aborted.abort();
    assert.equal(await limit.acquire(aborted.signal), false, 'aborted before it asks');
  });
});
