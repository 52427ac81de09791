import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { exposedGc } from '../exposed-gc';

/** How long the server must have had nothing to do before it collects. */
const IDLE_MS = 2_000;

/**
 * Collects garbage once the server has been idle for two seconds after some work. V8 on its own leaves
 * what a burst of typing allocated in the heap until more allocation forces a collection, so an idle
 * server kept the memory of its busiest moment (after 10,000 keystrokes in a small file, 73 MB of heap
 * of which 20 MB were live). Where the young generation is then a large part of the heap, a second,
 * last-resort collection gives its space back. Where the runtime offers no way to collect, this does nothing.
 */
export class IdleCollection {
  private timer: NodeJS.Timeout | undefined;
  /** The heap in use after the last collection: what was live then. */
  private live = 0;
  /** The heap the runtime held after the last collection. */
  private held = 0;

  constructor(
    private readonly collectFully = exposedCollector(),
    private readonly collectAll = lastResortCollector(),
  ) {}

  /** Work was done: collect once nothing else happens for a while. */
  worked(): void {
    if (!this.collectFully && !this.collectAll) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.collectIfGrown();
    }, IDLE_MS);
    this.timer.unref();
  }

  /**
   * The editor asked something (a hover, a lightbulb as the cursor moves): a collection due waits for two
   * more quiet seconds. On the 106k-line file it stops the server for 170-190 ms, which a request that
   * needs no other work should not wait out.
   */
  heard(): void {
    this.timer?.refresh();
  }

  /**
   * A full collection stops the server for a moment: it is only worth it when the heap grew since the last
   * one, in use or held (typing can leave the heap in use as it was and the pages held twice as many).
   */
  private collectIfGrown(): void {
    const { used_heap_size: used, total_heap_size: total } = getHeapStatistics();
    if (used < this.live * GROWTH + SLACK_BYTES && total < this.held * GROWTH + SLACK_BYTES) return;
    if (!this.collectFully) return this.collectAll!(() => this.measured());
    this.collectFully(() => {
      this.measured();
      if (this.collectAll && this.givesBackYoungGeneration()) this.collectAll(() => this.measured());
    });
  }

  private measured(): void {
    ({ used_heap_size: this.live, total_heap_size: this.held } = getHeapStatistics());
  }

  /**
   * Whether to give back the space the young generation grew to, which only a last-resort collection
   * does: where it is a large part of the heap (a small file typed into for long: 33 MB beside 18 MB
   * live). In a large file the next keystrokes would only grow it again, collecting as they go: on the
   * 106k-line file the first keystroke after such a collection took 70 ms of server time, against 38 ms
   * after none and 45 ms after a plain one.
   */
  private givesBackYoungGeneration(): boolean {
    return youngGenerationBytes() > this.live / 2;
  }
}

/** Collects garbage, then calls `done` (at once, or once the runtime has collected). */
export type Collector = (done: () => void) => void;

const GROWTH = 1.25;
const SLACK_BYTES = 16e6;

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * The collection the runtime makes when the system runs short of memory: it also gives back the space
 * the young generation grew to (a burst of typing grows it from 16 to 33 MB), which a plain full
 * collection keeps. Asked through an inspector session inside the server (no debugger need
 * be attached). Undefined where the runtime was built without the inspector.
 */
function lastResortCollector(): Collector | undefined {
  let inspector: typeof import('node:inspector');
  try {
    // Loaded here rather than imported: loading it throws where the runtime has no inspector.
    inspector = require('node:inspector') as typeof import('node:inspector');
  } catch {
    return undefined;
  }
  return (done) => {
    const session = new inspector.Session();
    try {
      session.connect();
      session.post('HeapProfiler.collectGarbage', () => {
        // Disconnecting inside the answer's callback leaves Node's event loop stuck (Node 20 and 22).
        setImmediate(() => session.disconnect());
        done();
      });
    } catch {
      // A runtime that refuses (a permission model) is left as it is, and asked again after the next work.
      session.disconnect();
      done();
    }
  };
}

/** A full collection through `gc`, exposed to this process only. */
function exposedCollector(): Collector | undefined {
  const collect = exposedGc();
  if (!collect) return undefined;
  return (done) => {
    collect();
    done();
  };
}
