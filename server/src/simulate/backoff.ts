import { TIMING } from './facts';

/** The kubelet's crash-loop delay before the n-th restart (1-based): 10 s, 20 s, 40 s … capped at 300 s. */
export function restartBackoff(restart: number): number {
  return Math.min(TIMING.backoffFirst * 2 ** Math.max(0, restart - 1), TIMING.backoffCap);
}
