import { getHeapStatistics } from 'node:v8';
import { formatSeconds } from './duration';
import { formatBytes } from '../files/read-bounded';
import { exposedGc } from '../exposed-gc';

/** What one read of a cluster may cost at most, whatever the server sends. */
export interface ReadLimits {
  /** The whole read, every type and page and retry, ends by then. */
  timeoutMs: number;
  /** One answer (one page) larger than this is refused while it arrives, never held whole. */
  maxResponseBytes: number;
  /** All answers of one read together. */
  maxTotalBytes: number;
  /** Objects one read keeps, all types together: an answer of 64 MB of `{}` items is 22 million of them. */
  maxObjects: number;
  /** Heap in use past which a read stops before its next request, rather than let the process run out of memory. */
  maxHeapBytes: number;
  /** Pages of one list: a server whose paging never ends stops here. */
  maxPages: number;
}

const HEAP_LIMIT = getHeapStatistics().heap_size_limit;

export const DEFAULT_READ_LIMITS: ReadLimits = {
  timeoutMs: 60_000,
  // An answer is parsed whole, and its text can take 19 times its size once parsed: a process with a small
  // memory limit takes smaller answers (64 MB from a limit of 2.5 GB up).
  maxResponseBytes: Math.min(64 * 1024 * 1024, Math.floor(HEAP_LIMIT / 40)),
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  // Far above any cluster Kubernetes supports (150,000 pods, 5,000 nodes), far below what fills a heap.
  maxObjects: 1_000_000,
  // What a read holds is not what it receives (a list of `{}` items takes 19 times its size in heap), so the
  // heap itself is measured; the rest of it is room for the pages in flight, each parsed whole.
  maxHeapBytes: Math.floor(HEAP_LIMIT * 0.6),
  maxPages: 2_000,
};

let collect: (() => void) | undefined;

/**
 * Why a read must stop before its next request, or undefined. The heap in use counts garbage too: past the
 * limit, a full collection (where the runtime allows one) tells what is really held.
 */
export function heapOverLimit(maxHeapBytes: number): string | undefined {
  if (getHeapStatistics().used_heap_size <= maxHeapBytes) return undefined;
  collect ??= exposedGc() ?? (() => undefined);
  collect();
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  if (used <= maxHeapBytes) return undefined;
  return (
    `this process holds ${formatBytes(used)}, more than the ${formatBytes(maxHeapBytes)} a read may let it hold (its memory limit is ${formatBytes(limit)}): ` +
    'the read stopped here rather than run out of memory (for the CLI, NODE_OPTIONS=--max-old-space-size=<MB> raises the limit)'
  );
}

/** The reason an aborted read gives: the deadline passed, or someone cancelled it. */
export class ReadAborted extends Error {}

/**
 * One deadline for a whole read: its signal aborts every request in flight and every wait between
 * them, with a reason that names the deadline.
 */
export class ReadDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort = () => this.controller.abort(new ReadAborted('cancelled'));

  constructor(
    readonly timeoutMs: number,
    private readonly parent?: AbortSignal,
    spentMs = 0,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => this.controller.abort(new ReadAborted(`the read did not finish within ${formatSeconds(timeoutMs)}`)), Math.max(0, timeoutMs - spentMs));
    if (parent?.aborted) this.onParentAbort();
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
  }

  /** Why the read stopped, for messages. */
  get reason(): string {
    const reason = this.signal.reason;
    return reason instanceof ReadAborted ? reason.message : 'cancelled';
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}

/** Bytes one read may still receive, counted as they arrive. */
export class ByteBudget {
  private used = 0;
  constructor(readonly max: number) {}

  /** False once the read has received more than its budget. */
  take(bytes: number): boolean {
    this.used += bytes;
    return this.used <= this.max;
  }
}

/** Objects one read may still keep, counted as each answer's items are taken. */
export class ObjectBudget {
  private kept = 0;
  constructor(readonly max: number) {}

  /** Takes `count` more objects, or (false) none when they would pass the budget: the read's other types may still fit. */
  take(count: number): boolean {
    if (this.kept + count > this.max) return false;
    this.kept += count;
    return true;
  }

  /** Lets go of `count` objects taken (the pages of a list that starts over). */
  give(count: number): void {
    this.kept -= count;
  }
}

/** Waits, unless the read ends first. */
export function waitOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
