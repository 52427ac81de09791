import { isDeepStrictEqual } from 'node:util';
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { BlockRead } from '../../server/src/manifest/block-yaml';
import { parseWithPackage } from '../../server/src/manifest/parse';

/**
 * How the text is read when the reader leaves it to the package: its root node and plain value, or
 * undefined when that reports an error (a duplicate key among them) or finds a template.
 */
export function packageRead(text: string) {
  const read = parseWithPackage(text);
  return read.error || read.templateAt !== undefined ? undefined : read;
}

/**
 * The first difference between two node trees in what the engine reads of them (kinds, items, keys,
 * values, styles, ranges) and in the class the package's own functions see.
 */
function difference(ours: any, theirs: any, path = ''): string | undefined {
  const kind = (n: any) => (isMap(n) ? 'map' : isSeq(n) ? 'seq' : isScalar(n) ? 'scalar' : String(n));
  if (kind(ours) !== kind(theirs)) return `${path}: ${kind(ours)} where the package has ${kind(theirs)}`;
  if (!(ours instanceof theirs.constructor) || ours.constructor !== theirs.constructor) return `${path}: a ${ours.constructor?.name} where the package has a ${theirs.constructor.name}`;
  if (!isDeepStrictEqual(ours.range, theirs.range)) return `${path}: range ${JSON.stringify(ours.range)} where the package has ${JSON.stringify(theirs.range)}`;
  if (isScalar(ours)) {
    if (!Object.is(ours.value, theirs.value)) return `${path}: value ${JSON.stringify(ours.value)} where the package has ${JSON.stringify(theirs.value)}`;
    return ours.type === theirs.type ? undefined : `${path}: style ${ours.type} where the package has ${theirs.type}`;
  }
  if (Boolean(ours.flow) !== Boolean(theirs.flow)) return `${path}: flow ${Boolean(ours.flow)}`;
  if (ours.items.length !== theirs.items.length) return `${path}: ${ours.items.length} items where the package has ${theirs.items.length}`;
  for (const [i, item] of ours.items.entries()) {
    const other = theirs.items[i];
    if (isPair(item) && item.constructor !== other.constructor) return `${path}.pair${i}: a ${item.constructor?.name} where the package has a ${other.constructor.name}`;
    const found = isPair(item)
      ? difference(item.key, other.key, `${path}.key${i}`) ?? difference(item.value, other.value, `${path}.${String((item.key as any).value)}`)
      : difference(item, other, `${path}[${i}]`);
    if (found) return found;
  }
  return undefined;
}

/** Why `read`'s reading of `text` is not the package's, if it is not; undefined when it leaves the text to the package. */
export function mismatchOf(read: (text: string) => BlockRead | undefined, text: string): string | undefined {
  const ours = read(text);
  if (!ours) return undefined;
  const theirs = packageRead(text);
  if (!theirs) return 'read a text the package reports an error in';
  return difference(ours.root, theirs.root) ?? (isDeepStrictEqual(ours.value, theirs.value) ? undefined : 'a different plain value');
}
