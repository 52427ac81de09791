import type { Steps } from '../steps';
import { yieldToRequests } from './yield-to-requests';

/** How long work in slices runs before letting other requests through. */
export const SLICE_MS = 20;

/**
 * Work in steps that runs a slice at a time between requests (see inSlices), or the rest at once (finish). Its
 * end, value or exception, is kept for whoever asks next.
 */
export class SlicedWork<T> {
  readonly #steps: Steps<T>;
  #end: { value: T } | { error: unknown } | undefined;

  constructor(steps: Steps<T>) {
    this.#steps = steps;
  }

  /** Runs steps for about SLICE_MS; whether the work is done. */
  slice(): boolean {
    const until = performance.now() + SLICE_MS;
    while (!this.#end && !this.step() && performance.now() < until);
    return this.#end !== undefined;
  }

  /** Runs the rest at once; its value, or its exception thrown again. */
  finish(): T {
    while (!this.#end) this.step();
    if ('error' in this.#end) throw this.#end.error;
    return this.#end.value;
  }

  /** One step; whether it was the last. */
  private step(): boolean {
    try {
      const next = this.#steps.next();
      if (next.done) this.#end = { value: next.value };
    } catch (error) {
      this.#end = { error };
    }
    return this.#end !== undefined;
  }
}

/**
 * Runs `work` a slice at a time, letting requests that arrived meanwhile be answered between slices, for
 * as long as it is `wanted`; `afterSlice` runs after each slice. Its value, or undefined once unwanted.
 */
export async function inSlices<T>(work: SlicedWork<T>, wanted: () => boolean, afterSlice: () => void = () => undefined): Promise<{ value: T } | undefined> {
  for (;;) {
    if (!wanted()) return undefined;
    const done = work.slice();
    afterSlice();
    if (done) return { value: work.finish() };
    await yieldToRequests();
  }
}
