import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { MAX_SIMULATIONS_AT_ONCE, SimulationWorkers, type SimulationJob } from '../../server/src/language/simulation-worker';

/** A stand-in worker: it answers when told to, and says whether it was stopped. */
class FakeWorker extends EventEmitter {
  jobs: SimulationJob[] = [];
  /** When each job was posted, counted over every worker. */
  readonly postedAt = new Map<SimulationJob, number>();
  terminated = false;
  postMessage(job: SimulationJob): void {
    this.jobs.push(job);
    this.postedAt.set(job, posts++);
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
let posts = 0;
const settle = () => new Promise((resolve) => setImmediate(resolve));

function workers(deadlineMs = 60_000): { pool: SimulationWorkers; started: FakeWorker[] } {
  const started: FakeWorker[] = [];
  const pool = new SimulationWorkers({ deadlineMs, inThread: false, start: () => (started.push(new FakeWorker()), started[started.length - 1] as unknown as Worker) });
  return { pool, started };
}

describe('SimulationWorkers', () => {
  it(`runs at most ${MAX_SIMULATIONS_AT_ONCE} simulations at once; the others wait their turn, in order`, async () => {
    const { pool, started } = workers();
    const jobs = Array.from({ length: 5 }, (_, i) => ({ scenario: { duration: i } }) as unknown as SimulationJob);
    const outcomes = jobs.map((one) => pool.run(one));
    await settle();
    assert.equal(started.length, MAX_SIMULATIONS_AT_ONCE, 'two workers for five requests');
    // Each answer gives the next request its turn, on a worker of its own or the one kept warm.
    for (let round = 0; round < 5; round++) {
      started.find((worker) => worker.listenerCount('message') > 0)!.answer();
      await settle();
    }
    const posted = started.flatMap((worker) => worker.jobs.map((one) => ({ one, at: worker.postedAt.get(one)! }))).sort((a, b) => a.at - b.at);
    assert.deepEqual(posted.map(({ one }) => one), jobs, 'in the order they were asked');
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

  it('leaves a worker that answered in time running, for the next simulation (its deadline ends with the answer)', async () => {
    const { pool, started } = workers(50);
    const outcome = pool.run(job);
    await settle();
    started[0].answer();
    assert.deepEqual(await outcome, { refused: 'answered' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(started[0].terminated, false);
  });

  it('stops a simulation that outruns its deadline and says why', { timeout: 10_000 }, async () => {
    const { pool, started } = workers(50);
    const outcome = await pool.run(job);
    assert.deepEqual(Object.keys(outcome), ['error']);
    assert.match((outcome as { error: string }).error, /^it ran longer than .* and was stopped: simulate fewer events or a shorter span$/);
    assert.equal(started[0].terminated, true);
  });
});
