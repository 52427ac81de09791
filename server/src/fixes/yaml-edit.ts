import { isMap, isScalar, isSeq, Node, Pair, Scalar, stringify, YAMLMap, YAMLSeq } from 'yaml';
import { yamlText } from './yaml-text';
import { documentAt, type ManifestDocument, type ManifestFile, type Resource } from '../manifest/parse';
import { insideScalar } from '../manifest/inside-scalar';
import { nodeAt, nodeSpan, pairOf, sharedAlong, type Path } from '../manifest/path';
import { lineEndOf, lineStartOf } from '../manifest/text';
import { documentEndBefore } from '../manifest/split';
import { ignoreCommentIds } from '../rules/suppression';
import { plainBlockYaml } from './plain-yaml';
import type { TextEdit } from './edit';
import { styleOf, type YamlStyle } from './style';

/**
 * Text edits on a resource's YAML that keep everything around them: comments, key order,
 * indentation and quoting. Each function returns undefined when it cannot edit safely (the caller
 * then offers no fix rather than a wrong one).
 */

function fileOf(resource: Resource): ManifestFile | undefined {
  return resource.node && resource.file && resource.document ? resource.file : undefined;
}

/**
 * A document's text, read with offsets into its file. An edit reads the lines around a node, which lie in its
 * own document (documents start at a line's start): the file's whole text, joined for it, cost each version of
 * the 106k-line file 2 ms when its first fix was written (a lightbulb after a keystroke).
 */
class DocumentText {
  private readonly text: string;
  private readonly base: number;

  constructor(document: Pick<ManifestDocument, 'offset' | 'text'>) {
    this.text = document.text;
    this.base = document.offset;
  }

  get start(): number {
    return this.base;
  }

  get end(): number {
    return this.base + this.text.length;
  }

  slice(start: number, end: number): string {
    return this.text.slice(start - this.base, end - this.base);
  }

  /** Where `search` first occurs from `from` on in the document, or -1. */
  indexOf(search: string, from: number): number {
    return this.inFile(this.text.indexOf(search, Math.max(0, from - this.base)));
  }

  /** Where `search` last occurs at or before `from` in the document, or -1. */
  lastIndexOf(search: string, from: number): number {
    return from < this.base ? -1 : this.inFile(this.text.lastIndexOf(search, from - this.base));
  }

  lineStart(offset: number): number {
    return this.base + lineStartOf(this.text, offset - this.base);
  }

  /** Where the line holding `offset` ends, before its line break. */
  lineEnd(offset: number): number {
    return this.base + lineEndOf(this.text, offset - this.base);
  }

  /** Where the line after the one holding `offset` starts (the document's end when there is none). */
  nextLineStart(offset: number): number {
    const end = this.indexOf('\n', offset);
    return end === -1 ? this.end : end + 1;
  }

  column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  private inFile(index: number): number {
    return index === -1 ? -1 : this.base + index;
  }
}

/** The text of the resource's document (edits are made only to resources with one: see fileOf). */
function textOf(resource: Resource): DocumentText {
  return new DocumentText(resource.document ?? { offset: 0, text: resource.file?.text ?? '' });
}

/**
 * Options that write YAML in the file's style. YAML 1.1 rules decide quoting because Kubernetes reads
 * manifests that way: `yes`, `on` or `0755` written bare would not be strings there.
 */
/** The yaml package's options that write in a file's style. */
export function writeOptions(style: YamlStyle) {
  return { indent: style.indent, indentSeq: style.indentSeq, singleQuote: style.singleQuote, lineWidth: 0, version: '1.1' as const };
}

/**
 * `value` as block YAML in the file's style. Rendering with the yaml package was most of the cost of a
 * fix: plain values are written directly, and the package's renders are kept by what they render
 * (findings of one rule write the same values again and again; values are plain JSON data).
 */
function written(value: unknown, style: YamlStyle): string {
  const plain = plainBlockYaml(value, style);
  if (plain !== undefined) return plain;
  const key = JSON.stringify([value, style.indent, style.indentSeq, style.singleQuote], exactly);
  let yaml = renders.get(key);
  if (yaml === undefined) {
    if (renders.size >= MAX_RENDERS) renders.clear();
    renders.set(key, (yaml = yamlText(value, writeOptions(style))));
  }
  return yaml;
}

const renders = new Map<string, string>();
const MAX_RENDERS = 2_000;

