import { isMap, isPair, isScalar, isSeq } from 'yaml';
import { documentAt, type ManifestFile } from './parse';
import { countLeading } from '../sorted';

/**
 * Whether `offset` lies inside a scalar that goes over lines (a quoted string, a block scalar, a plain one): a
 * line that starts there is part of the value, so a comment written there is text of the value, and a `#` line
 * read there is no comment.
 */
export function insideScalar(file: ManifestFile, offset: number): boolean {
  const document = documentAt(file, offset);
  const root = document?.parsed.root;
  if (!document || !root) return false;
  const at = offset - document.offset;
  // Down the one path of nodes whose range holds the offset: a walk of the whole document for each finding (a fix
  // and a suppression ask it) made a List of 1,000 items take 19 s.
  for (let node: unknown = root; node; ) {
    if (isScalar(node)) {
      const [start, end] = node.range ?? [0, 0];
      return start < at && at < end;
    }
    if (!isMap(node) && !isSeq(node)) return false;
    node = childAround(node.items, at);
  }
  return false;
}

/** The key, value or item among `items` (in the text's order) whose range holds `at`, found by halving. */
function childAround(items: readonly unknown[], at: number): unknown {
  const before = countLeading(items.length, (i) => startOf(items[i]) <= at);
  const item = items[before - 1];
  const candidates = isPair(item) ? [item.key, item.value] : [item];
  return candidates.find((node) => {
    const range = (node as { range?: [number, number, number?] } | null)?.range;
    return !!range && range[0] <= at && at <= range[1];
  });
}

function startOf(item: unknown): number {
  const node = isPair(item) ? (item.key ?? item.value) : item;
  return (node as { range?: [number, number, number?] } | null)?.range?.[0] ?? Number.NEGATIVE_INFINITY;
}
