import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { isMergeKey } from './path';

export interface DuplicateKey {
  key: string;
  /** [start, end) of the second occurrence, in the document's text. */
  range: [number, number];
}

/**
 * The first key that appears twice in one mapping. The yaml package can check this itself, but its
 * check compares every key with every earlier one, which takes minutes on a mapping of 100,000 keys;
 * this walk is linear, and iterative so that deep nesting cannot overflow the stack.
 */
export function firstDuplicateKey(root: Node | null): DuplicateKey | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        // Several merge keys in one mapping merge them all: no duplicate.
        if (isScalar(pair.key) && !isMergeKey(pair)) {
          const signature = `${typeof pair.key.value}:${String(pair.key.value)}`;
          if (seen.has(signature)) return { key: String(pair.key.value), range: [pair.key.range?.[0] ?? 0, pair.key.range?.[1] ?? 0] };
          seen.add(signature);
        } else if (pair.key) {
          stack.push(pair.key as Node);
        }
        stack.push(pair.value);
      }
    }
  }
  return undefined;
}
