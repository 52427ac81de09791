/**
 * The largest and smallest of many numbers. `Math.max(...values)` passes each value as an argument, and
 * past about 120,000 of them (the pods of a large snapshot) throws "Maximum call stack size exceeded".
 * Empty: -Infinity and Infinity, as Math.max() and Math.min() give.
 */
export function greatest(values: readonly number[]): number {
  let found = -Infinity;
  for (const value of values) found = Math.max(found, value);
  return found;
}

export function least(values: readonly number[]): number {
  let found = Infinity;
  for (const value of values) found = Math.min(found, value);
  return found;
}
