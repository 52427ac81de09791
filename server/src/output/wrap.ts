/**
 * Words of `text` in lines of at most `width` columns, the first line starting at column `start`
 * and the others at the same indent (the caller writes the indent); undefined width: one line.
 */
export function wrap(text: string, width: number | undefined, start: number): string[] {
  if (!width || width - start < 20) return [text];
  const room = width - start;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || !lines.length) lines.push(line);
  return lines;
}
