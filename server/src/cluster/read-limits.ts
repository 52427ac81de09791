import { formatSeconds } from './duration';

/** What one read of a cluster may cost at most, whatever the server sends. */
export interface ReadLimits {
  /** The whole read, every type and page and retry, ends by then. */
  timeoutMs: number;
  /** One answer (one page) larger than this is refused while it arrives, never held whole. */
  maxResponseBytes: number;
  /** All answers of one read together. */
  maxTotalBytes: number;
  /** Pages of one list: a server whose paging never ends stops here. */
  maxPages: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  timeoutMs: 60_000,
  maxResponseBytes: 64 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxPages: 2_000,
};

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
