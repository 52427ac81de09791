import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long the server must have had nothing to do before it collects. */
const IDLE_MS = 2_000;

/**
 * Collects garbage once the server has been idle for two seconds after some work. V8 on its own leaves
 * what a burst of typing allocated in the heap until more allocation forces a collection, so an idle
 * server kept the memory of its busiest moment (after 10,000 keystrokes in a small file, 73 MB of heap
 * of which 20 MB were live). Where the runtime refuses to expose its collector, this does nothing.
 */
export class IdleCollection {
  private timer: NodeJS.Timeout | undefined;
  private readonly collect = exposedCollector();
  /** The heap in use after the last collection: what was live then. */
  private live = 0;
  /** The heap the runtime held after the last collection. */
  private held = 0;

  /** Work was done: collect once nothing else happens for a while. */
  worked(): void {
    if (!this.collect) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.collectIfGrown(), IDLE_MS);
    this.timer.unref();
  }

  /**
   * A full collection stops the server for a moment: it is only worth it when the heap grew since the last
   * one, in use or held (typing can leave the heap in use as it was and the pages held twice as many).
   */
  private collectIfGrown(): void {
    const { used_heap_size: used, total_heap_size: total } = getHeapStatistics();
    if (used < this.live * GROWTH + SLACK_BYTES && total < this.held * GROWTH + SLACK_BYTES) return;
    this.collect!();
    ({ used_heap_size: this.live, total_heap_size: this.held } = getHeapStatistics());
  }
}

const GROWTH = 1.25;
const SLACK_BYTES = 16e6;

function exposedCollector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    // A context created after the flag has `gc`; the flag does not add it to contexts that exist.
    const collect = runInNewContext('gc') as unknown;
    if (typeof collect !== 'function') return undefined;
    // From Node 22 a last-resort collection also gives back the young generation's space, which a burst of
    // typing grows to 32 MB; Node 20 does not collect at all when given options.
    const options = Number(process.versions.node.split('.')[0]) >= 22 ? [{ type: 'major', execution: 'sync', flavor: 'last-resort' }] : [];
    return () => (collect as (...options: object[]) => void)(...options);
  } catch {
    return undefined;
  }
}
