import type { StepRunner } from '../../server/src/steps';
import { pausesOf } from '../steps';

/** A runner that runs steps at once and counts its calls and the pauses of the steps it ran. */
export function countingRunner(): { run: StepRunner; seen: { calls: number; pauses: number } } {
  const seen = { calls: 0, pauses: 0 };
  const run: StepRunner = async (steps) => {
    seen.calls++;
    const { pauses, value } = pausesOf(steps);
    seen.pauses += pauses;
    return value;
  };
  return { run, seen };
}
