/**
 * How many items at the start of a sorted sequence of `length` items satisfy `holds`, for a predicate that
 * holds for a prefix of it and for nothing after (found by halving, not by a scan).
 */
export function countLeading(length: number, holds: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (holds(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Orders strings by their UTF-16 code units, as `sort()` does with no comparator, without asking ICU as `localeCompare` does. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
