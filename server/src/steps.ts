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

/** Runs steps to the end the way its caller wants: at once, or in slices between a server's requests. */
export type StepRunner = <T>(steps: Steps<T>) => Promise<T>;

/** A StepRunner that runs the steps at once. */
export const runAtOnce: StepRunner = async (steps) => runSteps(steps);
