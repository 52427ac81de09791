import type { Fix } from '../fixes/edit';
import { applyEdits } from '../fixes/edit';
import { parseManifest } from '../manifest/parse';
import type { Path } from '../manifest/path';
import type { FieldChange } from './types';

/**
 * What a fix written for the rendered text changes in its resource: the fix is applied to the rendered
 * stream, the stream parsed again, and the document compared field by field with what it was; documents
 * the fix appends are resources to add.
 */
export function fieldChanges(renderedUri: string, renderedText: string, documentIndex: number, fix: Fix): FieldChange[] | undefined {
  let fixedText: string;
  try {
    fixedText = applyEdits(renderedText, fix.edits);
  } catch {
    return undefined;
  }
  const before = parseManifest(renderedUri, renderedText);
  const after = parseManifest(renderedUri, fixedText);
  if (after.documents.some((d) => d.parsed.error)) return undefined;
  const changes: FieldChange[] = [];
  diff(before.documents[documentIndex]?.parsed.value, after.documents[documentIndex]?.parsed.value, [], changes);
  // A fix appends its new documents right after the resource's own (appendDocument), wherever that sits in the stream.
  const addedCount = after.documents.length - before.documents.length;
  for (const added of addedCount > 0 ? after.documents.slice(documentIndex + 1, documentIndex + 1 + addedCount) : []) {
    if (added.parsed.value && typeof added.parsed.value === 'object') changes.push({ kind: 'add-resource', object: added.parsed.value });
  }
  return changes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function diff(before: unknown, after: unknown, path: Path, out: FieldChange[]): void {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of Object.keys(after)) {
      if (!(key in before)) out.push({ kind: 'set', path: [...path, key], value: after[key] });
      else diff(before[key], after[key], [...path, key], out);
    }
    for (const key of Object.keys(before)) if (!(key in after)) out.push({ kind: 'remove', path: [...path, key] });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    after.forEach((item, i) => diff(before[i], item, [...path, i], out));
    return;
  }
  out.push({ kind: 'set', path, value: after });
}
