import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import type { Finding } from '../rules/types';
import { unchangedEnds } from '../unchanged-ends';

/** What was published for a document: its findings, and the diagnostic each was sent as (in the same order). */
export interface Published {
  findings: Finding[];
  diagnostics: Diagnostic[];
  /** Every finding of the document, of which `findings` are those shown (see shownFindings). */
  all: Finding[];
}

/**
 * The diagnostic of each finding, reusing those sent before for the findings sent before. An edit leaves
 * the findings before and after those it changed in place (the same objects), so only the ones between are
 * looked up: a map of every finding, built on each keystroke, was 2–3 ms of the first ones on a 35k-line file.
 */
export function diagnosticsReusing(before: Pick<Published, 'findings' | 'diagnostics'> | undefined, findings: Finding[], toNew: (finding: Finding) => Diagnostic): Diagnostic[] {
  if (!before) return findings.map(toNew);
  const { head, tail } = unchangedEnds(before.findings, findings, (a, b) => a === b);
  const middle = new Map<Finding, Diagnostic>();
  for (let i = head; i < before.findings.length - tail; i++) middle.set(before.findings[i], before.diagnostics[i]);
  const diagnostics = new Array<Diagnostic>(findings.length);
  for (let i = 0; i < findings.length; i++) {
    if (i < head) diagnostics[i] = before.diagnostics[i];
    else if (i >= findings.length - tail) diagnostics[i] = before.diagnostics[i - findings.length + before.findings.length];
    else diagnostics[i] = middle.get(findings[i]) ?? toNew(findings[i]);
  }
  return diagnostics;
}

/**
 * The most diagnostics a document is sent: a 30 MB file of 115,000 Deployments made 230,000, one message of 166 MB
 * that took 3.4 s to write while every request waited (and 2.2 GB). Code actions and Fix all still see every finding.
 */
export const MAX_DIAGNOSTICS = 10_000;

const SEVERITY_RANK: Record<Finding['severity'], number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** The findings a document shows: all of them, or the MAX_DIAGNOSTICS most severe, in their order in the file. */
export function shownFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_DIAGNOSTICS) return findings;
  const order = findings.map((_, i) => i).sort((a, b) => SEVERITY_RANK[findings[a].severity] - SEVERITY_RANK[findings[b].severity] || a - b);
  return order.slice(0, MAX_DIAGNOSTICS).sort((a, b) => a - b).map((i) => findings[i]);
}

/** What a document whose findings were cut to MAX_DIAGNOSTICS says of the rest, at its top. */
export function notShownDiagnostic(total: number): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: 'kube-resilience',
    message: `${(total - MAX_DIAGNOSTICS).toLocaleString('en-US')} more findings in this file are not shown: the editor shows the ${MAX_DIAGNOSTICS.toLocaleString('en-US')} most severe of its ${total.toLocaleString('en-US')}. \`kube-resilience check\` lists every one.`,
  };
}
