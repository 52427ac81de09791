import { isAlias, isMap, isScalar, isSeq, Scalar, visit, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { plainValue } from './plain-scalar';

/**
 * The plain scalars of a document the yaml package composed, keys among them, given the values go-yaml gives
 * them (see plainValue), and so are those tagged as numbers, booleans or nulls (`!!int 010` is 8). Done before
 * anything reads the document's keys: `010` and `10` are two keys, `y` and `on` one.
 */
export function resolveAsKubernetes(doc: Document.Parsed): void {
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.source !== 'string' || typeof node.value === 'symbol') return;
      if (node.type === Scalar.PLAIN && node.tag === undefined) node.value = plainValue(node.source);
      else if (node.tag !== undefined && TAGGED[node.tag]) {
        const value = plainValue(node.source);
        if (TAGGED[node.tag](value)) node.value = value;
      }
    },
  });
}

const TAGGED: Record<string, (value: unknown) => boolean> = {
  'tag:yaml.org,2002:int': (value) => typeof value === 'number',
  'tag:yaml.org,2002:float': (value) => typeof value === 'number',
  'tag:yaml.org,2002:bool': (value) => typeof value === 'boolean',
  'tag:yaml.org,2002:null': (value) => value === null,
};

/**
 * The document's value with its merge keys applied as go-yaml applies them, where they stand: a `<<` sets the keys
 * of what it merges over those written before it (and over an earlier `<<`'s), and keys written after it set
 * theirs again. The yaml package's `toJS` let a mapping's own keys win wherever they stood, and the first `<<`
 * over a later one. The node tree is left as it is (its anchors, ranges and keys are what the text holds).
 */
export function withMergesAsKubernetes(doc: Document.Parsed, value: unknown): unknown {
  if (!hasMergeKey(doc)) return value;
  const fixed = new WeakSet<object>();
  const fix = (node: unknown, js: unknown): void => {
    const target = isAlias(node) ? node.resolve(doc) : node;
    if (!js || typeof js !== 'object' || fixed.has(js)) return;
    fixed.add(js);
    if (isSeq(target) && Array.isArray(js)) target.items.forEach((item, i) => fix(item, js[i]));
    if (!isMap(target) || Array.isArray(js)) return;
    const object = js as Record<string, unknown>;
    const written = goWriters(target, doc);
    const chosen = packageWriters(target, doc);
    for (const [key, writer] of written) {
      if (chosen.get(key) !== writer) object[key] = (writer as Node).toJS(doc, { maxAliasCount: 100 });
      fix(writer, object[key]);
    }
  };
  fix(doc.contents, value);
  return value;
}

function hasMergeKey(doc: Document.Parsed): boolean {
  let found = false;
  visit(doc, {
    Pair(_, pair) {
      if (isMergeKey(pair.key)) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function isMergeKey(node: unknown): boolean {
  return isScalar(node) && typeof node.value === 'symbol' && node.value.description === '<<';
}

/** The node each key's value comes from in go-yaml: the last pair or merge, in order, that sets it. */
function goWriters(map: YAMLMap, doc: Document.Parsed): Map<string, unknown> {
  const writers = new Map<string, unknown>();
  for (const pair of map.items) {
    if (!isMergeKey(pair.key)) writers.set(keyOf(pair.key), pair.value);
    // Of a list of mappings, an earlier one wins: applied last.
    else for (const source of [...mergeSources(pair, doc, goWriters)].reverse()) for (const [key, value] of source) writers.set(key, value);
  }
  return writers;
}

/** The node each key's value comes from in the yaml package: the mapping's own pair, else the first merge that sets it. */
function packageWriters(map: YAMLMap, doc: Document.Parsed): Map<string, unknown> {
  const writers = new Map<string, unknown>();
  for (const pair of map.items) if (!isMergeKey(pair.key)) writers.set(keyOf(pair.key), pair.value);
  for (const pair of map.items) {
    if (!isMergeKey(pair.key)) continue;
    for (const source of mergeSources(pair, doc, packageWriters)) for (const [key, value] of source) if (!writers.has(key)) writers.set(key, value);
  }
  return writers;
}

/** The mappings a merge key merges, each as its keys and value nodes, its own merges applied by `writersOf`. */
function mergeSources(pair: Pair, doc: Document.Parsed, writersOf: (map: YAMLMap, doc: Document.Parsed) => Map<string, unknown>): Map<string, unknown>[] {
  const value = isAlias(pair.value) ? pair.value.resolve(doc) : pair.value;
  const maps = isSeq(value) ? value.items.map((item) => (isAlias(item) ? item.resolve(doc) : item)) : [value];
  return maps.flatMap((map) => (isMap(map) ? [writersOf(map, doc)] : []));
}

/** A key as it names a property once the document is an object. */
function keyOf(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}
