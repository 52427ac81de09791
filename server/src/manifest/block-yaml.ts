import { Scalar, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { lineEndOf, lineStartOf, skipSpaces } from './text';
import { DOCUMENT_MARKER } from './split';
import { BlockMap, BlockSeq, endAt, ESCAPES, exactLength, FlowMap, FlowSeq, MAX_DEPTH, newPair, newScalar, nodeEndOf, OUTSIDE, place, setEntry, startOf, type Node } from './package-nodes';
import { plainValue } from './plain-scalar';

/** A document read by readBlockYaml: its root collection, as the yaml package would compose it, and its plain value. */
export interface BlockRead {
  root: YAMLMap | YAMLSeq;
  value: Record<string, unknown> | unknown[];
}

interface Read {
  node: Node;
  value: unknown;
}

/**
 * Reads the YAML that manifests are written in (block mappings and sequences, plain and single-quoted
 * scalars over one line or several, double-quoted ones on one line, one-line flow collections, literal
 * and folded block scalars, comments) several times faster than the yaml package, building the
 * package's own nodes with the ranges it would give them. Anything else (anchors, tags, multi-line
 * double-quoted scalars or flow collections, tabs, CR line ends, directives, duplicate keys, errors)
 * returns undefined, so the caller parses that text with the package: what this reads, it reads exactly
 * as the package does.
 */
export function readBlockYaml(text: string): BlockRead | undefined {
  if (UNSUPPORTED_CHARACTERS.test(text)) return undefined;
  try {
    return new BlockReader(text).document();
  } catch (e) {
    // A stack that runs out all the same (its caller's deep already) leaves the text to the package and its guard.
    if (e === OUTSIDE || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** The scalar of a quoted value that starts at `at` and ends at `end`. */
function quotedNode(text: string, at: number, read: { value: string; end: number }): Scalar {
  const node = newScalar(read.value, text.charCodeAt(at) === 0x22 ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE);
  place(node, at, read.end, read.end);
  return node;
}

const UNSUPPORTED_CHARACTERS = /[\t\r\uFEFF]/;

/** The next line holding content after blank and comment lines, and who owns those comments' range. */
interface Region {
  /** Start of the content line, or the text's length at its end. */
  lineStart: number;
  /** Its indentation; -1 at the end of the text. */
  indent: number;
  /** Where its content starts (its next token), or the text's length at its end. */
  contentStart: number;
  /** Indentation of the first comment line before it; -1 when there is none. */
  commentIndent: number;
  /** Whether a node's range already took the comments in. */
  claimed: boolean;
}

class BlockReader {
  private region!: Region;
  private rootIndent = 0;
  /** How many block collections hold the one being read; flow collections inside count on from it. */
  private depth = 0;
  constructor(private readonly text: string) {}

  document(): BlockRead {
    const { text } = this;
    let start = 0;
    if (text.startsWith('---')) {
      const end = lineEndOf(this.text, 0);
      if (!/^---(?: *(?:#.*)?)?$/.test(text.slice(0, end))) throw OUTSIDE;
      start = this.nextLine(end);
    }
    const region = this.scan(start);
    if (region.indent < 0) throw OUTSIDE;
    const at = region.contentStart;
    this.rootIndent = region.indent;
    const read = this.isDash(at) ? this.seq(region.indent, at) : this.map(region.indent, at);
    if (this.region.indent >= 0) throw OUTSIDE;
    return { root: read.node as YAMLMap | YAMLSeq, value: read.value as Record<string, unknown> | unknown[] };
  }

  // ---- lines ----

  private nextLine(lineEnd: number): number {
    return lineEnd < this.text.length ? lineEnd + 1 : lineEnd;
  }

  /** Skips blank and comment lines from `from` (a line start) and sets the region they form. */
  private scan(from: number): Region {
    const { text } = this;
    let lineStart = from;
    let commentIndent = -1;
    while (lineStart < text.length) {
      const at = skipSpaces(text, lineStart);
      const c = text.charCodeAt(at);
      if (at < text.length && c !== 0x0a && c !== 0x23) {
        if (at === lineStart && DOCUMENT_MARKER.test(text.slice(at, at + 4))) throw OUTSIDE;
        this.region = { lineStart, indent: at - lineStart, contentStart: at, commentIndent, claimed: false };
        return this.region;
      }
      if (c === 0x23) {
        // Which nodes take comment lines of different indentation is decided line by line: leave that to the package.
        if (commentIndent >= 0 && commentIndent !== at - lineStart) throw OUTSIDE;
        commentIndent = at - lineStart;
      }
      lineStart = this.nextLine(lineEndOf(this.text, at));
    }
    this.region = { lineStart: text.length, indent: -1, contentStart: text.length, commentIndent, claimed: false };
    return this.region;
  }

  private isDash(at: number): boolean {
    if (this.text.charCodeAt(at) !== 0x2d) return false;
    const next = this.text.charCodeAt(at + 1);
    return next === 0x20 || next === 0x0a || at + 1 >= this.text.length;
  }

  /** After a value that ends at `at` on its line: only spaces and a comment may follow. Returns the line's end. */
  private restOfLine(at: number): number {
    const end = lineEndOf(this.text, at);
    const next = skipSpaces(this.text, at);
    if (next < end && (this.text.charCodeAt(next) !== 0x23 || next === at)) throw OUTSIDE;
    return end;
  }

  // ---- collections ----

  /** A block mapping whose keys sit at column `indent`, the first at `at`. */
  private map(indent: number, at: number): Read {
    this.deeper();
    const value: Record<string, unknown> = {};
    const items: Pair[] = [];
    let nodeEnd = at;
    for (;;) {
      const key = this.key(at);
      const item = this.value(key.end, indent, true);
      items.push(newPair(key.node, item.node));
      setEntry(value, key.value, item.value);
      nodeEnd = nodeEndOf(item.node);
      const next = this.region;
      if (next.indent === indent && !this.isDash(next.contentStart)) {
        at = next.contentStart;
        continue;
      }
      if (next.indent >= indent) throw OUTSIDE;
      break;
    }
    const map = new BlockMap(exactLength(items));
    place(map, startOf(map.items[0].key as Scalar), nodeEnd, this.closing(indent, nodeEnd));
    this.depth--;
    return { node: map, value };
  }

  /** A block sequence whose dashes sit at column `indent`, the first at `at`. */
  private seq(indent: number, at: number): Read {
    this.deeper();
    const items: unknown[] = [];
    const values: unknown[] = [];
    const start = at;
    let nodeEnd = at;
    for (;;) {
      const item = this.value(at + 1, indent, false);
      items.push(item.node);
      values.push(item.value);
      nodeEnd = nodeEndOf(item.node);
      const next = this.region;
      if (next.indent === indent && this.isDash(next.contentStart)) {
        at = next.contentStart;
        continue;
      }
      if (next.indent > indent) throw OUTSIDE;
      break;
    }
    const seq = new BlockSeq(exactLength(items));
    const value = exactLength(values);
    const region = this.region;
    // Comments after a scalar item, or after a sequence in the root mapping, go to the sequence or not by rules of the package's own: leave those to it.
    const lastIsScalar = seq.items[seq.items.length - 1] instanceof Scalar;
    if (!region.claimed && region.commentIndent >= indent && (lastIsScalar || indent === this.rootIndent)) throw OUTSIDE;
    place(seq, start, nodeEnd, this.closing(indent, nodeEnd));
    this.depth--;
    return { node: seq, value };
  }

  /** One collection deeper; past MAX_DEPTH the package is left to say that it is too deep. */
  private deeper(): void {
    if (++this.depth > MAX_DEPTH) throw OUTSIDE;
  }

  /**
   * Where a collection's range ends when the line after it is less indented: comment lines before that
   * line belong to the deepest collection as indented as the first of them, up to the next token.
   */
  private closing(indent: number, valueEnd: number): number {
    const region = this.region;
    // At the end of the text, comments as little indented as the root belong to the document.
    if (region.claimed || region.commentIndent < indent || (region.indent < 0 && indent <= this.rootIndent)) return valueEnd;
    region.claimed = true;
    return region.contentStart;
  }

  // ---- values ----

  /**
   * The value after a mapping's `key:` or a sequence's `-` (`at` is just past it): on the same line, or on
   * the lines below. `indent` is the column of the collection holding it.
   */
  private value(at: number, indent: number, inMap: boolean): Read {
    const { text } = this;
    const start = skipSpaces(this.text, at);
    if (start === at && start < text.length && text.charCodeAt(start) !== 0x0a) throw OUTSIDE;
    const c = text.charCodeAt(start);
    if (start >= text.length || c === 0x0a || c === 0x23) return this.emptyOrBelow(start, indent, inMap);
    if (c === 0x7c || c === 0x3e) return this.blockScalar(start, indent);
    if (!inMap) {
      if (this.isDash(start)) throw OUTSIDE;
      const keyEnd = this.keyEndOnLine(start);
      if (keyEnd !== undefined) return this.map(start - lineStartOf(this.text, start), start);
    }
    let read: { node: Node; value: unknown; end: number };
    if (c === 0x5b || c === 0x7b) read = new FlowReader(text, start, this.depth).collection();
    else if (c === 0x22 || c === 0x27) read = this.quoted(start, indent);
    else read = this.plain(start, indent);
    const lineEnd = this.restOfLine(read.end);
    return this.inline(read.node, read.value, read.end, lineEnd, indent);
  }

  /** A one-line value ends its line; comment lines below it more indented than its collection extend its range. */
  private inline(node: Node, value: unknown, valueEnd: number, lineEnd: number, indent: number): Read {
    const nextStart = this.nextLine(lineEnd);
    const region = this.scan(nextStart);
    if (region.indent > indent) throw OUTSIDE;
    let nodeEnd = nextStart;
    if (region.commentIndent > indent) {
      region.claimed = true;
      nodeEnd = region.lineStart;
    } else if (lineEnd === this.text.length) {
      nodeEnd = lineEnd;
    }
    place(node, startOf(node), valueEnd, nodeEnd);
    return { node, value };
  }

  /** Nothing after `key:` or `-` on its line: a collection on the lines below, or null. */
  private emptyOrBelow(at: number, indent: number, inMap: boolean): Read {
    const lineEnd = lineEndOf(this.text, at);
    const region = this.scan(this.nextLine(lineEnd));
    const below = region.contentStart;
    if (region.indent > indent || (inMap && region.indent === indent && this.isDash(below))) {
      if (this.isDash(below)) return this.seq(region.indent, below);
      if (this.keyEndOnLine(below) === undefined) throw OUTSIDE;
      return this.map(region.indent, below);
    }
    // Which node the comments below an empty value belong to follows rules of its own: leave those to the package.
    if (region.commentIndent >= 0) throw OUTSIDE;
    const node = newScalar(null, Scalar.PLAIN);
    // A comment after the empty value extends its range to the next token.
    place(node, at, at, at < lineEnd ? region.contentStart : at);
    return { node, value: null };
  }

  // ---- scalars ----

  /** A mapping key at `at`, with the offset just past its `:`. */
  private key(at: number): { node: Scalar; value: unknown; end: number } {
    const { text } = this;
    const c = text.charCodeAt(at);
    let node: Scalar;
    let value: unknown;
    let end: number;
    if (c === 0x22 || c === 0x27) {
      ({ node, value, end } = this.quoted(at));
    } else {
      const keyEnd = this.keyEndOnLine(at);
      if (keyEnd === undefined) throw OUTSIDE;
      value = plainValue(text.slice(at, keyEnd));
      node = newScalar(value, Scalar.PLAIN);
      end = keyEnd;
      place(node, at, end, end);
    }
    if (text.charCodeAt(end) !== 0x3a) throw OUTSIDE;
    return { node, value, end: end + 1 };
  }

  /** Where a plain key starting at `at` ends (at its `:`), when the line holds `key:` there. */
  private keyEndOnLine(at: number): number | undefined {
    const { text } = this;
    if (startsOutsidePlain(text, at)) return undefined;
    const lineEnd = lineEndOf(this.text, at);
    for (let i = at + 1; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x3a) {
        const next = text.charCodeAt(i + 1);
        if (i + 1 >= lineEnd || next === 0x20) {
          if (text.charCodeAt(i - 1) === 0x20) throw OUTSIDE;
          return i;
        }
      } else if (c === 0x23 && text.charCodeAt(i - 1) === 0x20) {
        return undefined;
      }
    }
    return undefined;
  }

  /** A plain scalar at `at`, continued on the lines below that are more indented than its collection (at column `indent`). */
  private plain(at: number, indent: number): { node: Scalar; value: unknown; end: number } {
    const { text } = this;
    if (startsOutsidePlain(text, at)) throw OUTSIDE;
    const lineEnd = lineEndOf(this.text, at);
    let end = lineEnd;
    let commented = false;
    for (let i = at + 1; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x23 && text.charCodeAt(i - 1) === 0x20) {
        end = i;
        commented = true;
        break;
      }
      if (c === 0x3a && (i + 1 === lineEnd || text.charCodeAt(i + 1) === 0x20)) throw OUTSIDE;
    }
    end = trimSpacesBefore(text, end);
    const lines = [text.slice(at, end)];
    if (!commented) end = this.continuation(lines, end, lineEnd, indent);
    const value = plainValue(fold(lines));
    const node = newScalar(value, Scalar.PLAIN);
    place(node, at, end, end);
    return { node, value, end };
  }

  /**
   * Adds to `lines` (empty ones included) the lines that continue a plain scalar, more indented than its
   * collection, and returns where the last ends. A line that holds a comment or a key is left to the package.
   */
  private continuation(lines: string[], end: number, lineEnd: number, indent: number): number {
    const { text } = this;
    for (;;) {
      let next = lineEnd + 1;
      let breaks = 0;
      let content = -1;
      while (next < text.length) {
        const start = skipSpaces(this.text, next);
        const nextEnd = lineEndOf(text, start);
        if (start < nextEnd) {
          content = start;
          break;
        }
        breaks++;
        next = nextEnd + 1;
      }
      // A comment line ends the scalar; content more indented after it is the package's to report.
      if (content < 0 || content - next <= indent || text.charCodeAt(content) === 0x23) return end;
      const contentEnd = lineEndOf(text, content);
      const last = trimSpacesBefore(text, contentEnd);
      const line = text.slice(content, last);
      if (CONTINUATION_OUTSIDE.test(line)) throw OUTSIDE;
      for (let i = 0; i < breaks; i++) lines.push('');
      lines.push(line);
      end = last;
      lineEnd = contentEnd;
    }
  }

  /** A quoted scalar; a single-quoted value (`indent` given: its collection's column) may go on over more indented lines. */
  private quoted(at: number, indent?: number): { node: Scalar; value: string; end: number } {
    const read = quotedScalar(this.text, at, indent);
    return { node: quotedNode(this.text, at, read), value: read.value, end: read.end };
  }

  /** A `|` or `>` scalar whose header is at `at`, in a collection at column `indent`. */
  private blockScalar(at: number, indent: number): Read {
    const { text } = this;
    const folded = text.charCodeAt(at) === 0x3e;
    let headerEnd = at + 1;
    const chomp = text.charCodeAt(headerEnd);
    const strip = chomp === 0x2d;
    if (strip) headerEnd++;
    else if (chomp === 0x2b || (chomp >= 0x30 && chomp <= 0x39)) throw OUTSIDE;
    const headerLineEnd = this.restOfLine(headerEnd);
    if (headerLineEnd >= text.length) throw OUTSIDE;
    const lines: string[] = [];
    let contentIndent = -1;
    let lineStart = headerLineEnd + 1;
    let end = lineStart;
    let blankRun = 0;
    while (lineStart < text.length) {
      const lineEnd = lineEndOf(this.text, lineStart);
      const spaces = skipSpaces(this.text, lineStart) - lineStart;
      if (lineStart + spaces === lineEnd) {
        if (contentIndent < 0 ? spaces > 0 : spaces > contentIndent) throw OUTSIDE;
        lines.push('');
        blankRun++;
        lineStart = this.nextLine(lineEnd);
        continue;
      }
      if (contentIndent < 0) {
        if (spaces <= indent) break;
        contentIndent = spaces;
      } else if (spaces < contentIndent) {
        break;
      }
      if (lineEnd >= text.length) throw OUTSIDE;
      if (folded && spaces > contentIndent) throw OUTSIDE;
      lines.push(text.slice(lineStart + contentIndent, lineEnd));
      blankRun = 0;
      lineStart = lineEnd + 1;
      end = lineStart;
    }
    if (contentIndent < 0 || (folded && lines[0] === '')) throw OUTSIDE;
    lines.length -= blankRun;
    const body = folded ? fold(lines) : lines.join('\n');
    const value = strip ? body : `${body}\n`;
    const node = newScalar(value, folded ? Scalar.BLOCK_FOLDED : Scalar.BLOCK_LITERAL);
    place(node, at, end, end);
    const region = this.scan(end);
    if (region.indent > indent || region.commentIndent > indent) throw OUTSIDE;
    return { node, value };
  }
}

/**
 * Lines of a scalar folded into one (the first not empty, none more indented): a single line break becomes
 * a space, and each empty line between two lines a line break.
 */
function fold(lines: readonly string[]): string {
  let out = lines[0];
  let breaks = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '') {
      breaks++;
      continue;
    }
    out += breaks > 0 ? '\n'.repeat(breaks) : ' ';
    out += lines[i];
    breaks = 0;
  }
  return out;
}

/** Before the spaces that end at `end`. */
function trimSpacesBefore(text: string, end: number): number {
  while (text.charCodeAt(end - 1) === 0x20) end--;
  return end;
}

/** Whether a plain scalar cannot start at `at` (an indicator starts something else there). */
function startsOutsidePlain(text: string, at: number): boolean {
  const c = text[at];
  if ('-?:'.includes(c)) {
    const next = text.charCodeAt(at + 1);
    return next === 0x20 || next === 0x0a || Number.isNaN(next) || c !== '-';
  }
  return c === undefined || ',[]{}#&*!|>\'"%@`'.includes(c);
}

/** A quoted scalar at `at` (single-quoted ones over several lines when `indent` is given): its value and the offset past its closing quote. */
function quotedScalar(text: string, at: number, indent?: number): { value: string; end: number } {
  return text.charCodeAt(at) === 0x27 ? singleQuoted(text, at, indent) : doubleQuoted(text, at);
}

/**
 * A single-quoted scalar: on one line, or, when `indent` (its collection's column) is given, over more
 * indented lines, folded: a line break becomes a space, each empty line a line break.
 */
function singleQuoted(text: string, at: number, indent?: number): { value: string; end: number } {
  let close = at;
  for (;;) {
    close = text.indexOf("'", close + 1);
    if (close === -1) throw OUTSIDE;
    if (text.charCodeAt(close + 1) !== 0x27) break;
    close++;
  }
  const lines = text.slice(at + 1, close).split('\n');
  if (lines.length === 1) return { value: lines[0].replaceAll("''", "'"), end: close + 1 };
  if (indent === undefined) throw OUTSIDE;
  for (const line of lines.slice(1)) if (line.trim() !== '' && line.length - line.trimStart().length <= indent) throw OUTSIDE;
  const trimmed = lines.map((line, i) => (i === 0 ? line.trimEnd() : i === lines.length - 1 ? line.trimStart() : line.trim()));
  if (trimmed[0] === '' || trimmed[trimmed.length - 1] === '') throw OUTSIDE;
  return { value: fold(trimmed).replaceAll("''", "'"), end: close + 1 };
}

/** A double-quoted scalar on one line. */
function doubleQuoted(text: string, at: number): { value: string; end: number } {
  const lineEnd = lineEndOf(text, at);
  let value = '';
  let from = at + 1;
  for (let i = from; i < lineEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return { value: value + text.slice(from, i), end: i + 1 };
    if (c !== 0x5c) continue;
    value += text.slice(from, i);
    const escaped = ESCAPES[text[i + 1]];
    if (escaped === undefined) throw OUTSIDE;
    value += escaped;
    i++;
    from = i + 1;
  }
  throw OUTSIDE;
}

/** Flow collections on one line: `[a, b]`, `{k: v}`, nested. */
class FlowReader {
  constructor(
    private readonly text: string,
    private at: number,
    /** How many collections hold the one being read. */
    private depth: number,
  ) {}

  collection(): { node: Node; value: unknown; end: number } {
    const { text } = this;
    const start = this.at;
    if (++this.depth > MAX_DEPTH) throw OUTSIDE;
    const isMap = text.charCodeAt(start) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    const items: unknown[] = [];
    const value: Record<string, unknown> | unknown[] = isMap ? {} : [];
    this.at = start + 1;
    this.spaces();
    if (text.charCodeAt(this.at) === close) {
      this.at++;
    } else {
      for (;;) {
        const item = this.item(!isMap);
        if (isMap) {
          this.spaces();
          if (text.charCodeAt(this.at) !== 0x3a) throw OUTSIDE;
          this.at++;
          if (text.charCodeAt(this.at) !== 0x20) throw OUTSIDE;
          this.spaces();
          const entry = this.item(true);
          items.push(newPair(item.node as Scalar, entry.node));
          setEntry(value as Record<string, unknown>, item.value, entry.value);
        } else {
          items.push(item.node);
          (value as unknown[]).push(item.value);
        }
        this.spaces();
        const c = text.charCodeAt(this.at);
        this.at++;
        if (c === close) break;
        if (c !== 0x2c) throw OUTSIDE;
        this.spaces();
        if (text.charCodeAt(this.at) === close) throw OUTSIDE;
      }
    }
    this.depth--;
    const node = isMap ? new FlowMap(exactLength(items) as Pair[]) : new FlowSeq(exactLength(items));
    place(node, start, this.at, this.at);
    return { node, value, end: this.at };
  }

  private spaces(): void {
    this.at = skipSpaces(this.text, this.at);
  }

  private item(isValue: boolean): { node: Node; value: unknown } {
    const { text } = this;
    const c = text.charCodeAt(this.at);
    if (c === 0x5b || c === 0x7b) {
      if (!isValue) throw OUTSIDE;
      return this.spacedAfter(this.collection());
    }
    if (c === 0x22 || c === 0x27) {
      const read = quotedScalar(text, this.at);
      const node = quotedNode(text, this.at, read);
      this.at = read.end;
      return this.spacedAfter({ node, value: read.value });
    }
    if (startsOutsidePlain(text, this.at) || (text.charCodeAt(this.at) === 0x2d && FLOW_INDICATORS.includes(text[this.at + 1]))) throw OUTSIDE;
    const start = this.at;
    let end = start;
    for (;;) {
      const ch = text.charCodeAt(end);
      if (Number.isNaN(ch) || ch === 0x0a) throw OUTSIDE;
      if (ch === 0x5b || ch === 0x7b) throw OUTSIDE;
      if (ch === 0x2c || ch === 0x5d || ch === 0x7d) break;
      if (ch === 0x3a) {
        const next = text.charCodeAt(end + 1);
        if (next === 0x20 || next === 0x2c || next === 0x5d || next === 0x7d) break;
      }
      if (ch === 0x23 && text.charCodeAt(end - 1) === 0x20) throw OUTSIDE;
      end++;
    }
    const valueEnd = trimSpacesBefore(text, end);
    const value = plainValue(text.slice(start, valueEnd));
    const node = newScalar(value, Scalar.PLAIN);
    place(node, start, valueEnd, valueEnd);
    this.at = valueEnd;
    return this.spacedAfter({ node, value });
  }

  /** An item's range ends after the spaces that follow it. */
  private spacedAfter<T extends { node: Node }>(read: T): T {
    this.spaces();
    endAt(read.node, this.at);
    return read;
  }
}

const FLOW_INDICATORS = ',[]{}';
/** A continuation line that holds a comment or a key. */
const CONTINUATION_OUTSIDE = /: | #|:$/;
