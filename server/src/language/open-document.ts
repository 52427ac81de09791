import { TextDocument, type Position, type Range, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { applyEdits } from '../fixes/edit';
import { lineStartsIn, type TextChange } from '../manifest/text';
import { countLeading } from '../sorted';

/** Past this many pieces an edit joins them: finding where an edit falls walks the pieces. */
const MAX_PIECES = 1_000;
/** Past this many changes, or characters in them, the log restarts: whoever follows it reads the whole text. */
const MAX_LOGGED_CHANGES = 1_000;
const MAX_LOGGED_CHARACTERS = 1_000_000;
/**
 * From this many changes in one update, each before the one before it (an editor applying an edit of many
 * places, such as Fix all's thousands), they are applied to the text at once and its line starts found again:
 * one at a time, each moved the line starts after it (on a 106,000-line file, 4,581 changes took 440 ms).
 * There one pass takes about 2 ms whatever the count, and a change that adds lines about 0.14 ms: even at 16.
 */
const CHANGES_APPLIED_AT_ONCE = 32;

/**
 * An open document whose text is kept in pieces. An edit of a 2 MB file cuts a piece or two instead of
 * building the whole new text (V8 gives every new 2 MB string fresh memory: 3 to 7 ms a keystroke); the
 * pieces are joined when something reads the text. It also logs its changes as offsets, so the analysis
 * can follow them without the text (see `changesSince`).
 *
 * Where a text holds a carriage return, where a line ends depends on the characters around an edit: such a
 * document is kept whole by the protocol library's own document, and logs its changes all the same.
 */
export class OpenDocument implements TextDocument {
  private pieces: string[];
  private length: number;
  /**
   * Where each line starts (texts without a carriage return only), changed in place by an edit: unlike a
   * file's LineIndex, which older versions of the file share, nothing else holds it.
   */
  private lineStarts: Int32Array = new Int32Array(0);
  /** The library's document, for texts with a carriage return. */
  private whole: TextDocument | undefined;
  /** Counts updates: client versions are not trusted to grow. */
  private updates = 0;
  private log: { update: number; change: TextChange }[] = [];
  private loggedCharacters = 0;
  /** The update since which the log holds every change. */
  private logFrom = 0;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    content: string,
  ) {
    this.pieces = [content];
    this.length = content.length;
    this.reset(content);
  }

  get version(): number {
    return this.currentVersion;
  }

  /** Which update the text is at: `changesSince` takes it. */
  get revision(): number {
    return this.updates;
  }

  get lineCount(): number {
    return this.whole ? this.whole.lineCount : this.lineStarts.length;
  }

  getText(range?: Range): string {
    if (this.whole) return this.whole.getText(range);
    if (range) return this.slice(this.offsetAt(range.start), this.offsetAt(range.end));
    if (this.pieces.length !== 1) this.pieces = [this.pieces.join('')];
    return this.pieces[0];
  }

  /** The text of `line` without its end: read from the pieces, which a range of the text does not join. */
  lineText(line: number): string {
    return this.getText(this.getLineRange(line));
  }

  positionAt(offset: number): Position {
    if (this.whole) return this.whole.positionAt(offset);
    const clamped = Math.max(0, Math.min(offset, this.length));
    const line = this.lineOf(clamped);
    return { line, character: clamped - this.lineStarts[line] };
  }

  offsetAt(position: Position): number {
    if (this.whole) return this.whole.offsetAt(position);
    const starts = this.lineStarts;
    if (position.line >= starts.length) return this.length;
    if (position.line < 0) return 0;
    const start = starts[position.line];
    if (position.character <= 0) return start;
    // A character past the end of a line is the line's end, before its newline.
    const next = position.line + 1 < starts.length ? starts[position.line + 1] - 1 : this.length;
    return Math.min(start + position.character, next);
  }

  getLineRange(line: number): Range {
    if (this.whole) return this.whole.getLineRange(line);
    const last = this.lineStarts.length - 1;
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const at = Math.min(line, last);
    const end = at < last ? this.lineStarts[at + 1] - 1 : this.length;
    return { start: { line: at, character: 0 }, end: { line: at, character: end - this.lineStarts[at] } };
  }

  getEOLCharacters(line: number): string {
    if (this.whole) return this.whole.getEOLCharacters(line);
    return line >= 0 && line < this.lineStarts.length - 1 ? '\n' : '';
  }

  /** The changes made since `revision`, as offsets into the text each one applies to; undefined when no longer known. */
  changesSince(revision: number): TextChange[] | undefined {
    if (revision < this.logFrom || revision > this.updates) return undefined;
    return this.log.filter((entry) => entry.update > revision).map((entry) => entry.change);
  }

  /** Nobody will ask for the changes up to `revision` any more. */
  forgetChangesUpTo(revision: number): void {
    const kept = this.log.filter((entry) => entry.update > revision);
    for (let i = 0; i < this.log.length - kept.length; i++) this.loggedCharacters -= this.log[i].change.text.length;
    this.log = kept;
    this.logFrom = Math.max(this.logFrom, Math.min(revision, this.updates));
  }

  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    this.updates++;
    for (let i = 0; i < changes.length; ) {
      const descending = this.descendingRun(changes, i);
      if (descending.length >= CHANGES_APPLIED_AT_ONCE) {
        // Reversed, the run is in the text's order; of two insertions at one place, the later one in the run goes
        // first, as applying them in turn puts it (the sort in applyEdits keeps the order of equal places).
        this.replaceRun([...descending].reverse(), descending, version);
        i += descending.length;
        continue;
      }
      const ascending = this.ascendingRun(changes, i);
      if (ascending.edits.length >= CHANGES_APPLIED_AT_ONCE) {
        this.replaceRun(ascending.edits, ascending.logged, version);
        i += ascending.edits.length;
        continue;
      }
      const count = Math.max(1, descending.length);
      for (const change of changes.slice(i, i + count)) this.applyOne(change, version);
      i += count;
    }
    this.currentVersion = version;
  }

  private applyOne(change: TextDocumentContentChangeEvent, version: number): void {
    if (!('range' in change) || !change.range) {
      this.pieces = [change.text];
      this.length = change.text.length;
      this.reset(change.text);
      return;
    }
    const range = ordered({ start: wholeNumbers(change.range.start), end: wholeNumbers(change.range.end) });
    const logged = { start: this.offsetAt(range.start), end: this.offsetAt(range.end), text: change.text };
    if (!this.whole && change.text.includes('\r')) this.whole = TextDocument.create(this.uri, this.languageId, version, this.getText());
    if (this.whole) {
      // The library's document is given the change at the offsets read here (ordered, whole numbers, within the
      // text): a float or NaN made its offsets NaN, and a line past the end left holes in its line table.
      const whole = this.whole;
      TextDocument.update(whole, [{ range: { start: whole.positionAt(logged.start), end: whole.positionAt(logged.end) }, text: change.text }], version);
    } else this.replace(logged);
    this.record(logged);
  }

  /**
   * The changes from `from` on, as offsets into the text as it is, while each ends at or before the start of the
   * one before it: each then applies to the text it would have been applied to after the others. It stops at a
   * position past its line's end (which a change before it could have lengthened), a whole text, or a carriage return
   * brought into a text without one. A text with carriage returns takes runs too (a Replace All there applied 5,900
   * changes one at a time, each copying the whole text: 6 s): its document is made anew from the text they give.
   */
  private descendingRun(changes: readonly TextDocumentContentChangeEvent[], from: number): TextChange[] {
    const run: TextChange[] = [];
    let before = this.whole ? this.whole.getText().length : this.length;
    for (let i = from; i < changes.length; i++) {
      const change = changes[i];
      if (!('range' in change) || !change.range || (!this.whole && change.text.includes('\r'))) break;
      const range = ordered(change.range);
      const start = this.exactOffset(range.start);
      const end = this.exactOffset(range.end);
      // Where line ends are carriage returns, a change at the very place of the one before it may be read after that
      // one's line ends (a line feed put after a lone \r makes one break of two): it is applied on its own.
      if (start === undefined || end === undefined || end > before || (this.whole && run.length > 0 && end === before)) break;
      run.push({ start, end, text: change.text });
      before = start;
    }
    return run;
  }

  /**
   * The changes from `from` on while each starts at or after the end of the text the one before it put in (a
   * substitution over a whole file, as Neovim sends it, top to bottom), as `edits` of the text as it is and as
   * `logged`, offsets into the text each applies to after the ones before it. Positions after a change are read
   * back into the text as it is: on the line its text ends on, by the characters after that end; below it, by the
   * lines it added. Texts without a carriage return only. One at a time, 20,000 such changes of a 100,000-line file
   * took 2 to 4 s.
   */
  private ascendingRun(changes: readonly TextDocumentContentChangeEvent[], from: number): { edits: TextChange[]; logged: TextChange[] } {
    const edits: TextChange[] = [];
    const logged: TextChange[] = [];
    if (this.whole) return { edits, logged };
    // After the last change: where its text ends (line and character, in the text as changed), and the offset in the
    // text as it is that follows that point, on its line `at`; `shift` is how much longer the changes made the text.
    let after: After | undefined;
    let shift = 0;
    for (let i = from; i < changes.length; i++) {
      const change = changes[i];
      if (!('range' in change) || !change.range || change.text.includes('\r')) break;
      const range = ordered(change.range);
      const start = this.offsetAfter(range.start, after);
      const end = this.offsetAfter(range.end, after);
      if (start === undefined || end === undefined || (after && start < after.offset)) break;
      edits.push({ start, end, text: change.text });
      logged.push({ start: start + shift, end: end + shift, text: change.text });
      shift += change.text.length - (end - start);
      const breaks = lineStartsIn(change.text);
      const lastLine = breaks[breaks.length - 1];
      after = { line: range.start.line + breaks.length - 1, character: (breaks.length > 1 ? 0 : range.start.character) + change.text.length - lastLine, offset: end, at: this.lineOf(end) };
    }
    return { edits, logged };
  }

  /** The offset in the text as it is of a position in the text as changes have changed it up to `after` (see ascendingRun). */
  private offsetAfter(position: Position, after: After | undefined): number | undefined {
    const { line, character } = position;
    if (!Number.isInteger(line) || !Number.isInteger(character)) return undefined;
    if (!after) return this.exactOffset(position);
    if (line < after.line || (line === after.line && character < after.character)) return undefined;
    if (line === after.line) {
      const offset = after.offset + (character - after.character);
      return offset <= this.lineEnd(after.at) ? offset : undefined;
    }
    return this.exactOffset({ line: line - after.line + after.at, character });
  }

  /** The offset of a position on an existing line, at or before its end; undefined for any other. */
  private exactOffset({ line, character }: Position): number | undefined {
    const whole = this.whole;
    if (whole) {
      if (line < 0 || line >= whole.lineCount || character < 0) return undefined;
      return character <= whole.getLineRange(line).end.character ? whole.offsetAt({ line, character }) : undefined;
    }
    const starts = this.lineStarts;
    if (line < 0 || line >= starts.length || character < 0) return undefined;
    return starts[line] + character <= this.lineEnd(line) ? starts[line] + character : undefined;
  }

  /** Where a line of a text without carriage returns ends: at its line feed, or at the end of the text. */
  private lineEnd(line: number): number {
    return line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] - 1 : this.length;
  }

  /** Applies a run of changes in one pass over the text: `edits` of the text as it is, in its order, and the changes as `logged`. */
  private replaceRun(edits: readonly TextChange[], logged: readonly TextChange[], version: number): void {
    const changed = applyEdits(this.getText(), edits);
    if (this.whole) {
      this.whole = TextDocument.create(this.uri, this.languageId, version, changed);
      for (const change of logged) this.record(change);
      return;
    }
    this.pieces = [changed];
    this.length = changed.length;
    this.lineStarts = lineStartsIn(changed);
    for (const change of logged) this.record(change);
  }

  /** A text set whole: the log starts again. */
  private reset(text: string): void {
    this.log = [];
    this.loggedCharacters = 0;
    this.logFrom = this.updates;
    if (text.includes('\r')) {
      this.whole = TextDocument.create(this.uri, this.languageId, this.currentVersion, text);
      this.lineStarts = new Int32Array(0);
      return;
    }
    this.whole = undefined;
    this.lineStarts = lineStartsIn(text);
  }

  private record(change: TextChange): void {
    this.log.push({ update: this.updates, change });
    this.loggedCharacters += change.text.length;
    if (this.log.length > MAX_LOGGED_CHANGES || this.loggedCharacters > MAX_LOGGED_CHARACTERS) {
      this.log = [];
      this.loggedCharacters = 0;
      this.logFrom = this.updates;
    }
  }

  private replace({ start, end, text }: TextChange): void {
    const firstLine = this.lineOf(start);
    const lastLine = this.lineOf(end);
    const added = lineStartsIn(text).subarray(1);
    let starts = this.lineStarts;
    if (added.length !== lastLine - firstLine) {
      const kept = starts;
      starts = this.lineStarts = new Int32Array(kept.length + added.length - (lastLine - firstLine));
      starts.set(kept.subarray(0, firstLine + 1));
      starts.set(kept.subarray(lastLine + 1), firstLine + 1 + added.length);
    }
    for (let i = 0; i < added.length; i++) starts[firstLine + 1 + i] = added[i] + start;
    const shift = text.length - (end - start);
    if (shift !== 0) for (let i = firstLine + 1 + added.length; i < starts.length; i++) starts[i] += shift;

    const pieces: string[] = [];
    let at = 0;
    let inserted = false;
    for (const piece of this.pieces) {
      const pieceEnd = at + piece.length;
      if (at < start) pieces.push(pieceEnd <= start ? piece : piece.slice(0, start - at));
      if (!inserted && pieceEnd >= start) {
        if (text) pieces.push(text);
        inserted = true;
      }
      if (pieceEnd > end) pieces.push(at >= end ? piece : piece.slice(end - at));
      at = pieceEnd;
    }
    if (!inserted && text) pieces.push(text);
    this.pieces = pieces.length > MAX_PIECES ? [pieces.join('')] : pieces;
    this.length += shift;
  }

  /** The text between two offsets (in either order), as `substring` reads it, from the pieces it spans. */
  private slice(from: number, to: number): string {
    const start = Math.max(0, Math.min(from, to, this.length));
    const end = Math.min(Math.max(from, to, 0), this.length);
    if (this.pieces.length === 1) return this.pieces[0].substring(start, end);
    const parts: string[] = [];
    let at = 0;
    for (const piece of this.pieces) {
      const pieceEnd = at + piece.length;
      if (pieceEnd > start && at < end) parts.push(piece.substring(start - at, end - at));
      if (pieceEnd >= end) break;
      at = pieceEnd;
    }
    return parts.join('');
  }

  /** The line holding `offset`. */
  private lineOf(offset: number): number {
    return countLeading(this.lineStarts.length, (i) => this.lineStarts[i] <= offset) - 1;
  }
}

/** Where the last change of an ascending run left the text (see ascendingRun). */
interface After {
  line: number;
  character: number;
  offset: number;
  at: number;
}

/** A position of whole, non-negative numbers: what a client sends that is not one is read as the nearest that is. */
function wholeNumbers({ line, character }: Position): Position {
  const whole = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : n > 0 ? Number.MAX_SAFE_INTEGER : 0);
  return { line: whole(line), character: whole(character) };
}

/** A range whose start comes first, as the library reads a reversed one. */
function ordered(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}

/** The protocol library's document configuration for OpenDocument. */
export const openDocuments = {
  create: (uri: string, languageId: string, version: number, content: string) => new OpenDocument(uri, languageId, version, content),
  update: (document: OpenDocument, changes: TextDocumentContentChangeEvent[], version: number) => {
    document.update(changes, version);
    return document;
  },
};
