import { isMap, isScalar, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { pairOf } from '../manifest/path';

/**
 * A document's text without the annotations named. Where they are written one to a line in block style
 * (as kustomize writes them), their lines are cut out and the rest stays as written, the `annotations:` key
 * with them when nothing else is left under it; otherwise the yaml package writes the document again
 * without them. `root` is the document's root mapping, its ranges in `text`.
 */
export function withoutAnnotations(text: string, root: YAMLMap, names: readonly string[]): string {
  const metadata = pairOf(root, 'metadata')?.value;
  const annotationsPair = pairOf(metadata, 'annotations');
  const annotations = annotationsPair?.value;
  if (!isMap(annotations)) return text;
  const named = (annotations.items as Pair[]).filter((p) => isScalar(p.key) && names.includes(String(p.key.value)));
  if (named.length === 0) return text;
  // Removing every annotation removes the key too; removing it from a metadata that holds nothing else would leave `metadata:` null.
  const whole = named.length === annotations.items.length;
  if (whole && (metadata as YAMLMap).items.length === 1) return rewritten(text, names);
  const cuts = whole ? [linesOf(text, annotationsPair!)] : named.map((pair) => linesOf(text, pair));
  if (cuts.some((cut) => !cut)) return rewritten(text, names);
  let out = text;
  for (const { start, end } of (cuts as Cut[]).sort((a, b) => b.start - a.start)) out = out.slice(0, start) + out.slice(end);
  return out;
}

interface Cut {
  start: number;
  end: number;
}

/** The whole lines a block mapping pair takes: from its key's line to the end of its value's last line; undefined when the key does not start its line (a flow mapping). */
function linesOf(text: string, pair: Pair): Cut | undefined {
  const keyStart = (pair.key as Node).range?.[0];
  const valueEnd = (pair.value as Node | null)?.range?.[1] ?? (pair.key as Node).range?.[1];
  if (keyStart === undefined || valueEnd === undefined) return undefined;
  const start = text.lastIndexOf('\n', keyStart - 1) + 1;
  if (text.slice(start, keyStart).trim() !== '') return undefined;
  // A block scalar's value ends after its last line break; a plain one at its last character.
  const lineBreak = text.charCodeAt(valueEnd - 1) === 0x0a ? valueEnd - 1 : text.indexOf('\n', valueEnd);
  return { start, end: lineBreak === -1 ? text.length : lineBreak + 1 };
}

function rewritten(text: string, names: readonly string[]): string {
  const doc = parseDocument(text);
  for (const name of names) doc.deleteIn(['metadata', 'annotations', name]);
  const left = doc.getIn(['metadata', 'annotations']);
  if (isMap(left) && left.items.length === 0) doc.deleteIn(['metadata', 'annotations']);
  return doc.toString();
}
