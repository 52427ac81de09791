import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { MAX_SIMULATIONS_AT_ONCE, SimulationWorkers, type SimulationJob } from '../../server/src/language/simulation-worker';

/** A stand-in worker: it answers when told to, and says whether it was stopped. */
class FakeWorker extends EventEmitter {
  jobs: SimulationJob[] = [];
  terminated = false;
  postMessage(job: SimulationJob): void {
    this.jobs.push(job);
  }
  terminate(): Promise<number> {
    this.terminated = true;
    return Promise.resolve(1);
  }
  answer(): void {
    this.emit('message', { refused: 'answered' });
  }
}

const job = {} as SimulationJob;
const settle = () => new Promise((resolve) => setImmediate(resolve));

function workers(deadlineMs = 60_000): { pool: SimulationWorkers; started: FakeWorker[] } {
  const started: FakeWorker[] = [];
  const pool = new SimulationWorkers({ deadlineMs, inThread: false, start: () => (started.push(new FakeWorker()), started[started.length - 1] as unknown as Worker) });
  return { pool, started };
}

describe('SimulationWorkers', () => {
  it(`runs at most ${MAX_SIMULATIONS_AT_ONCE} simulations at once; the others wait their turn, in order`, async () => {
    const { pool, started } = workers();
    const outcomes = Array.from({ length: 5 }, () => pool.run(job));
    await settle();
    assert.equal(started.length, MAX_SIMULATIONS_AT_ONCE, 'two workers for five requests');
    started[1].answer();
    await settle();
    assert.equal(started.length, 3, 'an answer gives the next one its turn');
    assert.equal(started[0].jobs.length + started[2].jobs.length, 2);
    for (let i = 0; i < 10 && started.some((w) => w.jobs.length > 0 && !w.terminated && w.listenerCount('message') > 0); i++) {
      for (const worker of started) if (worker.listenerCount('message') > 0) worker.answer();
      await settle();
    }
    assert.deepEqual(await Promise.all(outcomes), Array.from({ length: 5 }, () => ({ refused: 'answered' })));
  });

  it('a request cancelled while it waits for its turn starts no worker', async () => {
    const { pool, started } = workers();
    const running = [pool.run(job), pool.run(job)];
    const waiting = new CancellationTokenSource();
    const cancelled = pool.run(job, waiting.token);
    await settle();
    waiting.cancel();
    assert.deepEqual(await cancelled, { cancelled: true });
    for (const worker of started) worker.answer();
    await Promise.all(running);
    assert.equal(started.length, 2);
  });

  it('stops a simulation that outruns its deadline and says why', { timeout: 10_000 }, async () => {
    const { pool, started } = workers(50);
    const outcome = await pool.run(job);
    assert.deepEqual(Object.keys(outcome), ['error']);
    assert.match((outcome as { error: string }).error, /^it ran longer than .* and was stopped: simulate fewer events or a shorter span$/);
    assert.equal(started[0].terminated, true);
  });
});
