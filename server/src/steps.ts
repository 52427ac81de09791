/**
 * Work split into steps: a generator that yields wherever it may pause (between documents), so a server
 * can answer requests in between, or stop. It is the caller who decides how often to pause.
 */
export type Steps<T> = Generator<void, T>;

/** Runs the steps to the end at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
