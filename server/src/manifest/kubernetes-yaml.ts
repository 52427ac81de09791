import { isAlias, isMap, isScalar, isSeq, Scalar, visit, type Alias, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { plainTag, plainValue } from './plain-scalar';

/**
 * The plain scalars of a document the yaml package composed, keys among them, given the values go-yaml gives
 * them (see plainValue), and so are those tagged as numbers, booleans or nulls (`!!int 010` is 8). Done before
 * anything reads the document's keys: `010` and `10` are two keys, `y` and `on` one. Returns the first thing
 * kubectl refuses there, where the yaml package reads on: a value its tag does not fit (`!!float abc`), or a null
 * key (`~: a`), which JSON cannot hold.
 */
export function resolveAsKubernetes(doc: Document.Parsed): Refused | undefined {
  // go-yaml refuses a misfit as it decodes; the conversion to JSON, after it, a null key.
  let misfit: Refused | undefined;
  let nullKey: Refused | undefined;
  visit(doc, {
    Pair(_, pair) {
      if (pair.key === null) nullKey ??= refusal(isScalar(pair.value) || isMap(pair.value) || isSeq(pair.value) ? (pair.value as Node) : null, NULL_KEY);
    },
    Scalar(key, node) {
      if (typeof node.source !== 'string' || typeof node.value === 'symbol') return;
      if (node.type === Scalar.PLAIN && node.tag === undefined) node.value = plainValue(node.source);
      else if (node.tag !== undefined && TAGGED[node.tag]) {
        const resolved = plainTag(node.source);
        if (TAGGED[node.tag].includes(resolved)) node.value = plainValue(node.source);
        else misfit ??= refusal(node, `a value tagged ${shortTag(node.tag)} is no ${shortTag(node.tag).slice(2)}: kubectl refuses the file ("cannot decode ${resolved} \`${node.source}\` as a ${shortTag(node.tag)}")`);
      }
      if (key === 'key' && node.value === null) nullKey ??= refusal(node, NULL_KEY);
    },
  });
  return misfit ?? nullKey;
}

function refusal(node: Node | null, message: string): Refused {
  const [start, end] = node?.range ?? [0, 0];
  return { message, offset: start, length: end - start };
}

/** What kubectl refuses in a document, and where. */
export interface Refused {
  message: string;
  offset: number;
  length: number;
}

const NULL_KEY = 'a null key (`~`, `null`, or none): kubectl refuses the file, as JSON keys are text (quote it to mean the word)';

function shortTag(tag: string): string {
  return tag.replace('tag:yaml.org,2002:', '!!');
}


/** For each tag of a value the plain scalar's own resolution decides, those it must have resolved to. */
const TAGGED: Record<string, readonly string[]> = {
  'tag:yaml.org,2002:int': ['!!int'],
  'tag:yaml.org,2002:float': ['!!int', '!!float'],
  'tag:yaml.org,2002:bool': ['!!bool'],
  'tag:yaml.org,2002:null': ['!!null'],
};

/**
 * The document's value with its merge keys applied as go-yaml applies them, where they stand: a `<<` sets the keys
 * of what it merges over those written before it (and over an earlier `<<`'s), and keys written after it set
 * theirs again. The yaml package's `toJS` (`value`, which has bounded the aliases already) let a mapping's own keys
 * win wherever they stood, and the first `<<` over a later one: a document with a merge key is built again from its
 * nodes. The node tree is left as it is (its anchors, ranges and keys are what the text holds).
 */
export function withMergesAsKubernetes(doc: Document.Parsed, value: unknown): unknown {
  if (!hasMergeKey(doc)) return value;
  const merges = new Merges(doc);
  // The value of each collection built so far: an alias takes its anchor's (the package's own toJS walks the whole
  // document for each alias resolved without its context: 5,000 merges took 141 s).
  const valueOf = new Map<unknown, unknown>();
  const valueOfNode = (written: unknown): unknown => {
    const node = merges.resolved(written);
    if (isScalar(node)) return node.value;
    if (valueOf.has(node)) return valueOf.get(node);
    if (isSeq(node)) {
      const list: unknown[] = [];
      valueOf.set(node, list);
      for (const item of node.items) list.push(valueOfNode(item));
      return list;
    }
    if (!isMap(node)) return (node as Node | undefined)?.toJS(doc, { maxAliasCount: 100 }) ?? null;
    const object: Record<string, unknown> = {};
    valueOf.set(node, object);
    for (const [key, writer] of merges.writers(node)) setProperty(object, key, valueOfNode(writer));
    return object;
  };
  return valueOfNode(doc.contents);
}

function hasMergeKey(doc: Document.Parsed): boolean {
  let found = false;
  visit(doc, {
    Pair(_, pair) {
      if (isResolvedMerge(pair.key)) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** A key the yaml package resolved as a merge: a plain `<<` (path.ts's isMergeKey takes a quoted one too, to leave it unedited). */
function isResolvedMerge(node: unknown): boolean {
  return isScalar(node) && typeof node.value === 'symbol' && node.value.description === '<<';
}

/**
 * Which node each key of a mapping takes its value from, in go-yaml's order of merges, kept for each mapping; aliases
 * are resolved from one walk of the document.
 */
class Merges {
  private readonly targets = new Map<Alias, Node | undefined>();
  private readonly known = new WeakMap<YAMLMap, Map<string, unknown>>();

  constructor(doc: Document.Parsed) {
    // An alias stands for the last node before it that has its anchor, in the order the document is written.
    const anchored = new Map<string, Node>();
    visit(doc, {
      Node: (_, node) => {
        if (isAlias(node)) this.targets.set(node, anchored.get(node.source));
        else if (node.anchor) anchored.set(node.anchor, node);
      },
    });
  }

  resolved(node: unknown): unknown {
    return isAlias(node) ? this.targets.get(node) : node;
  }

  /** The last pair or merge, in order, that sets each key (of a list of mappings merged, the earlier one wins). */
  writers(map: YAMLMap): Map<string, unknown> {
    const known = this.known.get(map);
    if (known) return known;
    const writers = new Map<string, unknown>();
    // Set before it is filled: a mapping that merges itself (through an alias) stops there.
    this.known.set(map, writers);
    for (const pair of map.items) {
      if (!isResolvedMerge(pair.key)) writers.set(keyOf(pair.key), pair.value);
      else for (const source of this.mergeSources(pair).reverse()) for (const [key, value] of source) writers.set(key, value);
    }
    return writers;
  }

  /** The mappings a merge key merges, each as its keys and value nodes, their own merges applied. */
  private mergeSources(pair: Pair): Map<string, unknown>[] {
    const value = this.resolved(pair.value);
    const maps = isSeq(value) ? value.items.map((item) => this.resolved(item)) : [value];
    return maps.flatMap((map) => (isMap(map) ? [this.writers(map)] : []));
  }
}

/** Sets a property as the yaml package does, a key named `__proto__` among them (an assignment would set the prototype). */
function setProperty(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A key as it names a property once the document is an object. */
function keyOf(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}
