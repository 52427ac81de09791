import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, type Position, type TextEdit as LspTextEdit, type WorkspaceEdit } from 'vscode-languageserver';
import { offeredTitle, type Fix, type TextEdit } from '../fixes/edit';
import { LineIndex } from '../manifest/text';
import type { SourceFix } from '../render/analyze-unit';
import { pathToFileURL } from 'node:url';
import { splitMessage } from '../rules/message-parts';
import type { Finding, Severity } from '../rules/types';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/**
 * The Problems panel shows a diagnostic's message on one line: it gets the finding's first sentence, and
 * the rest (why, timings, what to do) comes first among the related information, at the finding itself.
 */
export function toDiagnostic(finding: Finding, documentUri: string, docsHref: (ruleId: string) => string | undefined): Diagnostic {
  const href = docsHref(finding.ruleId);
  const { headline, details } = splitMessage(finding.message);
  const own = details ? [{ location: { uri: documentUri, range: finding.range! }, message: details }] : [];
  return {
    range: finding.range!,
    severity: SEVERITY[finding.severity],
    source: 'kube-resilience',
    code: finding.ruleId,
    ...(href ? { codeDescription: { href } } : {}),
    message: headline,
    relatedInformation: [...own, ...finding.related.map((r) => ({ location: { uri: r.uri, range: r.range }, message: r.message }))],
  };
}

/** Edits as the protocol writes them: `position` places an offset of the text they edit. */
export function toTextEdits(edits: readonly TextEdit[], position: (offset: number) => Position): LspTextEdit[] {
  return edits.map((e) => ({ range: { start: position(e.start), end: position(e.end) }, newText: e.text }));
}

/**
 * Edits of one document as a workspace edit; of its version when `version` is given, which a client then
 * refuses once the document has changed (the edits would land in the wrong places).
 */
export function documentEdit(uri: string, edits: LspTextEdit[], version?: number): WorkspaceEdit {
  return version === undefined ? { changes: { [uri]: edits } } : { documentChanges: [{ textDocument: { uri, version }, edits }] };
}

/** A quick fix of the document at `version` (see documentEdit), its offsets placed by `lines`. */
export function toCodeAction(uri: string, lines: LineIndex, fix: Fix, diagnostic: Diagnostic, version?: number): CodeAction {
  return {
    title: offeredTitle(fix),
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: !!fix.preferred && !fix.unsafe,
    edit: documentEdit(uri, toTextEdits(fix.edits, (offset) => lines.position(offset)), version),
  };
}

/**
 * A fix of a rendered finding as a code action: edits in the chart's or overlay's files (values files,
 * templates, patches), and new files created with their content. Undefined when a file cannot be read.
 */
export function toSourceCodeAction(
  fix: SourceFix,
  diagnostic: Diagnostic,
  readText: (path: string) => string | undefined,
  openDocument: (path: string) => { uri: string; version: number } | undefined = () => undefined,
): CodeAction | undefined {
  const documentChanges: NonNullable<WorkspaceEdit['documentChanges']> = [];
  for (const create of fix.edits.creates) {
    const uri = pathToFileURL(create.path).toString();
    // A file there by now (written meanwhile, a link) makes the editor refuse the whole edit: ignored, the text
    // below went into it, in front of what it held or through the link.
    documentChanges.push({ kind: 'create', uri, options: { overwrite: false, ignoreIfExists: false } });
    documentChanges.push({ textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: create.text }] });
  }
  for (const file of fix.edits.edits) {
    const text = readText(file.path);
    // Saved since the fix was computed on it (or unreadable): its offsets would land in the wrong places.
    if (text !== file.against) return undefined;
    const lines = new LineIndex(text);
    // Of the version it was written for when the file is open (named by the editor's own uri for it, which may
    // encode the path otherwise): an editor refuses it once the file was typed into since.
    const open = openDocument(file.path);
    documentChanges.push({ textDocument: { uri: open?.uri ?? pathToFileURL(file.path).toString(), version: open?.version ?? null }, edits: toTextEdits(file.edits, (offset) => lines.position(offset)) });
  }
  return { title: offeredTitle(fix), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: !!fix.preferred && !fix.unsafe, edit: { documentChanges } };
}
