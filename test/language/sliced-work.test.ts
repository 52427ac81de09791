import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inSlices, SLICE_MS, SlicedWork } from '../../server/src/language/sliced-work';
import type { Steps } from '../../server/src/steps';

/** `count` steps of `ms` each (held, as parsing a document holds the event loop), counted in `done`; returns the count. */
function* work(count: number, ms: number, done: { steps: number }): Steps<number> {
  for (let i = 0; i < count; i++) {
    const end = performance.now() + ms;
    while (performance.now() < end);
    done.steps++;
    yield;
  }
  return count;
}

function* failing(): Steps<number> {
  yield;
  throw new Error('the engine failed');
}

describe('SlicedWork', () => {
  it('runs about a slice of its steps at a time, and the rest at once when finished', () => {
    const done = { steps: 0 };
    const sliced = new SlicedWork(work(100, SLICE_MS / 4, done));
    assert.equal(sliced.slice(), false);
    assert.ok(done.steps >= 1 && done.steps < 20, `one slice ran ${done.steps} steps of a quarter slice each`);
    assert.equal(sliced.finish(), 100);
    assert.equal(done.steps, 100);
    assert.equal(sliced.slice(), true, 'finished, a slice has nothing left to do');
    assert.equal(sliced.finish(), 100);
  });

  it('keeps an exception and throws it again to whoever asks next', () => {
    const sliced = new SlicedWork(failing());
    assert.equal(sliced.slice(), true, 'a failure ends the work');
    assert.throws(() => sliced.finish(), /the engine failed/);
    assert.throws(() => sliced.finish(), /the engine failed/);
  });
});

describe('inSlices', () => {
  it('runs the work to its value with a turn of the event loop between slices, calling afterSlice after each', async () => {
    const done = { steps: 0 };
    let slices = 0;
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      const outcome = await inSlices(new SlicedWork(work(20, SLICE_MS / 4, done)), () => true, () => slices++);
      assert.deepEqual(outcome, { value: 20 });
    } finally {
      clearInterval(ticking);
    }
    assert.ok(slices >= 2, `${slices} slices`);
    assert.ok(turns >= 1, 'timers ran between slices');
  });

  it('gives up once the work is no longer wanted, leaving the rest undone', async () => {
    const done = { steps: 0 };
    let wanted = true;
    const outcome = await inSlices(new SlicedWork(work(100, SLICE_MS / 4, done)), () => wanted, () => (wanted = false));
    assert.equal(outcome, undefined);
    assert.ok(done.steps < 100, `${done.steps} steps ran`);
  });

  it('ends with the value of work that a request finished at once between two slices', async () => {
    const done = { steps: 0 };
    const sliced = new SlicedWork(work(100, SLICE_MS / 4, done));
    const running = inSlices(sliced, () => true);
    assert.equal(sliced.finish(), 100);
    assert.deepEqual(await running, { value: 100 });
    assert.equal(done.steps, 100, 'no step ran twice');
  });

  it('rejects with the exception of failed work', async () => {
    await assert.rejects(inSlices(new SlicedWork(failing()), () => true), /the engine failed/);
  });
});
