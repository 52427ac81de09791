import { exposedGc } from '../server/src/exposed-gc';

const collect = exposedGc();

/** A full collection, such as the runtime makes on its own, with the collector exposed for this test process. */
export function collectGarbage(): void {
  if (!collect) throw new Error('this runtime does not expose its garbage collector');
  collect();
}
