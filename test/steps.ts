import type { Steps } from '../server/src/steps';

/** Runs the steps to the end: how many times they paused, and their value. */
export function pausesOf<T>(steps: Steps<T>): { pauses: number; value: T } {
  let pauses = 0;
  for (let step = steps.next(); ; step = steps.next(), pauses++) if (step.done) return { pauses, value: step.value };
}
