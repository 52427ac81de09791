/**
 * How many items two versions of a sequence share at their start (`head`) and then at their end (`tail`):
 * what an edit left in place around the items it changed.
 */
export function unchangedEnds<T>(before: readonly T[], after: readonly T[], same: (a: T, b: T) => boolean): { head: number; tail: number } {
  const most = Math.min(before.length, after.length);
  let head = 0;
  while (head < most && same(before[head], after[head])) head++;
  let tail = 0;
  while (tail < most - head && same(before[before.length - 1 - tail], after[after.length - 1 - tail])) tail++;
  return { head, tail };
}
