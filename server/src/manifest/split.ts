import { countLeading } from '../sorted';
import { commonPrefixLength, commonSuffixLength, type TextChange } from './text';

/** One YAML document's slice of a file. */
export interface Chunk {
  offset: number;
  text: string;
}

/** A document marker at a line's start: `---` or `...`, alone or followed by a space. */
export const DOCUMENT_MARKER = /^(---|\.\.\.)(?=[ \t\r\n]|$)/;

/**
 * Splits a multi-document YAML text at its `---` / `...` markers, so each document can be parsed
 * (and cached) on its own. A marker is only ever a marker at column 0, even inside a block scalar,
 * so a line scan is exact. The `---` line stays with the document it opens.
 */
export function splitDocuments(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    const c = text.charCodeAt(lineStart);
    if ((c === 0x2d || c === 0x2e) && DOCUMENT_MARKER.test(text.slice(lineStart, lineStart + 4))) {
      // `---` opens the next document on its own line; `...` closes the current one.
      const cut = c === 0x2d ? lineStart : lineEnd;
      if (cut > start) chunks.push({ offset: start, text: text.slice(start, cut) });
      start = cut;
    }
    if (newline === -1) break;
    lineStart = lineEnd;
  }
  if (start < text.length || chunks.length === 0) chunks.push({ offset: start, text: text.slice(start) });
  return chunks;
}

/** A version of a text split into chunks, and how many chunks at its start and at its end are those of the version before. */
export interface SplitAfterEdit {
  chunks: Chunk[];
  head: number;
  tail: number;
}

/**
 * splitDocuments of `text`, a new version of `beforeText` whose chunks were `before`: the chunks both share at
 * the start and at the end are found by comparing each in place, and only the text between them is split,
 * so a keystroke in a 100,000-line file does not scan every line. Chunks are cut at lines alone, so the
 * result is what splitDocuments gives.
 */
export function splitDocumentsAfterEdit(before: readonly Chunk[], beforeText: string, text: string): SplitAfterEdit {
  // An empty text is one empty chunk, which would match at any place.
  if (beforeText.length === 0 || text.length === 0) return { chunks: splitDocuments(text), head: 0, tail: 0 };
  const same = commonPrefixLength(beforeText, text);
  let head = 0;
  let headEnd = 0;
  while (head < before.length && headEnd + before[head].text.length <= same && isChunkEnd(text, headEnd + before[head].text.length)) {
    headEnd += before[head].text.length;
    head++;
  }
  const shift = text.length - beforeText.length;
  const sameAtEnd = commonSuffixLength(beforeText, text, Math.min(beforeText.length, text.length) - headEnd);
  let tail = 0;
  let tailStart = text.length;
  while (tail < before.length - head) {
    const offset = tailStart - before[before.length - 1 - tail].text.length;
    if (offset < headEnd || text.length - offset > sameAtEnd || !isChunkStart(text, offset)) break;
    tailStart = offset;
    tail++;
  }
  const middle = headEnd < tailStart ? splitDocuments(text.slice(headEnd, tailStart)).map((c) => ({ offset: c.offset + headEnd, text: c.text })) : [];
  const kept = (c: Chunk, offset: number) => ({ offset, text: c.text });
  return {
    chunks: [...before.slice(0, head).map((c) => kept(c, c.offset)), ...middle, ...before.slice(before.length - tail).map((c) => kept(c, c.offset + shift))],
    head,
    tail,
  };
}

/**
 * splitDocuments of the text `change` makes of the chunks `before`, from the chunks alone: only the chunks
 * the change touches and one on each side are split again (a chunk starts at a line of its own or after a
 * `...` line, so the chunks beyond those keep their place). Undefined when the change leaves nothing there,
 * which the whole text must decide.
 */
export function splitAfterChange(before: readonly Chunk[], change: TextChange): SplitAfterEdit | undefined {
  const first = Math.max(0, chunkAt(before, change.start) - 1);
  const last = Math.min(before.length - 1, chunkAt(before, change.end) + 1);
  const start = before[first].offset;
  const end = before[last].offset + before[last].text.length;
  const text = sliceOfChunks(before, start, change.start) + change.text + sliceOfChunks(before, change.end, end);
  if (text.length === 0 && (first > 0 || last < before.length - 1)) return undefined;
  const shift = change.text.length - (change.end - change.start);
  return {
    // Chunks of its own, as splitDocumentsAfterEdit gives: `before` may be the previous file's documents,
    // and a file made of them would keep every earlier version of itself reachable.
    chunks: before.slice(0, first).map((c) => ({ offset: c.offset, text: c.text })).concat(
      splitDocuments(text).map((c) => ({ offset: c.offset + start, text: c.text })),
      before.slice(last + 1).map((c) => ({ offset: c.offset + shift, text: c.text })),
    ),
    head: first,
    tail: before.length - 1 - last,
  };
}

/** The one change of the chunks' text that `changes`, made one after another, make together. */
export function combinedChange(before: readonly Chunk[], changes: readonly TextChange[]): TextChange {
  let combined = changes[0];
  for (const next of changes.slice(1)) {
    const combinedEnd = combined.start + combined.text.length;
    const start = Math.min(combined.start, next.start);
    const end = combined.end + Math.max(0, next.end - combinedEnd);
    const current = sliceOfChunks(before, start, combined.start) + combined.text + sliceOfChunks(before, combined.end, end);
    combined = { start, end, text: current.slice(0, next.start - start) + next.text + current.slice(next.end - start) };
  }
  return combined;
}

/** The chunk holding `offset` (the last one for the text's end). */
function chunkAt(chunks: readonly Chunk[], offset: number): number {
  return Math.max(0, countLeading(chunks.length, (i) => chunks[i].offset <= offset) - 1);
}

/** The text [start, end) of the chunks of one text. */
export function sliceOfChunks(chunks: readonly Chunk[], start: number, end: number): string {
  let text = '';
  for (let i = chunkAt(chunks, start); i < chunks.length && chunks[i].offset < end; i++) {
    const { offset, text: own } = chunks[i];
    text += own.slice(Math.max(0, start - offset), Math.min(own.length, end - offset));
  }
  return text;
}

function isChunkEnd(text: string, offset: number): boolean {
  return offset === text.length || isChunkStart(text, offset);
}

/**
 * Whether the chunk at `index` of splitDocuments follows a `...` line with no `---` line between: kubectl never reads
 * it. It splits a file at `---` lines only and reads the first document of each piece, which ends at the `...`.
 */
export function followsDocumentEnd(chunks: readonly Chunk[], index: number): boolean {
  return index > 0 && !opensDocument(chunks[index].text, 0);
}

/** Whether a `---` line starts at `offset`. */
function opensDocument(text: string, offset: number): boolean {
  return text.charCodeAt(offset) === 0x2d && DOCUMENT_MARKER.test(text.slice(offset, offset + 4));
}

/** Whether a chunk of splitDocuments starts at `offset`: a `---` line, or the line after a `...` line. */
function isChunkStart(text: string, offset: number): boolean {
  if (offset === 0) return true;
  if (text.charCodeAt(offset - 1) !== 0x0a) return false;
  return opensDocument(text, offset) || documentEndBefore(text, offset) !== undefined;
}

/** Where the line that ends before `offset` starts, when it is a `...` line (which ends the document it closes). */
export function documentEndBefore(text: string, offset: number): number | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 2) + 1;
  return text.charCodeAt(lineStart) === 0x2e && DOCUMENT_MARKER.test(text.slice(lineStart, lineStart + 4)) ? lineStart : undefined;
}
