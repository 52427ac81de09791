import { commonPrefixLength, commonSuffixLength } from './text';

/** One YAML document's slice of a file. */
export interface Chunk {
  offset: number;
  text: string;
}

const MARKER = /^(---|\.\.\.)(?=[ \t\r\n]|$)/;

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
    if ((c === 0x2d || c === 0x2e) && MARKER.test(text.slice(lineStart, lineStart + 4))) {
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

function isChunkEnd(text: string, offset: number): boolean {
  return offset === text.length || isChunkStart(text, offset);
}

/** Whether a chunk of splitDocuments starts at `offset`: a `---` line, or the line after a `...` line. */
function isChunkStart(text: string, offset: number): boolean {
  if (offset === 0) return true;
  if (text.charCodeAt(offset - 1) !== 0x0a) return false;
  if (MARKER.test(text.slice(offset, offset + 4)) && text.charCodeAt(offset) === 0x2d) return true;
  const lineStart = text.lastIndexOf('\n', offset - 2) + 1;
  return text.charCodeAt(lineStart) === 0x2e && MARKER.test(text.slice(lineStart, lineStart + 4));
}
