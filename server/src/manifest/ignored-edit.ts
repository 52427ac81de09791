import type { ManifestDocument, ManifestFile } from './parse';
import type { TextChange } from './text';

/** Kinds no rule reads: an edit inside one changes no finding as long as the document still parses. */
const KINDS_NO_RULE_READS = new Set(['CustomResourceDefinition']);

/** Below this size a document is parsed again on every edit: it costs less than deciding not to. */
const HUGE_DOCUMENT_CHARACTERS = 100_000;

/**
 * Whether `change` of the file's parsed text lies inside one indented line of a huge document that no
 * rule reads (a 23,000-line CRD) and that parsed cleanly: its kind, name and findings cannot change, so
 * its previous parse may stand until typing pauses. Whether it still parses is then checked by parsing
 * it again; the caller must do that before anything else reads the new text.
 */
export function changeInsideIgnoredDocument(previous: ManifestFile, change: TextChange): boolean {
  // Most files hold no such document: they are told apart without looking at the change.
  if (!previous.documents.some(isIgnoredHugeDocument)) return false;
  const { start, end } = change;
  const document = previous.documents.find((d) => start > d.offset && end < d.offset + d.text.length);
  if (!document || !isIgnoredHugeDocument(document)) return false;
  const own = document.text;
  if (/[\r\n]/.test(own.slice(start - document.offset, end - document.offset)) || /[\r\n]/.test(change.text)) return false;
  // An indented line holds no top-level key: apiVersion, kind and metadata stay as they were.
  const lineStart = own.lastIndexOf('\n', start - document.offset - 1) + 1;
  return lineStart > 0 && /^[ \t]/.test(own.slice(lineStart, lineStart + 1)) && !/^[ \t]*$/.test(own.slice(lineStart, start - document.offset));
}

/** A huge document that parsed cleanly and holds only kinds no rule reads. */
function isIgnoredHugeDocument(document: ManifestDocument): boolean {
  if (document.text.length < HUGE_DOCUMENT_CHARACTERS || document.parsed.error || document.parsed.templateAt !== undefined) return false;
  return document.resources.length > 0 && document.resources.every((r) => KINDS_NO_RULE_READS.has(r.kind));
}
