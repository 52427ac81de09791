import { countLeading } from '../sorted';

/** Where the line holding `offset` starts. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Where the line holding `offset` ends, before its `\n` or `\r\n`. */
export function lineEndOf(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  if (end === -1) return text.length;
  return end > 0 && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
}

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Offsets in a text ↔ LSP positions (0-based lines, UTF-16 characters, which JS string indices already are). */
export class LineIndex {
  /** The offset where each line starts. */
  private readonly starts: Int32Array;

  constructor(
    readonly text: string,
    starts?: Int32Array,
  ) {
    this.starts = starts ?? Int32Array.from(newlinesIn(text, 0, text.length, [0]));
  }

  /**
   * The index of `text`, which is `previous.text` with [start, oldEnd) replaced by [start, newEnd): lines
   * before and after the change are taken from `previous` (a keystroke in a 100,000-line file scans one
   * document, not the whole file). `start` must be a line start.
   */
  static afterEdit(previous: LineIndex, text: string, start: number, oldEnd: number, newEnd: number): LineIndex {
    const before = previous.starts;
    const kept = firstAbove(before, start);
    const following = firstAbove(before, oldEnd);
    const inside = newlinesIn(text, start, newEnd, []);
    const starts = new Int32Array(kept + inside.length + before.length - following);
    starts.set(before.subarray(0, kept));
    starts.set(inside, kept);
    const shift = newEnd - oldEnd;
    for (let i = following, at = kept + inside.length; i < before.length; i++, at++) starts[at] = before[i] + shift;
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The line of an offset (position without its character). */
  lineOf(offset: number): number {
    return firstAbove(this.starts, Math.max(0, Math.min(offset, this.text.length))) - 1;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const line = firstAbove(this.starts, clamped) - 1;
    return { line, character: clamped - this.starts[line] };
  }

  offset(position: Position): number {
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, position.line)];
    const end = position.line + 1 < this.starts.length ? this.starts[position.line + 1] - 1 : this.text.length;
    return Math.min(start + position.character, end);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  lineText(line: number): string {
    const start = this.lineStart(line);
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    return this.text.slice(start, next).replace(/\r?\n$/, '');
  }
}

/** The index of the first line start above `offset`. */
function firstAbove(starts: Int32Array, offset: number): number {
  return countLeading(starts.length, (i) => starts[i] <= offset);
}

/** Adds to `starts` the start of each line that a newline in [from, to) of `text` begins. */
function newlinesIn(text: string, from: number, to: number, starts: number[]): number[] {
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** How many characters `a` and `b` share at their start, found by comparing long slices first. */
export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let same = 0;
  for (let step = 1 << 16; step >= 1; step >>= 4) {
    while (same + step <= limit && a.slice(same, same + step) === b.slice(same, same + step)) same += step;
  }
  while (same < limit && a.charCodeAt(same) === b.charCodeAt(same)) same++;
  return same;
}

/** How many characters `a` and `b` share at their end, at most `limit`. */
export function commonSuffixLength(a: string, b: string, limit: number): number {
  let same = 0;
  for (let step = 1 << 16; step >= 1; step >>= 4) {
    while (same + step <= limit && a.slice(a.length - same - step, a.length - same) === b.slice(b.length - same - step, b.length - same)) same += step;
  }
  while (same < limit && a.charCodeAt(a.length - same - 1) === b.charCodeAt(b.length - same - 1)) same++;
  return same;
}

export function containsPosition(range: Range, position: Position): boolean {
  const afterStart = position.line > range.start.line || (position.line === range.start.line && position.character >= range.start.character);
  const beforeEnd = position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return afterStart && beforeEnd;
}
