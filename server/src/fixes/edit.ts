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
  /**
   * Text the fix writes a copy of (a liveness probe's handler in a new startup probe), as [start, end) offsets: a
   * fix-all round applies no other fix that edits it in the same round, or the copy would be of the text before.
   */
  copies?: { start: number; end: number }[];
}

/** The title an editor shows: an unsafe fix says what it changes. */
export function offeredTitle<F extends Pick<Fix, 'title' | 'unsafe'>>(fix: F): string {
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

/**
 * Edits of `text0` that make what `first` then `then` make of it: `first` edits `text0` into `text1`, and
 * `then` edits `text1`. Edits that touch (an edit of `then` and the text an edit of `first` wrote, or two
 * edits of one round) become one edit; every other edit stays as small as it was. (Fix all applies its
 * fixes in rounds and answers with the few thousand edits they amount to, not with the whole document.)
 */
export function composeEdits(first: readonly TextEdit[], text1: string, then: readonly TextEdit[]): TextEdit[] {
  const a = [...first].sort(byPlace);
  const b = [...then].sort(byPlace);
  // Where each edit of `first` sits in text1, with how much it lengthened the text.
  const placed: { start: number; end: number; growth: number }[] = [];
  let growth = 0;
  for (const edit of a) {
    const start = edit.start + growth;
    const grows = edit.text.length - (edit.end - edit.start);
    placed.push({ start, end: start + edit.text.length, growth: grows });
    growth += grows;
  }
  // Regions of text1 that either touched, merged where they meet: each becomes one edit of text0.
  const spans = [...placed.map((p) => ({ start: p.start, end: p.end })), ...b.map((e) => ({ start: e.start, end: e.end }))].sort(byPlace);
  const regions: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = regions[regions.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else regions.push({ ...span });
  }
  const composed: TextEdit[] = [];
  let before = 0; // edits of `first` wholly before the current region
  let growthBefore = 0;
  let inB = 0;
  for (const region of regions) {
    while (before < placed.length && placed[before].end < region.start) growthBefore += placed[before++].growth;
    let growthThrough = growthBefore;
    for (let k = before; k < placed.length && placed[k].end <= region.end; k++) growthThrough += placed[k].growth;
    const inside: TextEdit[] = [];
    while (inB < b.length && b[inB].end <= region.end) {
      inside.push({ start: b[inB].start - region.start, end: b[inB].end - region.start, text: b[inB].text });
      inB++;
    }
    composed.push({ start: region.start - growthBefore, end: region.end - growthThrough, text: applyEdits(text1.slice(region.start, region.end), inside) });
  }
  return composed;
}

/** Edits, and the text they edit. */
export interface EditRound {
  text: string;
  edits: readonly TextEdit[];
}

/**
 * Edits of the first round's text that make what the rounds make of it, each in turn (see composeEdits).
 * Where a later round wrote back the text an earlier one replaced, no edit is left: an editor would
 * otherwise mark the file changed, and its undo history hold a step, where nothing changed.
 */
export function composeRounds(rounds: readonly EditRound[]): TextEdit[] {
  if (rounds.length === 0) return [];
  const composed = rounds.reduce<TextEdit[]>((edits, round) => composeEdits(edits, round.text, round.edits), []);
  const original = rounds[0].text;
  return composed.filter((edit) => edit.text !== original.slice(edit.start, edit.end));
}

function byPlace(x: { start: number; end: number }, y: { start: number; end: number }): number {
  return x.start - y.start || x.end - y.end;
}
