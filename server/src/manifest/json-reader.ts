import { Scalar, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import type { BlockRead } from './block-yaml';
import { skipSpaces } from './text';
import { endAt, ESCAPES, exactLength, FlowMap, FlowSeq, MAX_DEPTH, newPair, newScalar, OUTSIDE, place, setEntry, type Node } from './package-nodes';
import { plainValue } from './plain-scalar';

/**
 * Reads a JSON document (what `kubectl get -o json` writes, or JSON.stringify with or without indentation)
 * about ten times faster than the yaml package, building the package's own nodes with the ranges it would
 * give them: a keystroke in a 1.4 MB JSON List took 0.7 s to parse again. Anything else (comments, blank
 * lines inside, tabs, CR line ends, a value on the line after its key, duplicate keys, nesting deeper than
 * MAX_DEPTH, what JSON does not allow) returns undefined, so the caller parses that text with the package.
 */
export function readJson(text: string): BlockRead | undefined {
  const first = text.charCodeAt(0);
  if ((first !== 0x7b && first !== 0x5b) || UNSUPPORTED_CHARACTERS.test(text)) return undefined;
  try {
    return new JsonReader(text).document();
  } catch (e) {
    // A stack that runs out all the same (its caller's deep already) leaves the text to the package and its guard.
    if (e === OUTSIDE || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Tabs and CR line ends (the package's whitespace rules differ there), a byte order mark, and line breaks YAML 1.1 knew. */
const UNSUPPORTED_CHARACTERS = /[\t\r\uFEFF\u0085\u2028\u2029]/;

/** A JSON number, or one of its three words: what a value not in quotes may be. */
const BARE_VALUE = /^(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null)$/;

interface Read {
  node: Node;
  value: unknown;
}

/**
 * Where the package ends a node (the third offset of its range) is where its trailing whitespace ends,
 * except that in a mapping it stops after the first line break: the indentation of the next line is the
 * next item's.
 */
type Place = 'in a mapping' | 'in a sequence';

class JsonReader {
  private at = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  document(): BlockRead {
    const { text } = this;
    const read = this.collection();
    const node = read.node as YAMLMap | YAMLSeq;
    this.spaces();
    // At the top too the node ends after the first line break; any blank lines after it are the document's.
    endAt(node, text.charCodeAt(this.at) === 0x0a ? this.at + 1 : this.at);
    if (/[^ \n]/.test(text.slice(this.at))) throw OUTSIDE;
    return { root: node, value: read.value as Record<string, unknown> | unknown[] };
  }

  /** A mapping or sequence at `at`, read up to its closing bracket. */
  private collection(): Read {
    const { text } = this;
    const start = this.at;
    const isMap = text.charCodeAt(start) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    const items: (Pair | Node)[] = [];
    const value: Record<string, unknown> | unknown[] = isMap ? {} : [];
    // Deeper, the package is left to say that it is too deep (and it reads it no more than we do).
    if (++this.depth > MAX_DEPTH) throw OUTSIDE;
    this.at++;
    this.whitespace();
    if (text.charCodeAt(this.at) !== close) {
      for (;;) {
        if (isMap) {
          const key = this.string();
          this.spaces();
          if (text.charCodeAt(this.at) !== 0x3a) throw OUTSIDE;
          this.at++;
          this.spaces();
          const entry = this.item('in a mapping');
          items.push(newPair(key.node as Scalar, entry.node));
          setEntry(value as Record<string, unknown>, key.value, entry.value);
        } else {
          const item = this.item('in a sequence');
          items.push(item.node);
          (value as unknown[]).push(item.value);
        }
        const c = text.charCodeAt(this.at);
        if (c === close) break;
        if (c !== 0x2c) throw OUTSIDE;
        this.at++;
        this.whitespace();
      }
    }
    this.at++;
    this.depth--;
    const node = isMap ? new FlowMap(exactLength(items) as Pair[]) : new FlowSeq(exactLength(items));
    place(node, start, this.at, this.at);
    return { node, value };
  }

  /** A value and the whitespace after it, which its range takes as `place` says. */
  private item(place: Place): Read {
    const c = this.text.charCodeAt(this.at);
    const read = c === 0x7b || c === 0x5b ? this.collection() : c === 0x22 ? this.string() : this.bare();
    endAt(read.node, this.endAfter(place));
    return read;
  }

  /** A double-quoted string with JSON's escapes. */
  private string(): Read {
    const { text } = this;
    const start = this.at;
    if (text.charCodeAt(start) !== 0x22) throw OUTSIDE;
    let value = '';
    let from = start + 1;
    for (let i = from; ; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        value += text.slice(from, i);
        this.at = i + 1;
        break;
      }
      // The end of the text (NaN) or a control character, which JSON does not allow unescaped.
      if (!(c >= 0x20)) throw OUTSIDE;
      if (c !== 0x5c) continue;
      value += text.slice(from, i) + this.escape(i);
      i += text.charCodeAt(i + 1) === 0x75 ? 5 : 1;
      from = i + 1;
    }
    const node = newScalar(value, Scalar.QUOTE_DOUBLE);
    place(node, start, this.at, this.at);
    return { node, value };
  }

  /** What the escape at `at` (a backslash) stands for. */
  private escape(at: number): string {
    const { text } = this;
    const c = text[at + 1];
    if (c !== 'u') {
      const escaped = ESCAPES[c];
      if (escaped === undefined) throw OUTSIDE;
      return escaped;
    }
    const hex = text.slice(at + 2, at + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw OUTSIDE;
    return String.fromCharCode(parseInt(hex, 16));
  }

  /** A number, true, false or null. */
  private bare(): Read {
    const { text } = this;
    const start = this.at;
    let end = start;
    for (let c = text.charCodeAt(end); c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x45; c = text.charCodeAt(++end));
    const source = text.slice(start, end);
    if (!BARE_VALUE.test(source)) throw OUTSIDE;
    this.at = end;
    const value = plainValue(source);
    const node = newScalar(value, Scalar.PLAIN);
    place(node, start, end, end);
    return { node, value };
  }

  private spaces(): void {
    this.at = skipSpaces(this.text, this.at);
  }

  /** Spaces, and at most one line break with the next line's indentation (a blank line is the package's to place). */
  private whitespace(): void {
    this.spaces();
    if (this.text.charCodeAt(this.at) !== 0x0a) return;
    this.at++;
    this.spaces();
    if (this.text.charCodeAt(this.at) === 0x0a) throw OUTSIDE;
  }

  /** Past the whitespace after a node; where the package ends the node (see Place). */
  private endAfter(place: Place): number {
    this.spaces();
    if (this.text.charCodeAt(this.at) !== 0x0a) return this.at;
    const afterBreak = this.at + 1;
    this.whitespace();
    return place === 'in a mapping' ? afterBreak : this.at;
  }
}
