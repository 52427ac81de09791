import { Document, isMap, isSeq, parseDocument, visit, YAMLMap, type Node, type YAMLError } from 'yaml';
import { resolveAsKubernetes, withMergesAsKubernetes, type Refused } from './kubernetes-yaml';
import { LineIndex, skipSpaces, type PiecedText, type TextChange } from './text';
import { firstDuplicateKey, type DuplicateKey } from './duplicate-keys';
import { readBlockYaml } from './block-yaml';
import { readJson } from './json-reader';
import { MAX_DEPTH } from './package-nodes';
import { flattened } from '../flattened';
import { isClusterSnapshot } from './cluster-snapshot';
import { combinedChange, type Chunk, followsDocumentEnd, sliceOfChunks, splitAfterChange, splitDocuments, splitDocumentsAfterEdit, type SplitAfterEdit } from './split';
import { countLeading } from '../sorted';
import { runSteps, type Steps } from '../steps';
import { isObject } from '../is-object';
import { factOf } from './facts';

/** What parsing one document's text gave; cached by that text, so independent of where it sits in a file. */
export interface ParsedChunk {
  /** The document's root node (absent when it does not parse, null when it holds nothing). */
  root?: Node | null;
  /** Plain JS value of the document (aliases resolved, bounded). */
  value?: unknown;
  error?: { message: string; offset: number; length: number };
  /** Offset of a template expression (`{{ … }}`) that makes this text a template, not YAML. */
  templateAt?: number;
}

export interface ManifestDocument {
  index: number;
  /** Where the document starts in its file; node ranges of the parse are relative to it. */
  offset: number;
  text: string;
  parsed: ParsedChunk;
  resources: Resource[];
}

export interface Resource {
  apiVersion: string;
  kind: string;
  name: string | null;
  /** The resource's namespace, `default` where a namespaced resource names none, '' for cluster-scoped kinds. */
  namespace: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
  /** The resource's mapping in its document (absent for resources read from a cluster). */
  node?: YAMLMap;
  document?: ManifestDocument;
  file?: ManifestFile;
}

export interface ManifestFile {
  uri: string;
  text: string;
  lines: LineIndex;
  documents: ManifestDocument[];
  resources: Resource[];
  /** Set when the file is a template (Helm …) rather than YAML: it is not analysed further. */
  templateAt?: number;
  /** Whether the file looks like Kubernetes at all (has apiVersion and kind keys). */
  looksLikeKubernetes: boolean;
  /** Set when the file is a snapshot of live objects (a List with uids): it is cluster data, not manifests. */
  clusterSnapshot?: boolean;
  /** Where its resources that name no namespace go, when not `default`: a Helm release's namespace. */
  defaultNamespace?: string;
}

const CLUSTER_SCOPED = new Set([
  'Node', 'Namespace', 'PersistentVolume', 'StorageClass', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition',
  'PriorityClass', 'RuntimeClass', 'IngressClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration',
  'APIService', 'CSIDriver', 'CSINode', 'VolumeAttachment', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  'Cluster', 'ClusterConfiguration', 'InitConfiguration', 'JoinConfiguration', 'KubeletConfiguration', 'KubeProxyConfiguration',
]);

/**
 * Parses of recent texts, for callers that parse the same text again (a fix tried, then applied). Bounded
 * by the size of the texts it holds, not their number: a parse takes tens of times its text in memory.
 * A file parsed again after an edit reuses its own previous parses instead (see parseManifest).
 */
const MAX_CACHED_TEXT = 1 << 20;
const cache = new Map<string, ParsedChunk>();
let cachedText = 0;

/** Forgets every cached parse (benchmarks measure cold parses with it). */
export function clearParseCache(): void {
  cache.clear();
  cachedText = 0;
}

/** How many characters of text the cache holds parses of (its bound is MAX_CACHED_TEXT). */
export function parseCacheSize(): number {
  return cachedText;
}

/** Parses one document's text, reusing the result of an earlier parse of the same text. */
export function parseChunk(text: string): ParsedChunk {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const parsed = parseUncached(text);
  if (text.length <= MAX_CACHED_TEXT / 4) {
    cache.set(text, parsed);
    cachedText += text.length;
    for (const oldest of cache.keys()) {
      if (cachedText <= MAX_CACHED_TEXT) break;
      cache.delete(oldest);
      cachedText -= oldest.length;
    }
  }
  return parsed;
}

