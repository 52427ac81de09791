/** Lets at most `limit` tasks run at once; the others wait their turn, in the order they asked. */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Waits for a turn; false when `signal` aborts first (no turn is taken then). */
  acquire(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const turn = () => {
        signal?.removeEventListener('abort', gaveUp);
        this.running++;
        resolve(true);
      };
      const gaveUp = () => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      this.waiting.push(turn);
      signal?.addEventListener('abort', gaveUp, { once: true });
    });
  }

  /** A turn taken ends: the next waiting task runs. */
  release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
