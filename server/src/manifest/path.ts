import { isMap, isPair, isScalar, isSeq, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import type { Resource } from './parse';
import type { Range } from './text';

/** A path into a resource's object: keys of mappings and indexes of sequences. */
export type Path = readonly (string | number)[];

/** The mapping pair at `key`, with its key and value nodes. */
export function pairOf(map: unknown, key: string): Pair<Node, Node | null> | undefined {
  if (!isMap(map)) return undefined;
  for (const item of (map as YAMLMap<unknown, unknown>).items) {
    if (isPair(item) && isScalar(item.key) && String(item.key.value) === key) return item as Pair<Node, Node | null>;
  }
  return undefined;
}

/** The node at `path` below `root` (a mapping value or a sequence item), or undefined. */
export function nodeAt(root: unknown, path: Path): Node | undefined {
  let node: unknown = root;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!isSeq(node)) return undefined;
      node = (node as YAMLSeq).items[step];
    } else {
      const pair = pairOf(node, step);
      if (!pair) return undefined;
      node = pair.value;
    }
  }
  return (node ?? undefined) as Node | undefined;
}

/**
 * Whether a mapping's item is a merge key (`<<: *base`). Parsed with merge keys on, its key's value is a symbol,
 * not the text `<<`: what it was written as tells.
 */
export function isMergeKey(pair: unknown): boolean {
  return isPair(pair) && isScalar(pair.key) && (pair.key.source === '<<' || pair.key.value === '<<');
}

/**
 * Whether what lies along `path` below `root` is shared with other places: a node with an anchor (its aliases
 * read it too) or a mapping with a merge key (`<<: *base`, whose keys come from elsewhere, and a key written
 * there overrides them). An edit there would change more, or other, than what it means to.
 */
export function sharedAlong(root: unknown, path: Path): boolean {
  let node: unknown = root;
  for (let depth = 0; node; depth++) {
    if ((node as Node).anchor || (isMap(node) && node.items.some(isMergeKey))) return true;
    if (depth === path.length) return false;
    const step = path[depth];
    node = typeof step === 'number' ? (isSeq(node) ? (node as YAMLSeq).items[step] : undefined) : pairOf(node, step)?.value;
  }
  return false;
}

/**
 * The deepest node that exists along `path`, and how many steps it covers: where a rule's finding
 * sits when the field it wants is missing (the parent that lacks it).
 */
export function deepestAlong(root: unknown, path: Path): { node: Node; pair?: Pair<Node, Node | null>; depth: number } | undefined {
  if (!root) return undefined;
  let node = root as Node;
  let pair: Pair<Node, Node | null> | undefined;
  let depth = 0;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!isSeq(node) || !node.items[step]) break;
      node = node.items[step] as Node;
      pair = undefined;
    } else {
      const next = pairOf(node, step);
      if (!next || !next.value) {
        if (next) pair = next;
        if (next) depth++;
        break;
      }
      pair = next;
      node = next.value;
    }
    depth++;
  }
  return { node, pair, depth };
}

/** Absolute [start, end) of a node in its file. */
export function nodeSpan(resource: Resource, node: Node): [number, number] {
  const base = resource.document?.offset ?? 0;
  const [start, valueEnd] = node.range ?? [0, 0, 0];
  return [base + start, base + valueEnd];
}

/** The [start, end) offsets in its file of the node at `path`, in a list (empty when there is none). */
export function spansAt(resource: Resource, path: Path): { start: number; end: number }[] {
  const node = nodeAt(resource.node, path);
  if (!node) return [];
  const [start, end] = nodeSpan(resource, node);
  return [{ start, end }];
}

/**
 * The range a finding about `path` points at: the key of the last existing pair along the path
 * (so `replicas: 1` underlines `replicas`), or the resource's `kind` key when nothing of the path exists.
 */
export function rangeOfPath(resource: Resource, path: Path, target: 'key' | 'value' | 'pair' = 'key'): Range {
  const file = resource.file;
  if (!file || !resource.node) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (path.length === 0 && target === 'key') target = 'pair';
  const found = path.length ? deepestAlong(resource.node, path) : undefined;
  const pair = found?.pair ?? (found && found.depth > 0 ? undefined : pairOf(resource.node, 'kind'));
  let span: [number, number];
  if (pair && pair.key) {
    const keySpan = nodeSpan(resource, pair.key);
    const valueSpan = pair.value ? nodeSpan(resource, pair.value) : keySpan;
    span = target === 'key' ? keySpan : target === 'value' ? valueSpan : [keySpan[0], valueSpan[1]];
  } else if (found) {
    span = nodeSpan(resource, found.node);
  } else {
    span = nodeSpan(resource, resource.node);
  }
  return file.lines.range(span[0], span[1]);
}

/** Range of the resource's `kind` key: where whole-resource findings and the hover card live. */
export function kindRange(resource: Resource): Range {
  return rangeOfPath(resource, ['kind'], 'pair');
}

/** The steps of a JSON pointer (`/spec/template/0`), its escapes read (`~1` is `/`, `~0` is `~`). */
export function pointerSteps(pointer: string): string[] {
  return pointer.split('/').slice(1).map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
}
