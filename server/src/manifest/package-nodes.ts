import { Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

/** The nodes the fast readers build: the yaml package's own, for code that reads them with its functions. */
export type Node = YAMLMap | YAMLSeq | Scalar;

/** Thrown inside a fast reader when the text leaves the subset it reads; the caller then parses with the yaml package. */
export const OUTSIDE = Symbol('outside the subset read without the package');

/**
 * Collections nested deeper than this are read by no one: the yaml package overflows its stack near 1,000
 * levels, and near there V8 has aborted the whole process ("RegExpCompiler Allocation failed") where a
 * RangeError was expected. The deepest manifest of the corpus nests 35.
 */
export const MAX_DEPTH = 256;

/**
 * The package's nodes, made without running their constructors: each defines its node type with
 * Object.defineProperty, which was a third of the cost of building a document's nodes. Here the type
 * sits on a prototype under each class's own, where the package's isMap, isSeq, isPair and isScalar
 * find it all the same.
 */
const NODE_TYPE = Symbol.for('yaml.node.type');

/**
 * A node's range kept as three numbers on the node rather than in an array of its own: the array and its
 * backing store were 72 of the bytes of each of the 236,000 nodes of a 106k-line file (17 of the 44 MB its
 * parse keeps), which every young-generation collection copied. The package's `range` is read through
 * an accessor that makes the array when asked for, so code that reads a node's range sees the package's.
 */
const RANGE: PropertyDescriptor = {
  get(this: PlacedNode) {
    return this.rangeStart < 0 ? undefined : [this.rangeStart, this.rangeValueEnd, this.rangeNodeEnd];
  },
  set(this: PlacedNode, range: [number, number, number] | undefined | null) {
    this.rangeStart = range ? range[0] : -1;
    this.rangeValueEnd = range ? range[1] : -1;
    this.rangeNodeEnd = range ? range[2] : -1;
  },
};
interface PlacedNode {
  rangeStart: number;
  rangeValueEnd: number;
  rangeNodeEnd: number;
}
const typed = <T extends object>(prototype: T, type: string): T =>
  Object.create(prototype, { [NODE_TYPE]: { value: Symbol.for(type) }, range: RANGE }) as T;
const MAP = typed(YAMLMap.prototype, 'yaml.map');
const SEQ = typed(YAMLSeq.prototype, 'yaml.seq');
const PAIR = Object.create(Pair.prototype, { [NODE_TYPE]: { value: Symbol.for('yaml.pair') } }) as Pair;
const SCALAR = typed(Scalar.prototype, 'yaml.scalar');

/**
 * The nodes are made by constructors with those prototypes rather than by Object.create: V8 gives an
 * object made by a constructor room for the fields it was seen to set (a pair 40 bytes), and one made by
 * Object.create room for four (56), on every one of the 300,000 nodes of a 106k-line file. Block and flow
 * collections have constructors of their own: they set different fields, and V8 sizes the objects of a
 * constructor by the first ones it makes.
 */
function constructorOf<A extends unknown[], R extends object>(prototype: R, init: (this: R & PlacedNode, ...args: A) => void): new (...args: A) => R {
  (init as unknown as { prototype: R }).prototype = prototype;
  return init as unknown as new (...args: A) => R;
}
export const BlockMap = constructorOf(MAP, function (items: Pair[]) {
  this.items = items;
  this.rangeStart = -1;
  this.rangeValueEnd = -1;
  this.rangeNodeEnd = -1;
});
export const BlockSeq = constructorOf(SEQ, function (items: unknown[]) {
  this.items = items;
  this.rangeStart = -1;
  this.rangeValueEnd = -1;
  this.rangeNodeEnd = -1;
});
// In the order of the package's own fields: items, flow, range.
export const FlowMap = constructorOf(MAP, function (items: Pair[]) {
  this.items = items;
  this.flow = true;
  this.rangeStart = -1;
  this.rangeValueEnd = -1;
  this.rangeNodeEnd = -1;
});
export const FlowSeq = constructorOf(SEQ, function (items: unknown[]) {
  this.items = items;
  this.flow = true;
  this.rangeStart = -1;
  this.rangeValueEnd = -1;
  this.rangeNodeEnd = -1;
});
const PairNode = constructorOf(PAIR, function (key: Scalar, value: Node) {
  this.key = key;
  this.value = value;
});
const ScalarNode = constructorOf(SCALAR, function (value: unknown, type: Scalar.Type) {
  this.value = value;
  this.type = type;
  this.rangeStart = -1;
  this.rangeValueEnd = -1;
  this.rangeNodeEnd = -1;
});

/** Gives a node the fast readers made its range: where it starts, where its value ends, and where the node ends. */
export function place(node: Node, start: number, valueEnd: number, nodeEnd: number): void {
  const placed = node as unknown as PlacedNode;
  placed.rangeStart = start;
  placed.rangeValueEnd = valueEnd;
  placed.rangeNodeEnd = nodeEnd;
}

/** Where a placed node starts. */
export function startOf(node: Node): number {
  return (node as unknown as PlacedNode).rangeStart;
}

/** Where a placed node ends, trailing space and comments it takes in included (the third offset of its range). */
export function nodeEndOf(node: Node): number {
  return (node as unknown as PlacedNode).rangeNodeEnd;
}

/** Moves where a placed node ends. */
export function endAt(node: Node, nodeEnd: number): void {
  (node as unknown as PlacedNode).rangeNodeEnd = nodeEnd;
}

export function newPair(key: Scalar, value: Node): Pair<Scalar, Node> {
  return new PairNode(key, value) as Pair<Scalar, Node>;
}

export function newScalar(value: unknown, type: Scalar.Type): Scalar {
  return new ScalarNode(value, type);
}

/**
 * A copy of an array of its exact length. An array pushed to keeps room for 17 items, and two thirds of a
 * manifest's collections hold one to three: on a file of 2,000 Deployments that room was 8 of the 57 MB
 * its parse kept, which every young-generation collection copied. The copy pushed to dies young.
 */
export function exactLength<T>(items: T[]): T[] {
  return items.slice();
}

/**
 * Sets a mapping's entry in its plain value. A key the package would read otherwise (a merge key, a null or
 * collection key, one an object inherits) or one seen before (the package reports duplicates in its own
 * words) leaves the text to the package.
 */
export function setEntry(value: Record<string, unknown>, key: unknown, entry: unknown): void {
  if (key === '__proto__' || key === '<<' || key === null || typeof key === 'object') throw OUTSIDE;
  const name = String(key);
  if (value[name] !== undefined) throw OUTSIDE;
  value[name] = entry;
}

/** What a backslash and the one character after it stand for in a double-quoted scalar (the escapes that take hex digits are read apart). */
export const ESCAPES: Record<string, string> = {
  '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v',
  ' ': ' ', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};