/** Parses one document's text as parseChunk does, without its cache: the JSON or block reader, or the package for what they leave. */
export function parseUncached(text: string): ParsedChunk {
  // `%YAML 1.2` (or `%TAG`) before a `---`: the directives of the document after it, split off from it with the
  // lines before its marker. They hold no content (the package said "Missing directives-end indicator line").
  if (DIRECTIVES_ONLY.test(text)) return { root: null, value: null };
  const separator = SEPARATOR_WITH_CONTENT.exec(text);
  if (separator) {
    const message = 'kubectl refuses the file: its `---` line holds more than a comment ("invalid Yaml document separator"): put what follows `---` on the line below';
    return { error: { message, offset: separator[0].length - separator[1].length, length: separator[1].length } };
  }
  // Past the size the package reads in one piece, the package says so (see MAX_PACKAGE_DOCUMENT).
  const json = text.length <= MAX_PACKAGE_DOCUMENT ? readJson(text) : undefined;
  if (json) return { root: json.root, value: json.value };
  // kubectl reads a text that opens with `{` with a JSON decoder, which takes DEL and C1 controls in strings: only YAML
  // is held to go-yaml's characters.
  const control = JSON_OPENING.test(text) ? null : CONTROL_CHARACTER.exec(text);
  if (control) return { error: controlCharacterError(text, control.index) };
  const parsed = readYaml(text);
  const foreign = parsed.error ? null : FOREIGN_LINE_BREAK.exec(text);
  if (foreign && readOtherwiseByKubectl(text, parsed)) return { error: foreignLineBreakError(text, foreign.index) };
  return parsed;
}

function readYaml(text: string): ParsedChunk {
  const read = readBlockYaml(text);
  return read ? { root: read.root, value: read.value } : parseWithPackage(text);
}

/**
 * Line breaks to go-yaml, which kubectl reads YAML with, that are none to this tool's readers: a carriage return
 * alone, NEL, U+2028 and U+2029. One in a comment hid the key after it (`# the web tier\rnamespace: shop`): the
 * Deployment was read in `default`, and `--fix` wrote its PDB there.
 */
const FOREIGN_LINE_BREAK = /\r(?!\n)|[\u0085\u2028\u2029]/;

/**
 * Whether kubectl, breaking lines there too, reads other keys or values than `parsed` holds. Inside a string such a
 * break is folded into a space by either reading ("x\ry" against "x y"): only what it changes beyond that counts.
 * Where the text broken there does not parse here (go-yaml takes a quoted string going on at the line's start, the
 * yaml package does not), nothing is said, as before.
 */
function readOtherwiseByKubectl(text: string, parsed: ParsedChunk): boolean {
  const asKubectl = readYaml(text.replace(new RegExp(FOREIGN_LINE_BREAK.source, 'g'), '\n'));
  if (asKubectl.error || asKubectl.templateAt !== undefined) return false;
  const folded = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.replace(/[\s\u0085\u2028\u2029]+/g, ' ') : v));
  return folded(asKubectl.value) !== folded(parsed.value);
}

function foreignLineBreakError(text: string, offset: number): NonNullable<ParsedChunk['error']> {
  const what = text[offset] === '\r' ? 'a carriage return alone (a classic Mac OS line end)' : `U+${text.charCodeAt(offset).toString(16).toUpperCase().padStart(4, '0')}`;
  return { message: `${what}, which kubectl reads as a line break and this tool does not, so kubectl reads this document otherwise: write a line feed there (save the file with LF or CRLF line ends)`, offset, length: 1 };
}

/** What kubectl reads with a JSON decoder rather than as YAML. */
const JSON_OPENING = /^\s*\{/;

/**
 * What go-yaml, which kubectl and the API server read YAML with, refuses anywhere in a stream ("control characters
 * are not allowed"): C0 controls but tab, line feed and carriage return; DEL; C1 controls but NEL; U+FFFE and U+FFFF.
 * The yaml package reads them, and a file kubectl would refuse was analysed as if it applied.
 */
const CONTROL_CHARACTER = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]/;

