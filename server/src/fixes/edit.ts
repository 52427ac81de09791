import { countLeading } from '../sorted';

/** A replacement of [start, end) in a file's text. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface Fix {
  title: string;
  /** The obvious fix: what a quick "fix" keystroke and the CLI's --fix apply (an unsafe one only with --unsafe-fixes). */
  preferred?: boolean;
  /**
   * Set when the fix can change what the application does, saying what it changes ("starts a second
   * postgres primary…"): offered, never preferred in an editor, never in a fix-all, never applied by
   * --fix unless --unsafe-fixes is given.
   */
  unsafe?: string;
  edits: TextEdit[];
}

/** The title an editor shows: an unsafe fix says what it changes. */
export function offeredTitle(fix: Fix): string {
  return fix.unsafe ? `${fix.title} (unsafe: ${fix.unsafe})` : fix.title;
}

/** Applies non-overlapping edits to a text, in one pass (a fix-all round applies thousands at once). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error('overlapping edits');
    parts.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * Where text at an offset of the original ends up once non-overlapping `edits` are applied; undefined
 * for text an edit replaced.
 */
export function offsetAfterEdits(edits: readonly TextEdit[]): (offset: number) => number | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const shiftBefore = [0];
  for (const edit of sorted) shiftBefore.push(shiftBefore[shiftBefore.length - 1] + edit.text.length - (edit.end - edit.start));
  return (offset) => {
    // The edits ending at or before the offset (their ends are in order, as they do not overlap).
    const before = countLeading(sorted.length, (i) => sorted[i].end <= offset);
    if (before < sorted.length && sorted[before].start < offset) return undefined;
    return offset + shiftBefore[before];
  };
}
