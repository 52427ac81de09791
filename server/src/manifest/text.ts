import { countLeading } from '../sorted';

/**
 * The 0-based line `offset` lies on, as an editor counts lines (see editorLineStartsIn), counted through the text: for
 * a file read once, not a document edited.
 */
export function lineNumberAt(text: string, offset: number): number {
  return new LineIndex(text).lineOf(offset);
}

/** Where the line holding `offset` starts. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Past the spaces from `at`. */
export function skipSpaces(text: string, at: number): number {
  while (text.charCodeAt(at) === 0x20) at++;
  return at;
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

/** A change of a text: [start, end) replaced by `text`. */
export interface TextChange {
  start: number;
  end: number;
  text: string;
}

/** The one change that turns `before` into `after`: what lies between their common start and common end. */
export function changeBetween(before: string, after: string): TextChange {
  const start = commonPrefixLength(before, after);
  const same = commonSuffixLength(before, after, Math.min(before.length, after.length) - start);
  return { start, end: before.length - same, text: after.slice(start, after.length - same) };
}

/** A text held in pieces: its length and slices are known without joining them. */
export interface PiecedText {
  readonly length: number;
  slice(start: number, end: number): string;
  whole(): string;
}

/** Offsets in a text ↔ LSP positions (0-based lines, UTF-16 characters, which JS string indices already are). */
export class LineIndex {
  /**
   * The offset where each line starts, but for the lines from `shiftedFrom` on, which start `shift` later.
   * Typing within a line moves every line below it: the index after it shares this array with the index
   * before and records the move, where copying moved the 106,000 starts of the benchmark's file on every
   * keystroke (see afterChange).
   */
  private readonly starts: Int32Array;
  private readonly shiftedFrom: number;
  private readonly shift: number;
  private known: string | undefined;
  private readonly pieces: PiecedText | undefined;
  /** The text's length: positions need it, and it is known without the text. */
  readonly length: number;

  /** A text held in pieces is only joined when something reads all of it. */
  constructor(text: string | PiecedText, starts?: Int32Array, moved?: { from: number; by: number }) {
    if (typeof text === 'string') this.known = text;
    else this.pieces = text;
    this.length = text.length;
    this.starts = starts ?? editorLineStartsIn(this.text);
    this.shiftedFrom = moved?.from ?? this.starts.length;
    this.shift = moved?.by ?? 0;
  }

  get text(): string {
    return (this.known ??= this.pieces!.whole());
  }

  /**
   * The index of the text `change` makes of `previous.text`: lines before and after the change are taken
   * from `previous`, and only the inserted text is scanned (a keystroke in a 100,000-line file scans one
   * line, not the whole file). A change within one line that adds none shares `previous`'s starts.
   */
  static afterChange(previous: LineIndex, change: TextChange, text: string | PiecedText): LineIndex {
    // A carriage return the change brings, or one before it that a line feed it brings or takes away makes a break
    // of its own or part of a `\r\n`: the lines are counted again (rare: only lone `\r`s need it).
    if (LONE_CARRIAGE_RETURN.test(change.text) || (change.start > 0 && text.slice(change.start - 1, change.start) === '\r')) return new LineIndex(text);
    const kept = previous.firstAbove(change.start);
    const following = previous.firstAbove(change.end);
    // The lines the change begins: after each of its newlines (a fix-all changes most of a file).
    const inside = lineStartsIn(change.text).subarray(1);
    const shift = change.text.length - (change.end - change.start);
    // Within one line (no newline removed or added): the lines below it move, which the index records as it
    // can when they are the lines `previous` moved, or `previous` moved none.
    if (inside.length === 0 && following === kept && (previous.shift === 0 || previous.shiftedFrom === kept)) {
      return new LineIndex(text, previous.starts, { from: kept, by: previous.shift + shift });
    }
    const starts = new Int32Array(kept + inside.length + previous.starts.length - following);
    previous.copyStarts(0, kept, 0, starts, 0);
    for (let i = 0; i < inside.length; i++) starts[kept + i] = inside[i] + change.start;
    previous.copyStarts(following, previous.starts.length, shift, starts, kept + inside.length);
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The line of an offset (position without its character). */
  lineOf(offset: number): number {
    return this.firstAbove(Math.max(0, Math.min(offset, this.length))) - 1;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.length));
    const line = this.firstAbove(clamped) - 1;
    return { line, character: clamped - this.startOf(line) };
  }

  offset(position: Position): number {
    if (position.line >= this.starts.length) return this.length;
    const start = this.startOf(Math.max(0, position.line));
    const end = position.line + 1 < this.starts.length ? this.startOf(position.line + 1) - 1 : this.length;
    return Math.min(start + position.character, end);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  lineStart(line: number): number {
    return this.startOf(Math.max(0, Math.min(line, this.starts.length - 1)));
  }

  lineText(line: number): string {
    const start = this.lineStart(line);
    const next = line + 1 < this.starts.length ? this.startOf(line + 1) : this.length;
    return (this.known ?? this.pieces!).slice(start, next).replace(/(\r\n|\r|\n)$/, '');
  }

  private startOf(line: number): number {
    // The shift is read and added whatever the line: an index opened unshifted, then shifted by the first
    // keystroke, would otherwise reach code V8 compiled without ever seeing it run, and throw away the
    // compiled code of every method that calls this one (5,890 lookups of the 106k-line file run slowly again).
    const shift = this.shift;
    return this.starts[line] + (line >= this.shiftedFrom ? shift : 0);
  }

  /** The index of the first line starting above `offset`. */
  private firstAbove(offset: number): number {
    return countLeading(this.starts.length, (i) => this.startOf(i) <= offset);
  }

  /** Writes where lines `from` to `to` start, plus `add`, into `into` from `at`. */
  private copyStarts(from: number, to: number, add: number, into: Int32Array, at: number): void {
    const unshifted = Math.min(Math.max(from, this.shiftedFrom), to);
    copyAdding(this.starts, from, unshifted, add, into, at);
    copyAdding(this.starts, unshifted, to, add + this.shift, into, at + unshifted - from);
  }
}

/** Copies `source` from `from` to `to`, each plus `add`, into `into` from `at` (natively when nothing is added). */
function copyAdding(source: Int32Array, from: number, to: number, add: number, into: Int32Array, at: number): void {
  if (add === 0) into.set(source.subarray(from, to), at);
  else for (let i = from; i < to; i++) into[at + i - from] = source[i] + add;
}

/**
 * Where each line of `text` starts, counting line feeds only (editorLineStartsIn counts the lines an editor shows).
 * Grown in a typed array: a plain array pushed to 100,000 times, or copied into one, took ten times as long (13
 * against 1.2 ms on a 106,000-line file).
 */
export function lineStartsIn(text: string): Int32Array {
  // A keystroke's text has a line or two: it does not get a large array.
  let starts = new Int32Array(Math.min(1024, text.length + 1));
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (count === starts.length) {
      const grown = new Int32Array(count * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[count++] = i + 1;
  }
  return starts.slice(0, count);
}

/** A carriage return that no line feed follows (at the end of a text too, where the next text may bring one). */
const LONE_CARRIAGE_RETURN = /\r(?!\n)/;

/**
 * Where each line of `text` starts as editors and the protocol count lines: after `\n`, `\r\n`, and a `\r` alone,
 * which Kubernetes' YAML reader takes for a line break too. A `\r` alone counted for nothing put every finding below
 * it a line too high, and a quick fix written there broke the file.
 */
export function editorLineStartsIn(text: string): Int32Array {
  const starts = lineStartsIn(text);
  const lone: number[] = [];
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 0x0a) lone.push(at + 1);
  if (lone.length === 0) return starts;
  const merged = new Int32Array(starts.length + lone.length);
  for (let i = 0, j = 0, k = 0; k < merged.length; k++) merged[k] = j >= lone.length || (i < starts.length && starts[i] < lone[j]) ? starts[i++] : lone[j++];
  return merged;
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
