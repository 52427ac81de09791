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