function controlCharacterError(text: string, offset: number): NonNullable<ParsedChunk['error']> {
  const code = text.charCodeAt(offset);
  // UTF-16 read as UTF-8 has a NUL beside every ASCII character.
  const sample = text.slice(0, 200);
  const nuls = sample.length - sample.replaceAll('\0', '').length;
  const utf16 = code === 0 && nuls * 3 >= sample.length ? ': the file looks like UTF-16 without a byte-order mark (save it as UTF-8)' : '';
  return { message: `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}, which kubectl refuses ("control characters are not allowed")${utf16}`, offset, length: 1 };
}

/**
 * A `---` line with more than a comment after it (`--- !!map`, `--- {a: 1}`): YAML reads it, and kubectl, which splits
 * a file at its `---` lines, refuses the whole file.
 */
const SEPARATOR_WITH_CONTENT = /^---[ \t]+([^#\s][^\r\n]*)/;

/**
 * Lines of directives, comments and blanks only, with at least one directive. A comment stops before a `\r`: one that
 * could end either side of it gave each CRLF comment line two matches, and a document under 26 of them took 13 s.
 */
const DIRECTIVES_ONLY = /^(?:[ \t]*(?:#[^\r\n]*)?\r?\n)*%[^\r\n]*(?:\r?\n(?:[ \t]*(?:#[^\r\n]*)?|%[^\r\n]*))*\r?\n?$/;

/** Parses with the yaml package: the text is outside what readBlockYaml reads, or has an error to report in the package's words. */
export function parseWithPackage(text: string): ParsedChunk {
  if (text.length > MAX_PACKAGE_DOCUMENT) {
    const mb = (length: number) => `${(length / 2 ** 20).toFixed(1)} MB`;
    return { error: { message: `one document of ${mb(text.length)} in JSON, or in YAML beyond plain block style (flow collections over lines, anchors, tags), is more than the ${mb(MAX_PACKAGE_DOCUMENT)} read in one piece: not analysed (split it into documents)`, offset: 0, length: 0 } };
  }
  const deep = tooDeeplyNested(text);
  if (deep !== undefined) return { error: { message: `it nests collections more than ${MAX_DEPTH} deep: not read`, offset: deep, length: 1 } };
  const hasTemplate = text.includes('{{');
  let doc: Document.Parsed;
  let duplicate: DuplicateKey | undefined;
  let refused: Refused | undefined;
  try {
    // Duplicate keys are checked below: the package's own check is quadratic in the size of a mapping.
    // Merge keys (`<<: *base`) are applied where they stand, as Kubernetes reads them (see withMergesAsKubernetes).
    doc = parseDocument(text, { prettyErrors: false, keepSourceTokens: false, uniqueKeys: false, merge: true });
    if (doc.errors.length === 0) {
      refused = resolveAsKubernetes(doc);
      duplicate = firstDuplicateKey(doc.contents);
    }
  } catch (e) {
    return { error: { message: unreadable(e), offset: 0, length: 0 } };
  }
  if (doc.errors.length > 0 || duplicate) {
    if (hasTemplate) return { templateAt: firstTemplate(text) };
    if (duplicate) {
      const [start, end] = duplicate.range;
      return { error: { message: duplicateKeyMessage(duplicate.key), offset: start, length: end - start } };
    }
    const error = doc.errors[0];
    // Lines that end in a CR alone (classic Mac OS) are one long line to the package, which then says something else.
    const message = text.includes('\r') && !text.includes('\n') ? `its lines end with a lone CR (classic Mac OS line ends), which kubectl reads and this tool does not: save it with LF or CRLF line ends. The parser says: ${unreadable(error)}` : (builtinTagMessage(error, text) ?? unreadable(error));
    const end = text.trimEnd().length;
    if (error.pos[0] >= end && end > 0) {
      // Reported at the very end (an unclosed bracket or quote): point at the last line written, not past it.
      const lineStart = text.lastIndexOf('\n', end - 1) + 1;
      const indent = /^[ \t]*/.exec(text.slice(lineStart))![0].length;
      return { error: { message, offset: lineStart + indent, length: end - lineStart - indent } };
    }
    return { error: { message, offset: error.pos[0], length: Math.max(0, error.pos[1] - error.pos[0]) } };
  }
  if (refused) return hasTemplate ? { templateAt: firstTemplate(text) } : { error: refused };
  try {
    if (hasTemplate) {
      const templateAt = templateOutsideScalars(doc, text);
      if (templateAt !== undefined) return { templateAt };
    }
    return { root: doc.contents, value: withMergesAsKubernetes(doc, doc.toJS({ maxAliasCount: 100 })) };
  } catch (e) {
    return { error: { message: `cannot expand this document: ${unreadable(e)}`, offset: 0, length: 0 } };
  }
}

/**
 * A document the yaml package parses (flow style, what the JSON and block readers leave) takes about 45 bytes
 * of memory per character, in one piece: a 157 MB JSON List ran the server out of its heap, a 37 MB one held it
 * for a minute; 16 MB take about 0.9 GB and 5 s. JSON is held to the same size, whoever reads it. Block YAML of
 * any size goes through the block reader, document by document.
 */
const MAX_PACKAGE_DOCUMENT = 16 * 2 ** 20;

/** What may stand before a `[` or `{` that opens a flow collection as a value (an ANSI escape's `[` in a block scalar does not). */
const OPENS_VALUE = new Set(['\n', ':', '-', ',', '?', '[', '{']);

/**
 * Where collections may first nest deeper than MAX_DEPTH, if they may: block ones by the indentation of their
 * lines (each level indents at least one column more, and each `- ` at a line's start opens one more), flow
 * ones by their brackets on top: as the readers count, but for a mapping that starts after dashes on their line
 * (one less there) and lines a block scalar indents ever deeper (counted as nested). 5.5 million `[` took the
 * package past Node's 4 GB heap, 2,000 aborted V8.
 */
function tooDeeplyNested(text: string): number | undefined {
  // Every level takes a character at least.
  if (text.length <= MAX_DEPTH) return undefined;
  const indents: number[] = [];
  let block = 0;
  let flow = 0;
  let previous = '\n';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (flow === 0 && (i === 0 || text[i - 1] === '\n')) {
      let end = skipSpaces(text, i);
      const indent = end - i;
      let dashes = 0;
      for (; text[end] === '-' && (text[end + 1] === ' ' || text[end + 1] === '\n'); dashes++) end = skipSpaces(text, end + 1);
      if (end < text.length && text[end] !== '\n' && text[end] !== '\r' && text[end] !== '#') {
        while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
        // A line that starts with a key or a dash is an item of a block collection at its indentation; one that
        // starts with a bracket or a scalar is a value (the document's, or one below its key).
        if (dashes > 0 || (text[end] !== '[' && text[end] !== '{')) indents.push(indent);
        block = indents.length + Math.max(0, dashes - 1);
        if (block > MAX_DEPTH) return i;
      }
    }
    if (c === '[' || c === '{') {
      if ((flow > 0 || OPENS_VALUE.has(previous)) && block + ++flow > MAX_DEPTH) return i;
    } else if ((c === ']' || c === '}') && flow > 0) flow--;
    if (c !== ' ' && c !== '\t' && c !== '\r') previous = c;
  }
  return undefined;
}

function duplicateKeyMessage(key: string): string {
  const name = key.trim().replace(/^(["'])(.*)\1$/, '$2');
  return `the key ${name ? `"${name}" ` : ''}appears twice in one mapping. Which one Kubernetes keeps depends on the tool; remove one.`;
}

/** Why the yaml package gave up, in words for the person who wrote the document. */
/**
 * The parser looks a tag up among its own by name in a plain object, so one named like a member every object has
 * (`!<constructor>`, `!<toString>`) is found there and fails it with its own TypeError ("tag.resolve is not a
 * function"): said as what it is. Other unknown tags it reads as plain values.
 */
function builtinTagMessage(error: YAMLError, text: string): string | undefined {
  if (!/is not a function/.test(error.message)) return undefined;
  const tag = /^!\S*/.exec(text.slice(error.pos[0], error.pos[1]))?.[0];
  return tag ? `its tag ${tag} is named like a built-in member of JavaScript objects, which the YAML parser cannot read (another unknown tag would be read as a plain value)` : undefined;
}

function unreadable(error: unknown): string {
  const message = String((error as Error)?.message ?? error).split('\n')[0];
  if (error instanceof RangeError || /call stack/i.test(message)) return 'it nests collections too deeply to be read';
  return /alias count/i.test(message) ? `its aliases expand to too many nodes. The parser says: ${message}` : message;
}

function firstTemplate(text: string): number {
  return Math.max(0, text.indexOf('{{'));
}

/**
 * A `{{ … }}` inside a quoted or block scalar is just text (alert templates in ConfigMaps, for example);
 * one that YAML reads as a flow mapping is a template expression.
 */
function templateOutsideScalars(doc: Document.Parsed, text: string): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Map(_, node) {
      const start = node.range?.[0];
      if (node.flow && start !== undefined && text.startsWith('{{', start)) {
        found = start;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * The file's documents and resources. With `previous` (the same file before an edit), a document whose
 * text is unchanged keeps its parse, so an edit re-parses only the documents it touched, and nothing is
 * kept beyond what the two versions hold.
 */
export function parseManifest(uri: string, text: string, previous?: ManifestFile): ManifestFile {
  return runSteps(parseManifestInSteps(uri, text, previous));
}

/** parseManifest, pausing after each document it parses; `defaultNamespace` is where resources naming none go. */
export function* parseManifestInSteps(uri: string, text: string, previous?: ManifestFile, defaultNamespace?: string): Steps<ManifestFile> {
  const split = splitOf(uri, text, previous);
  const lines = previous ? linesAfterEdit(previous, split, text) : new LineIndex(text);
  return yield* parseSplitInSteps(uri, split, () => lines, text, previous, defaultNamespace);
}

/**
 * The file `changes` (made one after another) make of `previous`, found from its documents alone: the
 * new text is only joined when something asks for it, so a keystroke in a 100,000-line file copies no
 * more than the documents it touched. Equal to parseManifest of the new text.
 */
export function parseManifestAfterChanges(previous: ManifestFile, changes: readonly TextChange[]): ManifestFile {
  return runSteps(parseManifestAfterChangesInSteps(previous, changes));
}

/** parseManifestAfterChanges, pausing after each document it parses. */
export function* parseManifestAfterChangesInSteps(previous: ManifestFile, changes: readonly TextChange[]): Steps<ManifestFile> {
  if (changes.length === 0) return previous;
  const { uri } = previous;
  const change = combinedChange(previous.documents, changes);
  const split = isJson(uri) ? undefined : splitAfterChange(previous.documents, change);
  if (!split) {
    const text = previous.text.slice(0, change.start) + change.text + previous.text.slice(change.end);
    return yield* parseManifestInSteps(uri, text, previous);
  }
  return yield* parseSplitInSteps(uri, split, (pieces) => LineIndex.afterChange(previous.lines, change, pieces), undefined, previous);
}

/** The file of `split`; `linesOf` makes its line index, given its text in pieces. */
function* parseSplitInSteps(uri: string, split: SplitAfterEdit, linesOf: (pieces: PiecedText) => LineIndex, text: string | undefined, previous?: ManifestFile, defaultNamespace?: string): Steps<ManifestFile> {
  const { chunks } = split;
  const parses: (ParsedChunk | undefined)[] = previous ? earlierParses(previous, split) : [];
  const file = new ChunkedFile(uri, chunks, text, linesOf);
  if (defaultNamespace) file.defaultNamespace = defaultNamespace;
  for (let index = 0; index < chunks.length; ) {
    if (!parses[index]) {
      parses[index] = previous ? parseUncached(chunks[index].text) : parseChunk(chunks[index].text);
      yield;
    }
    index = addParsedDocuments(file, chunks, parses, index);
  }
  // Live pods and ReplicaSets are not manifests to advise on; `--snapshot FILE` reads such a file as a cluster.
  if (file.documents.length === 1 && isClusterSnapshot(file.documents[0].parsed.value)) file.clusterSnapshot = true;
  if (file.templateAt !== undefined || file.clusterSnapshot) {
    for (const d of file.documents) d.resources = [];
  }
  file.resources = flattened(file.documents, (d) => d.resources);
  return file;
}

/**
 * Adds the documents of the chunks from `from` on whose parse is known, up to the first whose is not; returns
 * where it stopped. A function of its own, outside the generator: V8 optimises a long loop while it runs
 * only in a plain function (on-stack replacement), and a cold open calls it after every parse, so after a
 * keystroke, where it walks thousands of kept documents at once, it runs optimised from the first.
 */
function addParsedDocuments(file: ChunkedFile, chunks: readonly Chunk[], parses: readonly (ParsedChunk | undefined)[], from: number): number {
  let index = from;
  for (; index < chunks.length; index++) {
    const known = parses[index];
    if (!known) break;
    const chunk = chunks[index];
    const parsed = (known.root != null || known.error) && followsDocumentEnd(chunks, index) ? unreadAfterDocumentEnd(chunk.text, known) : known;
    const document: ManifestDocument = { index, offset: chunk.offset, text: chunk.text, parsed, resources: [] };
    if (parsed.templateAt !== undefined && file.templateAt === undefined) file.templateAt = chunk.offset + parsed.templateAt;
    document.resources = resourcesOf(document, file);
    file.documents.push(document);
  }
  return index;
}

/**
 * The parse of a document kubectl never reads (see followsDocumentEnd): an error on its first line that holds more
 * than a comment. One for each parse of the text, so that the document keeps its identity while unchanged (the
 * incremental analysis goes by it), and the file's next parse finds the parse beneath (see chunkParseOf).
 */
function unreadAfterDocumentEnd(text: string, parsed: ParsedChunk): ParsedChunk {
  return factOf(unreadVersions, parsed, () => {
    const content = /^[ \t]*[^\s#]/m.exec(text);
    const offset = content ? content.index + content[0].length - 1 : 0;
    const unread = { error: { message: 'kubectl never reads it: it follows a `...` line with no `---` line between (write `---` above it)', offset, length: 1 } };
    readVersions.set(unread, parsed);
    return unread;
  });
}

const unreadVersions = new WeakMap<ParsedChunk, ParsedChunk>();
const readVersions = new WeakMap<ParsedChunk, ParsedChunk>();

/** The parse of a document's text as it stands alone, wherever it is (not what its place after a `...` makes it). */
function chunkParseOf(document: ManifestDocument): ParsedChunk {
  return readVersions.get(document.parsed) ?? document.parsed;
}

/**
 * A file parsed from chunks: it joins their texts only when something reads the whole text. A class, whose
 * getter all files share, not an object literal with a getter of its own: V8 keeps such an object in
 * dictionary mode and allocates its getter's accessor pair in the old generation, where a dead one still
 * holds the file's chunks for the young generation's collections (see LazyProperty).
 */
class ChunkedFile implements ManifestFile {
  readonly lines: LineIndex;
  documents: ManifestDocument[] = [];
  resources: Resource[] = [];
  templateAt?: number;
  readonly looksLikeKubernetes: boolean;
  clusterSnapshot?: boolean;
  defaultNamespace?: string;
  readonly #chunks: readonly Chunk[];
  #known: string | undefined;

  constructor(
    readonly uri: string,
    chunks: readonly Chunk[],
    known: string | undefined,
    linesOf: (pieces: PiecedText) => LineIndex,
  ) {
    this.#chunks = chunks;
    this.#known = known;
    const last = chunks[chunks.length - 1];
    // The line index reads the file's text only once something asks for it.
    this.lines = linesOf({ length: last.offset + last.text.length, slice: (start, end) => sliceOfChunks(chunks, start, end), whole: () => this.text });
    // UTF-16 read as UTF-8 has a NUL beside every character: kubectl refuses it, and invalid-yaml says why.
    const keysOf = (c: Chunk) => (c.text.includes('\0') ? c.text.replaceAll('\0', '') : c.text);
    this.looksLikeKubernetes = chunks.some((c) => API_VERSION_KEY.test(keysOf(c))) && chunks.some((c) => KIND_KEY.test(keysOf(c)));
  }

  get text(): string {
    return (this.#known ??= this.#chunks.map((c) => c.text).join(''));
  }
}

// A key never spans documents (each starts at a `---` line or after a `...` line), so testing each document's text finds what testing the whole text finds.
const API_VERSION_KEY = /(^|[\s{,"])apiVersion"?\s*:/m;
const KIND_KEY = /(^|[\s{,"])kind"?\s*:/m;

/**
 * Whether the file's text can hold a resource at all, told without parsing it as YAML: a resource needs an
 * `apiVersion` and a `kind` key, so a text without both words (a package-lock.json, a CI workflow) holds
 * none; nor does JSON whose top level is not a resource (an API description that speaks of kinds), which
 * JSON.parse tells in milliseconds where the YAML parser takes a third of a second for 800 KB of it.
 */
export function mayHoldResources(uri: string, text: string): boolean {
  if (!text.includes('apiVersion') || !text.includes('kind')) return false;
  if (!isJson(uri)) return true;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON with comments, or YAML in a .json file: the YAML parser is the judge.
    return true;
  }
  return isObject(value) && typeof value.kind === 'string' && typeof value.apiVersion === 'string';
}

function isJson(uri: string): boolean {
  return /\.json$/i.test(uri);
}

/** Whether two files hold the same text, told from their documents' texts (the whole texts may not be joined). */
export function sameText(a: ManifestFile, b: ManifestFile): boolean {
  return a === b || (a.documents.length === b.documents.length && a.documents.every((d, i) => d.text === b.documents[i].text));
}

/** The text's documents; after an edit (`previous`), found again where the text did not change. */
function splitOf(uri: string, text: string, previous: ManifestFile | undefined): SplitAfterEdit {
  if (isJson(uri)) return { chunks: [{ offset: 0, text }], head: 0, tail: 0 };
  return previous ? splitDocumentsAfterEdit(previous.documents, previous.text, text) : { chunks: splitDocuments(text), head: 0, tail: 0 };
}

/** The parses of `previous` that documents of the new text can keep: those the split found unchanged at both ends, and others by text. */
function earlierParses(previous: ManifestFile, { chunks, head, tail }: SplitAfterEdit): (ParsedChunk | undefined)[] {
  const before = previous.documents;
  const parses: (ParsedChunk | undefined)[] = new Array(chunks.length);
  for (let i = 0; i < head; i++) parses[i] = chunkParseOf(before[i]);
  for (let k = 1; k <= tail; k++) parses[chunks.length - k] = chunkParseOf(before[before.length - k]);
  const middle = new Map(before.slice(head, before.length - tail).map((d) => [d.text, chunkParseOf(d)]));
  for (let i = head; i < chunks.length - tail; i++) parses[i] = middle.get(chunks[i].text);
  return parses;
}

/** The new text's line index: the previous one's lines around the documents the edit changed, and those documents scanned. */
function linesAfterEdit(previous: ManifestFile, { chunks, head, tail }: SplitAfterEdit, text: string): LineIndex {
  const before = previous.documents;
  if (head === 0 && tail === 0) return new LineIndex(text);
  const start = head < before.length ? before[head].offset : previous.text.length;
  const oldEnd = tail > 0 ? before[before.length - tail].offset : previous.text.length;
  const newEnd = tail > 0 ? chunks[chunks.length - tail].offset : text.length;
  return LineIndex.afterChange(previous.lines, { start, end: oldEnd, text: text.slice(start, newEnd) }, text);
}

/** The document holding `offset`. */
export function documentAt(file: ManifestFile, offset: number): ManifestDocument | undefined {
  const { documents } = file;
  return documents[countLeading(documents.length, (i) => documents[i].offset <= offset) - 1];
}

function resourcesOf(document: ManifestDocument, file: ManifestFile): Resource[] {
  const { root: node, value } = document.parsed;
  if (!isMap(node) || !isObject(value)) return [];
  const root = resourceFromObject(value, node, document, file);
  if (!root) return [];
  if (root.kind.endsWith('List') && Array.isArray(value.items)) {
    const itemsNode = node.get('items', true);
    const items = isSeq(itemsNode) ? itemsNode.items : [];
    return value.items.flatMap((item: unknown, i: number) => {
      const node = items[i];
      const resource = isObject(item) && isMap(node) ? resourceFromObject(item, node, document, file) : undefined;
      return resource ? [resource] : [];
    });
  }
  return [root];
}

/** A resource from its plain object; the one place that decides its name and namespace. */
export function resourceFromObject(value: Record<string, any>, node?: YAMLMap, document?: ManifestDocument, file?: ManifestFile): Resource | undefined {
  if (typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') return undefined;
  const metadata = isObject(value.metadata) ? value.metadata : {};
  // Tool configs shaped like resources (kind's Cluster, kubeadm's ClusterConfiguration) name themselves at the top.
  const ownName = typeof value.name === 'string' ? value.name : typeof value.clusterName === 'string' ? value.clusterName : null;
  const name = typeof metadata.name === 'string' ? metadata.name : isObject(value.metadata) ? null : ownName;
  const namespace = CLUSTER_SCOPED.has(value.kind) ? '' : typeof metadata.namespace === 'string' && metadata.namespace ? metadata.namespace : (file?.defaultNamespace ?? 'default');
  return { apiVersion: value.apiVersion, kind: value.kind, name, namespace, object: value, node, document, file };
}
