import type { ManifestFile } from '../manifest/parse';

export interface YamlStyle {
  /** Spaces a nested mapping is indented by. */
  indent: number;
  /** Whether block sequences are indented under their key (`key:\n  - a`) or not (`key:\n- a`). */
  indentSeq: boolean;
  singleQuote: boolean;
  newline: string;
}

const styles = new WeakMap<ManifestFile, YamlStyle>();

/**
 * How much of a file's start tells its style (1,000 to 2,000 lines), read from its documents: each version
 * of a file edited a keystroke ago reads it again, and on the 106k-line file joining its text and reading it
 * all cost 6 ms of the first quick fix written (a lightbulb's), this 0.7 ms.
 */
const LEADING_CHARACTERS = 50_000;

/** The file's own way of writing YAML (as its start writes it), so that what a fix writes looks like what is already there. */
export function styleOf(file: ManifestFile): YamlStyle {
  let style = styles.get(file);
  if (!style) {
    style = detect(leadingText(file));
    styles.set(file, style);
  }
  return style;
}

function leadingText(file: ManifestFile): string {
  const texts: string[] = [];
  let length = 0;
  for (const document of file.documents) {
    if (length >= LEADING_CHARACTERS) break;
    texts.push(document.text.slice(0, LEADING_CHARACTERS - length));
    length += texts[texts.length - 1].length;
  }
  return texts.join('');
}

function detect(text: string): YamlStyle {
  const indents = new Map<number, number>();
  let seqIndented = 0;
  let seqIndentless = 0;
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const previous = lines[i - 1];
    const line = lines[i];
    const prevIndent = previous.search(/\S/);
    const indent = line.search(/\S/);
    if (prevIndent < 0 || indent < 0 || !/:\s*$/.test(previous) || previous.trimStart().startsWith('#')) continue;
    const isSeq = line.trimStart().startsWith('- ');
    const prevKeyColumn = previous.trimStart().startsWith('- ') ? prevIndent + 2 : prevIndent;
    if (isSeq) {
      if (indent === prevKeyColumn) seqIndentless++;
      else if (indent > prevKeyColumn) seqIndented++;
    } else if (indent > prevKeyColumn) {
      const step = indent - prevKeyColumn;
      indents.set(step, (indents.get(step) ?? 0) + 1);
    }
  }
  const indent = [...indents.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 2;
  // The ends most lines have: one CRLF line (a header written on Windows) made every inserted line CRLF.
  const ended = lines.length - 1;
  const crlf = lines.slice(0, ended).filter((line) => line.endsWith('\r')).length;
  const single = (text.match(/: '/g) ?? []).length;
  const double = (text.match(/: "/g) ?? []).length;
  return {
    indent: indent >= 1 && indent <= 8 ? indent : 2,
    indentSeq: seqIndented >= seqIndentless,
    singleQuote: single > double,
    newline: crlf > ended - crlf ? '\r\n' : '\n',
  };
}
