import type { ManifestDocument, ManifestFile } from './parse';
import { commonPrefixLength, commonSuffixLength } from './text';

/** Kinds no rule reads: an edit inside one changes no finding as long as the document still parses. */
const KINDS_NO_RULE_READS = new Set(['CustomResourceDefinition']);

/** Below this size a document is parsed again on every edit: it costs less than deciding not to. */
const HUGE_DOCUMENT_CHARACTERS = 100_000;

/**
 * Whether `text` differs from the file's parsed text only inside one indented line of a huge document
 * that no rule reads (a 23,000-line CRD) and that parsed cleanly: its kind, name and findings cannot
 * change, so its previous parse may stand until typing pauses. Whether it still parses is then checked
 * by parsing it again; the caller must do that before anything else reads the new text.
 */
export function editInsideIgnoredDocument(previous: ManifestFile, text: string): boolean {
  const old = previous.text;
  // Most files hold no such document: they are told apart without comparing their texts.
  if (old === text || !previous.documents.some(isIgnoredHugeDocument)) return false;
  const start = commonPrefixLength(old, text);
  const end = commonSuffixLength(old, text, Math.min(old.length, text.length) - start);
  const removed = old.slice(start, old.length - end);
  const inserted = text.slice(start, text.length - end);
  if (/[\r\n]/.test(removed) || /[\r\n]/.test(inserted)) return false;
  const document = previous.documents.find((d) => start > d.offset && old.length - end < d.offset + d.text.length);
  if (!document || !isIgnoredHugeDocument(document)) return false;
  // An indented line holds no top-level key: apiVersion, kind and metadata stay as they were.
  const lineStart = old.lastIndexOf('\n', start - 1) + 1;
  return lineStart > document.offset && /^[ \t]/.test(old.slice(lineStart, lineStart + 1)) && !/^[ \t]*$/.test(old.slice(lineStart, start));
}

/** A huge document that parsed cleanly and holds only kinds no rule reads. */
function isIgnoredHugeDocument(document: ManifestDocument): boolean {
  if (document.text.length < HUGE_DOCUMENT_CHARACTERS || document.parsed.error || document.parsed.templateAt !== undefined) return false;
  return document.resources.length > 0 && document.resources.every((r) => KINDS_NO_RULE_READS.has(r.kind));
}
