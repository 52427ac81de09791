import { unchangedEnds } from '../unchanged-ends';

/** Beyond this many lines changed, lines between the first and the last change are not matched one by one. */
const MAX_CHANGED_LINES = 2_000;

/** The most positions the edit script's search keeps (4 bytes each): a bound on its memory. */
const MAX_TRACE = 4_000_000;

/**
 * Where each line of `before` is in `after`, a text edited since (unsaved edits of a source file after its render):
 * a line the edits left in place moves with the lines added or removed above it, wherever they were; a line they
 * changed goes where the lines around it went. Matched by a shortest edit script over the lines between the
 * first and the last change (two edits far apart moved what lay between them by the first alone).
 */
export function lineMover(before: string, after: string): (line: number) => number {
  if (before === after) return (line) => line;
  const a = before.split('\n');
  const b = after.split('\n');
  const { head, tail } = unchangedEnds(a, b, (x, y) => x === y);
  const matched = matchedLines(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return (line) => {
    if (line < head) return line;
    if (line >= a.length - tail) return line + (b.length - a.length);
    const at = line - head;
    if (!matched) return Math.min(line, b.length - tail - 1, b.length - 1);
    if (matched[at] >= 0) return head + matched[at];
    // A changed line: after the unchanged line above it, as far down as it was, before the unchanged line below it.
    let above = at - 1;
    while (above >= 0 && matched[above] < 0) above--;
    let below = at + 1;
    while (below < matched.length && matched[below] < 0) below++;
    const from = above >= 0 ? matched[above] + 1 : 0;
    const to = below < matched.length ? matched[below] - 1 : b.length - head - tail - 1;
    return Math.max(0, Math.min(head + Math.max(from, Math.min(from + (at - above - 1), to)), b.length - 1));
  };
}

/**
 * For each line of `a`, the index of the line of `b` it is kept as by a shortest edit script (Myers), else -1;
 * undefined when more than MAX_CHANGED_LINES lines differ.
 */
function matchedLines(a: readonly string[], b: readonly string[]): Int32Array | undefined {
  const n = a.length;
  const m = b.length;
  const offset = n + m;
  const v = new Int32Array(2 * offset + 2);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(offset, MAX_CHANGED_LINES) && found < 0; d++) {
    if ((d + 1) * v.length > MAX_TRACE) return undefined;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  const matched = new Int32Array(n).fill(-1);
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const previous = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && previous[offset + k - 1] < previous[offset + k + 1]);
    const startX = d === 0 ? 0 : down ? previous[offset + k + 1] : previous[offset + k - 1] + 1;
    const startY = startX - k;
    // The diagonal run of kept lines that this step ended with.
    while (x > startX && y > startY) matched[--x] = --y;
    if (d === 0) break;
    x = down ? startX : startX - 1;
    y = down ? startY - 1 : startY;
  }
  return matched;
}