/** Keeps apart in a render's key what JSON would confuse: "1" and 1, null and NaN, 0 and -0, undefined. */
function exactly(_key: string, value: unknown): unknown {
  if (typeof value === 'number') return `n:${Object.is(value, -0) ? '-0' : String(value)}`;
  if (typeof value === 'string') return `s:${value}`;
  return value === undefined ? 'u:' : value;
}

/** Renders `key: value` as block YAML in the file's style, every line indented by `column`. */
function renderEntry(key: string, value: unknown, column: number, style: YamlStyle): string {
  const yaml = written({ [key]: value }, style);
  const pad = ' '.repeat(column);
  return yaml
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => pad + line)
    .join(style.newline);
}

/** A scalar in the file's style; a string replacing a quoted one keeps that quoting. */
function renderScalar(value: unknown, style: YamlStyle, replacing?: Scalar): string {
  if (typeof value === 'string' && (replacing?.type === Scalar.QUOTE_SINGLE || replacing?.type === Scalar.QUOTE_DOUBLE)) {
    const scalar = new Scalar(value);
    scalar.type = replacing.type;
    return stringify(scalar, { lineWidth: 0 }).replace(/\n$/, '');
  }
  return written(value, style).replace(/\n$/, '');
}

function renderFlowEntry(key: string, value: unknown): string {
  return `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
}

/**
 * A value as JSON over lines, as a pretty-printed JSON file writes it: its lines under one indented by `lead`,
 * each level nested by `unit`.
 */
function laidOut(value: unknown, lead: string, unit: string, newline: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `${newline}${lead}`);
}

/**
 * How an entry at `entry` of a collection opening at `open` is indented (its line's leading whitespace), and the
 * file's nesting step: what the entry's indentation adds to the opening line's, when the entry has a line of its
 * own and that is all it adds; else two spaces (a tab in a file indented by tabs).
 */
function jsonIndentation(text: DocumentText, open: number, entry: number): { lead: string; unit: string } {
  const leading = (offset: number) => /^[ \t]*/.exec(text.slice(text.lineStart(offset), offset))![0];
  const lead = leading(entry);
  const outer = leading(open);
  const ownLine = text.slice(text.lineStart(entry), entry).trim() === '';
  const unit = ownLine && lead.startsWith(outer) && lead.length > outer.length && lead.length - outer.length <= 8 ? lead.slice(outer.length) : lead.includes('\t') ? '\t' : '  ';
  return { lead: ownLine ? lead : ' '.repeat(text.column(entry)), unit };
}

/**
 * New entries of a flow collection written one a line, each on a line of its own after its last entry, which
 * ends at `lastEnd`. A comma or a comment after that entry on its line (`limits: {…},   # lim`) stays with it: the
 * new entries go on the lines below, with a comma after each when the last one has one.
 */
function onLinesAfter(text: DocumentText, lastEnd: number, entries: string[], newline: string): TextEdit[] {
  const lineEnd = text.lineEnd(lastEnd);
  const after = /^[ \t]*(,?)[ \t]*(#.*)?$/.exec(text.slice(lastEnd, lineEnd));
  if (after?.[1]) return [{ start: lineEnd, end: lineEnd, text: entries.map((entry) => `${newline}${entry},`).join('') }];
  const below = entries.map((entry, i) => `${i ? ',' : ''}${newline}${entry}`).join('');
  if (after?.[2]) return [{ start: lastEnd, end: lastEnd, text: ',' }, { start: lineEnd, end: lineEnd, text: below }];
  return [{ start: lastEnd, end: lastEnd, text: `,${below}` }];
}

/** Nests `value` under the remaining keys of a path: (['a','b'], 1) → {a: {b: 1}}. */
export function nest(keys: readonly string[], value: unknown): unknown {
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** Offset just after the last line of a pair (its value included), where a sibling entry can go. */
function afterPair(text: DocumentText, resource: Resource, pair: Pair<Node, Node | null>): number {
  // Trimmed as valueSpan trims: a mapping ending in a comment deeper than its keys spans the next line's indentation,
  // and the line after it was taken for its last (a probe for one container was written into the next).
  const end = pair.value ? valueSpan(resource, pair.value)[1] : nodeSpan(resource, pair.key)[1];
  const lastLineEnd = text.lineEnd(Math.max(nodeSpan(resource, pair.key)[0], end - 1));
  return lastLineEnd;
}

/** Inserts `key: value` into the mapping `map` (a node of `resource`), at its end or its start. */
function insertIntoMap(resource: Resource, map: YAMLMap, key: string, value: unknown, position: 'start' | 'end'): TextEdit[] | undefined {
  const file = fileOf(resource);
  if (!file) return undefined;
  const style = styleOf(file);
  const text = textOf(resource);
  const pairs = map.items as Pair<Node, Node | null>[];
  if (map.flow) {
    const [start, end] = nodeSpan(resource, map);
    const close = text.lastIndexOf('}', end - 1);
    if (close < start) return undefined;
    if (pairs.length === 0) return [{ start: start + 1, end: close, text: renderFlowEntry(key, value) }];
    const last = pairs[pairs.length - 1];
    const lastEnd = nodeSpan(resource, (last.value ?? last.key) as Node)[1];
    const lastKeyStart = nodeSpan(resource, last.key)[0];
    if (text.slice(start, lastKeyStart).includes('\n')) {
      // One entry a line (a JSON file): the new entry gets its own line at the same column, laid out as the file is.
      const { lead, unit } = jsonIndentation(text, start, lastKeyStart);
      return onLinesAfter(text, lastEnd, [`${lead}${JSON.stringify(key)}: ${laidOut(value, lead, unit, style.newline)}`], style.newline);
    }
    return [{ start: lastEnd, end: lastEnd, text: `, ${renderFlowEntry(key, value)}` }];
  }
  if (pairs.length === 0) return undefined;
  // A key written after more than a sequence dash (`? key`, `!!str key`, `&a key`) starts past its entry's column: the
  // first key gives the column, the last the place after it.
  const writtenPlainly = (pair: Pair<Node, Node | null>) => {
    const at = nodeSpan(resource, pair.key)[0];
    return /^[ \t]*(?:-[ \t]+)*$/.test(text.slice(text.lineStart(at), at));
  };
  if (!writtenPlainly(pairs[0]) || !writtenPlainly(pairs[pairs.length - 1])) return undefined;
  const column = text.column(nodeSpan(resource, pairs[0].key)[0]);
  if (position === 'start') {
    const at = nodeSpan(resource, pairs[0].key)[0];
    if (text.slice(text.lineStart(at), at).trim() !== '') {
      // The first key shares its line with a sequence dash (`- name: x`): insert after that pair instead.
      const after = afterPair(text, resource, pairs[0]);
      return [{ start: after, end: after, text: style.newline + renderEntry(key, value, column, style) }];
    }
    // Above a `# kube-resilience-ignore` right above the first key, which holds for the line below it: written between
    // them, the new key took it over and the finding it silenced came back. Other comments stay above the new key.
    const lineStart = leadingDirectivesStart(text, text.lineStart(at));
    if (lineStart < text.lineStart(at)) return [{ start: lineStart, end: lineStart, text: renderEntry(key, value, column, style) + style.newline }];
    return [{ start: at, end: at, text: renderEntry(key, value, 0, style).replace(/\n(?=.)/g, `\n${' '.repeat(column)}`) + style.newline + ' '.repeat(column) }];
  }
  const after = afterPair(text, resource, pairs[pairs.length - 1]);
  return [{ start: after, end: after, text: style.newline + renderEntry(key, value, column, style) }];
}

/** The start of the run of ignore comments right above the line starting at `lineStart` (itself when there are none). */
function leadingDirectivesStart(text: DocumentText, lineStart: number): number {
  let start = lineStart;
  while (start > text.start) {
    const previous = text.lineStart(start - 1);
    if (!ignoreCommentIds(text.slice(previous, start).trimEnd()).length) break;
    start = previous;
  }
  return start;
}

/** Gives an empty (`key:` or `key: {}`) pair a block value. */
function fillEmptyPair(resource: Resource, pair: Pair<Node, Node | null>, value: Record<string, unknown>): TextEdit[] | undefined {
  const file = fileOf(resource);
  if (!file) return undefined;
  const style = styleOf(file);
  const text = textOf(resource);
  const [keyStart, keyEnd] = nodeSpan(resource, pair.key);
  const column = text.column(keyStart);
  const end = pair.value ? nodeSpan(resource, pair.value)[1] : keyEnd;
  const colon = text.indexOf(':', keyEnd);
  if (colon === -1 || colon > Math.max(end, keyEnd + 1)) return undefined;
  const body = Object.entries(value)
    .map(([k, v]) => renderEntry(k, v, column + style.indent, style))
    .join(style.newline);
  const to = Math.max(end, colon + 1);
  const apart = text.slice(to, text.lineEnd(to)).startsWith('#') ? ' ' : '';
  return [{ start: colon + 1, end: to, text: style.newline + body + apart }];
}

/**
 * The block-map pair holding an empty flow map at `mapPath` (`resources: {}`): filling that pair
 * writes block YAML like the rest of the file rather than JSON inside the braces.
 */
function emptyFlowHolder(resource: Resource, mapPath: Path): Pair<Node, Node | null> | undefined {
  const map = nodeAt(resource.node, mapPath);
  const holderKey = mapPath[mapPath.length - 1];
  if (!isMap(map) || !map.flow || map.items.length > 0 || typeof holderKey !== 'string') return undefined;
  const holder = nodeAt(resource.node, mapPath.slice(0, -1));
  return isMap(holder) && !holder.flow ? pairOf(holder, holderKey) : undefined;
}

/**
 * Sets the field at `path` to `value`: replaces an existing scalar in place, or inserts the
 * missing part of the path below the deepest mapping that exists.
 */
export function setField(resource: Resource, path: Path, value: unknown, position: 'start' | 'end' = 'end'): TextEdit[] | undefined {
  const file = fileOf(resource);
  if (!file || path.length === 0 || sharedAlong(resource.node, path)) return undefined;
  const style = styleOf(file);
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1];
  const parent = nodeAt(resource.node, parentPath);
  if (typeof key === 'string' && isMap(parent)) {
    const holder = emptyFlowHolder(resource, parentPath);
    if (holder) return fillEmptyPair(resource, holder, { [key]: value });
    const pair = pairOf(parent, key);
    // Inside a flow mapping (JSON, `{a: 1}`) a value is written as JSON in place: block lines there break the file.
    if (parent.flow) {
      if (!pair) return insertIntoMap(resource, parent, key, value, position);
      if (!pair.value) return undefined;
      const [start, end] = taggedValueSpan(resource, pair);
      const text = textOf(resource);
      const [open] = nodeSpan(resource, parent);
      const [keyStart] = nodeSpan(resource, pair.key);
      // One entry a line (a JSON file): laid out as the file is, as a key inserted there is.
      if (!text.slice(open, keyStart).includes('\n')) return [{ start, end, text: JSON.stringify(value) }];
      const { lead, unit } = jsonIndentation(text, open, keyStart);
      return [{ start, end, text: laidOut(value, lead, unit, style.newline) }];
    }
    if (pair?.value && isScalar(pair.value) && pair.value.value !== null) {
      if (value !== null && typeof value === 'object') return replacePairValue(resource, pair, value);
      const [start, end] = taggedValueSpan(resource, pair);
      return [{ start, end, text: renderScalar(value, style, pair.value) }];
    }
    if (pair?.value && (isMap(pair.value) || isSeq(pair.value)) && (pair.value as YAMLMap | YAMLSeq).items.length > 0) {
      return replacePairValue(resource, pair, value);
    }
    if (pair) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return fillEmptyPair(resource, pair, value as Record<string, unknown>);
      return replacePairValue(resource, pair, value);
    }
    return insertIntoMap(resource, parent, key, value, position);
  }
  // Climb to the deepest existing mapping and insert the rest of the path there, nested.
  for (let depth = parentPath.length - 1; depth >= 0; depth--) {
    const ancestor = nodeAt(resource.node, path.slice(0, depth));
    const childKey = path[depth];
    const rest = path.slice(depth + 1);
    if (typeof childKey !== 'string' || rest.some((step) => typeof step !== 'string')) continue;
    if (!isMap(ancestor)) continue;
    const existing = pairOf(ancestor, childKey);
    if (existing && existing.value && !(isScalar(existing.value) && existing.value.value === null)) return undefined;
    if (existing) {
      const filled = nest(rest as string[], value) as Record<string, unknown>;
      return ancestor.flow ? undefined : fillEmptyPair(resource, existing, filled);
    }
    const holder = emptyFlowHolder(resource, path.slice(0, depth));
    if (holder) return fillEmptyPair(resource, holder, { [childKey]: nest(rest as string[], value) });
    // A section the resource lacks goes after the others: at its start, a PDB's new `spec` went above `apiVersion`.
    return insertIntoMap(resource, ancestor, childKey, nest(rest as string[], value), depth === 0 ? 'end' : position);
  }
  return undefined;
}

/**
 * A value's span without the line breaks a block scalar or collection takes after its last line: replaced with it,
 * what follows (the next key, a comment line, the file's last line break) was joined onto the new value's last line.
 */
function valueSpan(resource: Resource, node: Node): [number, number] {
  const text = textOf(resource);
  const [start, spanEnd] = nodeSpan(resource, node);
  let end = spanEnd;
  while (end > start && /[ \t\r\n]/.test(text.slice(end - 1, end))) end--;
  return [start, end];
}

/**
 * A pair's value with the tag written before it (`!!int "120"`): replaced without it, the tag stayed and made the
 * new value what the old one was (a fix that changed nothing).
 */
function taggedValueSpan(resource: Resource, pair: Pair<Node, Node | null>): [number, number] {
  const value = pair.value!;
  const [start, end] = valueSpan(resource, value);
  if (!isScalar(value) || value.tag === undefined) return [start, end];
  const tag = /\s(![^\s]*[ \t]+)$/.exec(textOf(resource).slice(nodeSpan(resource, pair.key)[1], start));
  return tag ? [start - tag[1].length, end] : [start, end];
}

/** Replaces a pair's whole value (scalar or collection) with `value`, rendered in block style. */
function replacePairValue(resource: Resource, pair: Pair<Node, Node | null>, value: unknown): TextEdit[] | undefined {
  const file = fileOf(resource);
  if (!file) return undefined;
  const style = styleOf(file);
  const text = textOf(resource);
  const [keyStart] = nodeSpan(resource, pair.key);
  const end = pair.value ? valueSpan(resource, pair.value)[1] : nodeSpan(resource, pair.key)[1];
  const keyText = text.slice(keyStart, nodeSpan(resource, pair.key)[1]);
  const column = text.column(keyStart);
  const rendered = renderEntry(String((pair.key as { value?: unknown }).value ?? keyText), value, column, style).slice(column);
  const lineEnd = text.lineEnd(Math.max(keyStart, end - 1));
  const trailing = text.slice(end, lineEnd);
  // A key with no value ends where its comment starts: `#` right after the value would be part of it (`2# one`).
  const apart = trailing.startsWith('#') ? ' ' : '';
  return [{ start: keyStart, end: trailing.trim().startsWith('#') ? end : Math.max(end, keyStart), text: rendered.replace(/\s+$/, '') + apart }];
}

/** The pair at `path` in the resource's mapping, with its parent mapping, when both exist. */
function existingPair(resource: Resource, path: Path): { file: ManifestFile; parent: YAMLMap; pair: Pair<Node, Node | null> } | undefined {
  if (sharedAlong(resource.node, path)) return undefined;
  const file = fileOf(resource);
  const parent = nodeAt(resource.node, path.slice(0, -1));
  const key = path[path.length - 1];
  if (!file || typeof key !== 'string' || !isMap(parent)) return undefined;
  const pair = pairOf(parent, key);
  return pair ? { file, parent, pair } : undefined;
}

/** Replaces the pair at `path` by `newKey: value` in the same place (minAvailable: 3 → maxUnavailable: 1). */
export function replaceField(resource: Resource, path: Path, newKey: string, value: unknown): TextEdit[] | undefined {
  const found = existingPair(resource, path);
  if (!found) return undefined;
  const { file, parent, pair } = found;
  const style = styleOf(file);
  const [start, keyEnd] = nodeSpan(resource, pair.key);
  const end = pair.value ? valueSpan(resource, pair.value)[1] : keyEnd;
  // A comment between the key and its scalar value (`minAvailable: # agreed with the DB team` above `3`) stays: the
  // key and the value are replaced each in its place (it was replaced with them).
  if (pair.value && isScalar(pair.value) && (typeof value !== 'object' || value === null) && textOf(resource).slice(keyEnd, nodeSpan(resource, pair.value)[0]).includes('#')) {
    return [
      { start, end: keyEnd, text: renderScalar(newKey, style) },
      // With its tag (`!!str 100%`): left in place, the tag made the new value a string the API server refuses.
      { start: taggedValueSpan(resource, pair)[0], end, text: parent.flow ? JSON.stringify(value) : renderScalar(value, style, pair.value) },
    ];
  }
  // Rendered at the key's column: a mapping or list below it is indented from there.
  const column = textOf(resource).column(start);
  const text = parent.flow ? renderFlowEntry(newKey, value) : renderEntry(newKey, value, column, style).slice(column).replace(/\s+$/, '');
  return [{ start, end, text }];
}

/**
 * The whole lines of a flow entry that has them to itself (a flow mapping written over lines in YAML), with its
 * comma and the comment after it: removed so, the comments of the entries around it stay where they were (it was
 * removed from the end of the entry before it, with that entry's comment). Undefined otherwise, and in JSON.
 */
function entryLines(text: DocumentText, start: number, end: number, file: ManifestFile): TextEdit | undefined {
  if (/\.json$/i.test(file.uri)) return undefined;
  const lineStart = text.lineStart(start);
  if (text.slice(lineStart, start).trim() !== '') return undefined;
  const after = end + /^[ \t]*,?[ \t]*(?:#[^\r\n]*)?/.exec(text.slice(end, text.lineEnd(end)))![0].length;
  if (text.slice(after, text.lineEnd(after)).trim() !== '') return undefined;
  return { start: lineStart, end: text.nextLineStart(after), text: '' };
}

/** Removes the pair at `path` with its whole lines (and a comment trailing it). */
export function removeField(resource: Resource, path: Path): TextEdit[] | undefined {
  const found = existingPair(resource, path);
  if (!found) return undefined;
  const { parent, pair } = found;
  const text = textOf(resource);
  const [keyStart] = nodeSpan(resource, pair.key);
  const end = pair.value ? valueSpan(resource, pair.value)[1] : nodeSpan(resource, pair.key)[1];
  if (parent.flow) {
    const ownLines = entryLines(text, keyStart, end, found.file);
    if (ownLines) return [ownLines];
    const index = parent.items.indexOf(pair as never);
    if (index > 0) {
      const previous = parent.items[index - 1] as Pair<Node, Node | null>;
      const previousEnd = nodeSpan(resource, (previous.value ?? previous.key) as Node)[1];
      return [{ start: previousEnd, end, text: '' }];
    }
    const next = parent.items[index + 1] as Pair<Node, Node | null> | undefined;
    // The only item: a comma after it (`{ env: "test", }`) would be left alone in the braces.
    const comma = next ? undefined : /^\s*,/.exec(text.slice(end, text.lineEnd(end)));
    return [{ start: keyStart, end: next ? nodeSpan(resource, next.key)[0] : end + (comma?.[0].length ?? 0), text: '' }];
  }
  const lineStart = text.lineStart(keyStart);
  if (text.slice(lineStart, keyStart).trim() !== '') return undefined; // shares its line with a `- `
  const removal = { start: lineStart, end: text.nextLineStart(Math.max(keyStart, end - 1)), text: '' };
  // The last key of a mapping under a key: left with nothing, that key would hold null (`spec:`), not an empty mapping.
  const holder = parent.items.length === 1 && path.length > 1 ? existingPair(resource, path.slice(0, -1)) : undefined;
  if (!holder || holder.parent.flow || holder.pair.value !== parent) return [removal];
  const colon = text.indexOf(':', nodeSpan(resource, holder.pair.key)[1]);
  if (colon < 0 || colon >= lineStart) return undefined;
  // After a tag the mapping carries (`labels: !!map`): before it, `{}` left the tag at the node's end.
  const tag = /^[ \t]+![^\s#]*/.exec(text.slice(colon + 1, text.lineEnd(colon)))?.[0] ?? '';
  return [{ start: colon + 1 + tag.length, end: colon + 1 + tag.length, text: ' {}' }, removal];
}

/** Appends the items to the sequence at `path`, in order, creating the sequence when it is missing. */
export function appendToSequence(resource: Resource, path: Path, ...items: unknown[]): TextEdit[] | undefined {
  const file = fileOf(resource);
  if (!file || sharedAlong(resource.node, path)) return undefined;
  const seq = nodeAt(resource.node, path);
  if (!seq || (isScalar(seq) && seq.value === null)) return setField(resource, path, items);
  if (!isSeq(seq)) return undefined;
  const style = styleOf(file);
  if (seq.items.length === 0) return setField(resource, path, items);
  const last = seq.items[seq.items.length - 1] as Node;
  const text = textOf(resource);
  if (seq.flow) {
    const end = nodeSpan(resource, last)[1];
    const lastStart = nodeSpan(resource, last)[0];
    if (!text.slice(nodeSpan(resource, seq)[0], lastStart).includes('\n')) return [{ start: end, end, text: items.map((item) => `, ${JSON.stringify(item)}`).join('') }];
    // One item a line (a JSON file): each new one on its own line at the same column, laid out as the file is.
    const { lead, unit } = jsonIndentation(text, nodeSpan(resource, seq)[0], lastStart);
    return onLinesAfter(text, end, items.map((item) => `${lead}${laidOut(item, lead, unit, style.newline)}`), style.newline);
  }
  const first = seq.items[0] as Node;
  const itemColumn = text.column(nodeSpan(resource, first)[0]);
  // The file's own dash: `- item` or `-   item` (4-space files), so the new items line up with the old.
  const dashAt = dashBefore(text, nodeSpan(resource, first)[0]);
  const dashColumn = dashAt !== undefined ? text.column(dashAt) : Math.max(0, itemColumn - 2);
  const gap = Math.max(2, itemColumn - dashColumn);
  const rendered = items
    .flatMap((item) =>
      written(item, style)
        .replace(/\n$/, '')
        .split('\n')
        .map((line, i) => ' '.repeat(dashColumn) + (i === 0 ? `-${' '.repeat(gap - 1)}` : ' '.repeat(gap)) + line),
    )
    .join(style.newline);
  const after = text.lineEnd(Math.max(nodeSpan(resource, last)[0], nodeSpan(resource, last)[1] - 1));
  return [{ start: after, end: after, text: style.newline + rendered }];
}

/**
 * The dash of the sequence item starting at `itemStart`: before it on its line, or alone on a line above it (`-`
 * then the item indented below), a comment after it or not (`-   # the control-plane one`, whose own hyphen is
 * no dash). Undefined when there is none to see (an item written in a flow).
 */
function dashBefore(text: DocumentText, itemStart: number): number | undefined {
  for (let end = itemStart; end > text.start; ) {
    const lineStart = text.lineStart(end);
    const before = text.slice(lineStart, end);
    // A comment starts at a `#` at the line's start or after a space (the item's line has none before the item).
    const comment = /(^|[ \t])#/.exec(before);
    const code = comment ? before.slice(0, comment.index + comment[1].length) : before;
    const trimmed = code.trimEnd();
    if (trimmed.endsWith('-') && (trimmed.length === 1 || /[ \t]/.test(trimmed[trimmed.length - 2]))) return lineStart + trimmed.length - 1;
    if (trimmed.trim() !== '') return undefined;
    end = lineStart - 1;
  }
  return undefined;
}

/** Appends a new YAML document after the resource's own document (a generated PDB, say). */
export function appendDocument(resource: Resource, object: unknown): TextEdit[] | undefined {
  const file = fileOf(resource);
  const document = resource.document;
  if (!file || !document || /\.json$/i.test(file.uri)) return undefined;
  const style = styleOf(file);
  // Before a `...` that ends the document: kubectl never reads what follows one before the next `---` line.
  const closing = documentEndBefore(document.text, document.text.length);
  const end = document.offset + (closing ?? document.text.length);
  const lead = closing !== undefined || endsALine(file, document) ? '' : style.newline;
  const body = written(object, style).replace(/\n/g, style.newline);
  return [{ start: end, end, text: `${lead}---${style.newline}${body}` }];
}

/**
 * Inserts a comment line above the line holding `offset`, at that line's indentation; undefined where that line
 * starts inside a value over lines (a quoted string's second line), where the comment would become its text.
 */
export function insertCommentAbove(file: ManifestFile, offset: number, comment: string): TextEdit[] | undefined {
  const text = new DocumentText(documentAt(file, offset) ?? { offset: 0, text: file.text });
  const lineStart = text.lineStart(offset);
  if (insideScalar(file, lineStart)) return undefined;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, text.lineEnd(lineStart)))?.[0] ?? '';
  const column = indent;
  return [{ start: lineStart, end: lineStart, text: `${column}# ${comment}${styleOf(file).newline}` }];
}

/** Whether the text up to the end of `document` is empty or ends with a line break. */
function endsALine(file: ManifestFile, document: ManifestDocument): boolean {
  if (document.text) return document.text.endsWith('\n');
  const before = file.documents[document.index - 1];
  return before ? endsALine(file, before) : true;
}
