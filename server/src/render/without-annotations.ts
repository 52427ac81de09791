import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { applyEdits, type TextEdit } from '../fixes/edit';
import { removeField } from '../fixes/yaml-edit';
import type { ManifestFile, Resource } from '../manifest/parse';
import { nodeAt, pairOf } from '../manifest/path';
import { rootHandle } from './source-yaml';

const ANNOTATIONS = ['metadata', 'annotations'];

/**
 * The text of the file's document at `index` without the annotations named, each removed with its whole
 * lines as a fix removes a field, and the `annotations:` key with them when nothing else is left under it:
 * the rest stays as written. Where the annotations are a flow mapping, or are all that `metadata` holds (it
 * would be left null), the yaml package writes the document again without them.
 */
export function withoutAnnotations(file: ManifestFile, index: number, names: readonly string[]): string {
  const document = file.documents[index];
  const handle = rootHandle(file, index);
  const annotations = handle && nodeAt(handle.node, ANNOTATIONS);
  if (!handle || !isMap(annotations)) return document.text;
  const named = names.filter((name) => pairOf(annotations, name));
  if (named.length === 0) return document.text;
  const edits = removals(handle, annotations, named);
  if (!edits) return rewritten(document.text, names);
  // The edits are of the whole file's text.
  return applyEdits(document.text, edits.map((edit) => ({ ...edit, start: edit.start - document.offset, end: edit.end - document.offset })));
}

/** The edits that remove the named annotations in place, or undefined where that cannot be done. */
function removals(handle: Resource, annotations: YAMLMap, named: string[]): TextEdit[] | undefined {
  if (annotations.flow) return undefined;
  if (named.length < annotations.items.length) return everyOrNone(named.map((name) => removeField(handle, [...ANNOTATIONS, name])));
  // Every annotation goes, and the key with them, unless it is all `metadata` holds.
  return (nodeAt(handle.node, ['metadata']) as YAMLMap).items.length > 1 ? removeField(handle, ANNOTATIONS) : undefined;
}

function everyOrNone(edits: (TextEdit[] | undefined)[]): TextEdit[] | undefined {
  return edits.every((e) => e !== undefined) ? (edits as TextEdit[][]).flat() : undefined;
}

function rewritten(text: string, names: readonly string[]): string {
  const doc = parseDocument(text);
  for (const name of names) doc.deleteIn([...ANNOTATIONS, name]);
  const left = doc.getIn(ANNOTATIONS);
  if (isMap(left) && left.items.length === 0) doc.deleteIn(ANNOTATIONS);
  return doc.toString();
}
