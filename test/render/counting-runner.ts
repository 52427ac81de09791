import type { StepRunner } from '../../server/src/steps';

/** A runner that runs steps at once and counts its calls and the pauses of the steps it ran. */
export function countingRunner(): { run: StepRunner; seen: { calls: number; pauses: number } } {
  const seen = { calls: 0, pauses: 0 };
  const run: StepRunner = async (steps) => {
    seen.calls++;
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      seen.pauses++;
    }
  };
  return { run, seen };
}
