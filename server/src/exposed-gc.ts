import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The runtime's `gc`, exposed to this process only (the tests collect with it too); undefined where it refuses. */
export function exposedGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    // A context created after the flag has `gc`; the flag does not add it to contexts that exist.
    const collect = runInNewContext('gc') as unknown;
    return typeof collect === 'function' ? (collect as () => void) : undefined;
  } catch {
    return undefined;
  }
}
