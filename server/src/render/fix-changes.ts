import type { Fix } from '../fixes/edit';
import { applyEdits } from '../fixes/edit';
import { parseManifest, type ManifestFile } from '../manifest/parse';
import type { Path } from '../manifest/path';
import type { FieldChange } from './types';
import { isObject } from '../is-object';

/**
 * What a fix written for the rendered text changes in its resource: the fix is applied to the resource's
 * document, the document parsed again, and compared field by field with what it was; documents the fix
 * appends are resources to add. Only that document is parsed again (a 1.9 MB stream took ~0.35 s a fix
 * when the whole stream was); a fix reaching outside it is not translated.
 */
export function fieldChanges(rendered: ManifestFile, documentIndex: number, fix: Fix): FieldChange[] | undefined {
  const document = rendered.documents[documentIndex];
  if (!document) return undefined;
  const start = document.offset;
  const end = start + document.text.length;
  if (fix.edits.some((e) => e.start < start || e.end > end)) return undefined;
  let fixedText: string;
  try {
    fixedText = applyEdits(document.text, fix.edits.map((e) => ({ ...e, start: e.start - start, end: e.end - start })));
  } catch {
    return undefined;
  }
  const after = parseManifest(rendered.uri, fixedText);
  if (after.documents.some((d) => d.parsed.error)) return undefined;
  const changes: FieldChange[] = [];
  diff(document.parsed.value, after.documents[0]?.parsed.value, [], changes);
  // A fix appends its new documents right after the resource's own (appendDocument).
  for (const added of after.documents.slice(1)) {
    if (added.parsed.value && typeof added.parsed.value === 'object') changes.push({ kind: 'add-resource', object: added.parsed.value });
  }
  return changes;
}

function diff(before: unknown, after: unknown, path: Path, out: FieldChange[]): void {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (isObject(before) && isObject(after)) {
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
