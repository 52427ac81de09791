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
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: clamped - this.starts[lo] };
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

export function containsPosition(range: Range, position: Position): boolean {
  const afterStart = position.line > range.start.line || (position.line === range.start.line && position.character >= range.start.character);
  const beforeEnd = position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return afterStart && beforeEnd;
}
