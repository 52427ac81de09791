import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { CancellationToken } from 'vscode-languageserver/node';
import { ConcurrencyLimit } from '../concurrency-limit';
import { formatSeconds } from '../simulate/format-time';
import type { SimTopology, SimWorkload } from '../simulate/model';
import { MAX_ITEMS } from '../simulate/messages';
import { simulate } from '../simulate/simulate';
import type { Scenario, SimulationResult } from '../simulate/types';

/** What a worker is asked to simulate; a result whose timeline has more entries than a view reads (MAX_ITEMS) is not sent. */
export interface SimulationJob {
  topology: SimTopology;
  workloads: SimWorkload[];
  scenario: Scenario;
}

/** What the worker answers: the result; why it was not sent (too large for the view); or why there is none. */
type JobOutcome = { result: SimulationResult } | { refused: string } | { error: string };

/** How a job ended for the server: as the worker answered, or cancelled. */
export type WorkerOutcome = JobOutcome | { cancelled: true };

/** The mark of the data the server's simulation workers start with. */
const WORKER_MARK = 'kubeResilienceSimulationWorker';

/** Whether this runs from the bundle, which a worker can load (dist/server.js), rather than from the sources. */
const BUNDLED = !__filename.endsWith('.ts');

/** How long a worker waits for the next simulation before it ends. */
const IDLE_MS = 60_000;

/**
 * Simulations that run at once; the others wait their turn. Unbounded, 30 requests at once were 30 threads and 1.2 GB.
 */
export const MAX_SIMULATIONS_AT_ONCE = 2;

/** How long one simulation may run before its worker is stopped: 20,000 reboots in one scenario ran on for minutes. */
export const SIMULATION_DEADLINE_MS = 60_000;

/** The heap one simulation's worker may take: one that needs more ends with an error, not the server. */
const WORKER_HEAP_MB = 2_048;

/**
 * Simulations run in a worker thread, so that the server answers other requests meanwhile and a cancelled request
 * stops the work: in the server's own thread, 1,000 reboots over 300 Deployments held every hover up for 15 s, and
 * cancelling changed nothing. One worker is kept for a minute after a simulation, compiled and warm: a new one for
 * each took 0.2 s more on 2,000 Deployments. A simulation asked while another runs gets a worker of its own.
 * Workers run the server's bundle, whose entry hands a worker to serveSimulations.
 */
export class SimulationWorkers {
  private warm: Worker | undefined;
  private busy = false;
  private idle: NodeJS.Timeout | undefined;
  private readonly turns = new ConcurrencyLimit(MAX_SIMULATIONS_AT_ONCE);
  private readonly deadlineMs: number;
  private readonly inThread: boolean;
  private readonly start: () => Worker;

  /**
   * @param options.inThread Simulate in the calling thread (run from the sources, a worker cannot load them).
   * @param options.start Starts a worker (tests give a stand-in).
   */
  constructor(options: { deadlineMs?: number; inThread?: boolean; start?: () => Worker } = {}) {
    this.deadlineMs = options.deadlineMs ?? SIMULATION_DEADLINE_MS;
    this.inThread = options.inThread ?? !BUNDLED;
    this.start = options.start ?? startWorker;
  }

  async run(job: SimulationJob, cancellation?: CancellationToken): Promise<WorkerOutcome> {
    if (cancellation?.isCancellationRequested) return { cancelled: true };
    // Run from its sources (a TypeScript loader in the main thread only), the server simulates in its own thread.
    if (this.inThread) return outcomeOf(job);
    const waiting = new AbortController();
    const listening = cancellation?.onCancellationRequested(() => waiting.abort());
    const turn = await this.turns.acquire(waiting.signal);
    listening?.dispose();
    if (!turn) return { cancelled: true };
    try {
      return await this.runInWorker(job, cancellation);
    } finally {
      this.turns.release();
    }
  }

  private runInWorker(job: SimulationJob, cancellation?: CancellationToken): Promise<WorkerOutcome> {
    const shared = !this.busy;
    const worker = shared ? (this.warm ??= this.warmWorker()) : this.start();
    if (shared) {
      this.busy = true;
      clearTimeout(this.idle);
    }
    return new Promise<WorkerOutcome>((resolve) => {
      const listening = cancellation?.onCancellationRequested(() => end({ cancelled: true }, false));
      const deadline = setTimeout(() => end({ error: `it ran longer than ${formatSeconds(this.deadlineMs / 1000)} and was stopped: simulate fewer events or a shorter span` }, false), this.deadlineMs);
      const answered = (outcome: JobOutcome) => end(outcome, true);
      const failed = (error: Error) => end({ error: error.message }, false);
      const stopped = (code: number) => end({ error: `its worker stopped (exit code ${code}) before it answered` }, false);
      const end = (outcome: WorkerOutcome, reusable: boolean) => {
        listening?.dispose();
        clearTimeout(deadline);
        worker.off('message', answered).off('error', failed).off('exit', stopped);
        if (shared) this.busy = false;
        if (shared && reusable) this.stayWarm(worker);
        else {
          if (shared) this.warm = undefined;
          void worker.terminate();
        }
        resolve(outcome);
      };
      worker.once('message', answered).once('error', failed).once('exit', stopped);
      worker.postMessage(job);
    });
  }

  private warmWorker(): Worker {
    const worker = this.start();
    worker.once('exit', () => {
      if (this.warm === worker) this.warm = undefined;
    });
    return worker;
  }

  private stayWarm(worker: Worker): void {
    this.idle = setTimeout(() => {
      if (this.warm !== worker || this.busy) return;
      void worker.terminate();
      this.warm = undefined;
    }, IDLE_MS);
    this.idle.unref();
  }
}

function startWorker(): Worker {
  // Nothing it writes may reach the server's stdout, the protocol's channel; what it says on stderr goes to the server's.
  const worker = new Worker(__filename, { workerData: { [WORKER_MARK]: true }, stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  worker.stderr.pipe(process.stderr);
  // An idle worker does not keep the server's process alive; one that fails between jobs does not take it down.
  worker.unref();
  worker.on('error', () => undefined);
  return worker;
}

/** Whether this thread is a worker started by SimulationWorkers. */
export function isSimulationWorker(): boolean {
  return !isMainThread && typeof workerData === 'object' && workerData !== null && workerData[WORKER_MARK] === true;
}

/** In a worker: simulates each job it is sent and posts the outcome. */
export function serveSimulations(): void {
  parentPort!.on('message', (job: SimulationJob) => parentPort!.postMessage(outcomeOf(job)));
}

function outcomeOf({ topology, workloads, scenario }: SimulationJob): JobOutcome {
  try {
    const result = simulate(topology, workloads, scenario);
    if (result.timeline.length <= MAX_ITEMS) return { result };
    const entries = (n: number) => n.toLocaleString('en-US');
    return { refused: `a timeline of ${entries(result.timeline.length)} entries is more than the ${entries(MAX_ITEMS)} the view shows: simulate fewer events or a shorter span` };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
