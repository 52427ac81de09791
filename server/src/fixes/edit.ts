/** A replacement of [start, end) in a file's text. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface Fix {
  title: string;
  /** The obvious fix: what a quick "fix" keystroke and the CLI's --fix apply. */
  preferred?: boolean;
  edits: TextEdit[];
}

/** Applies non-overlapping edits to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const edit of sorted) {
    if (edit.end > limit) throw new Error('overlapping edits');
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}
