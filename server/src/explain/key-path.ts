import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { Resource } from '../manifest/parse';
import { nodeSpan, type Path } from '../manifest/path';

/** The path of the mapping key under `offset` (a hover on `replicas` gives ['spec', 'replicas']), or undefined off any key. */
export function keyPathAt(resource: Resource, offset: number): Path | undefined {
  const walk = (node: unknown, path: (string | number)[]): Path | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        // A merge key (`<<: *base`) is no field: its key is a symbol, not a name.
        if (!isPair(pair) || !isScalar(pair.key) || typeof pair.key.value === 'symbol') continue;
        const key = String(pair.key.value);
        const [start, end] = nodeSpan(resource, pair.key as Node);
        if (offset >= start && offset <= end) return [...path, key];
        if (pair.value) {
          const [vs, ve] = nodeSpan(resource, pair.value as Node);
          if (offset >= vs && offset <= ve) return walk(pair.value, [...path, key]);
        }
      }
    } else if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) {
        const [start, end] = nodeSpan(resource, node.items[i] as Node);
        if (offset >= start && offset <= end) return walk(node.items[i], [...path, i]);
      }
    }
    return undefined;
  };
  return resource.node ? walk(resource.node, []) : undefined;
}
