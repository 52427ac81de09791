import { isAlias, isMap, isScalar, isSeq, Scalar, visit, type Document, type Node, type YAMLMap } from 'yaml';
import { plainValue } from './plain-scalar';

/**
 * A document the yaml package composed, changed to mean what it means to Kubernetes (see plainValue): its
 * plain scalars, keys among them, take the values go-yaml gives them, and a merge key (`<<: *base`) overrides
 * the keys written before it, as go-yaml applies it where it stands (the yaml package kept those keys). The
 * keys it overrides are dropped from their mapping: they are not part of the object.
 */
export function readAsKubernetes(doc: Document.Parsed): void {
  visit(doc, {
    Scalar(_, node) {
      if (node.type === Scalar.PLAIN && node.tag === undefined && typeof node.source === 'string' && typeof node.value !== 'symbol') node.value = plainValue(node.source);
    },
  });
  visit(doc, {
    Map(_, map) {
      dropKeysMergedOver(map, doc);
    },
  });
}

function isMergeKey(node: unknown): boolean {
  return isScalar(node) && typeof node.value === 'symbol' && node.value.description === '<<';
}

/** Removes the pairs written before a merge key whose keys the merge sets. */
function dropKeysMergedOver(map: YAMLMap, doc: Document.Parsed): void {
  for (let i = map.items.length - 1; i > 0; i--) {
    const pair = map.items[i];
    if (!isMergeKey(pair.key)) continue;
    const merged = mergedKeys(pair.value as Node | null, doc, new Set());
    if (!merged.size) continue;
    const kept = map.items.slice(0, i).filter((earlier) => isMergeKey(earlier.key) || !merged.has(keyOf(earlier.key)));
    map.items.splice(0, i, ...kept);
    i = kept.length;
  }
}

/** The keys a merge key's value sets: of its mapping, or of each mapping of its sequence, their own merges included. */
function mergedKeys(value: Node | null, doc: Document.Parsed, seen: Set<Node>): Set<string | undefined> {
  const source = isAlias(value) ? (value.resolve(doc) as Node | undefined) : value;
  const keys = new Set<string | undefined>();
  if (!source || seen.has(source)) return keys;
  seen.add(source);
  if (isSeq(source)) for (const item of source.items) for (const key of mergedKeys(item as Node, doc, seen)) keys.add(key);
  if (isMap(source)) {
    for (const { key, value: inner } of source.items) {
      if (isMergeKey(key)) for (const nested of mergedKeys(inner as Node, doc, seen)) keys.add(nested);
      else keys.add(keyOf(key));
    }
  }
  return keys;
}

/** A scalar key as it names a property once the document is an object. */
function keyOf(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}
