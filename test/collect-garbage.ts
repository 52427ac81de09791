import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full collection, such as the runtime makes on its own, with the collector exposed for this test process. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
