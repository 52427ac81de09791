import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, type WorkspaceEdit } from 'vscode-languageserver';
import { offeredTitle, type Fix } from '../fixes/edit';
import type { LineIndex } from '../manifest/text';
import type { Finding, Severity } from '../rules/types';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toDiagnostic(finding: Finding, docsHref: (ruleId: string) => string | undefined): Diagnostic {
  const href = docsHref(finding.ruleId);
  return {
    range: finding.range!,
    severity: SEVERITY[finding.severity],
    source: 'kube-resilience',
    code: finding.ruleId,
    ...(href ? { codeDescription: { href } } : {}),
    message: finding.message,
    relatedInformation: finding.related.map((r) => ({ location: { uri: r.uri, range: r.range }, message: r.message })),
  };
}

export function toWorkspaceEdit(uri: string, lines: LineIndex, fix: Fix): WorkspaceEdit {
  return { changes: { [uri]: fix.edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.text })) } };
}

export function toCodeAction(uri: string, lines: LineIndex, fix: Fix, diagnostic: Diagnostic): CodeAction {
  return {
    title: offeredTitle(fix),
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: !!fix.preferred && !fix.unsafe,
    edit: toWorkspaceEdit(uri, lines, fix),
  };
}
