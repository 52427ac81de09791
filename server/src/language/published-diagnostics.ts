import type { Diagnostic } from 'vscode-languageserver/node';
import type { Finding } from '../rules/types';
import { unchangedEnds } from '../unchanged-ends';

/** What was published for a document: its findings, and the diagnostic each was sent as (in the same order). */
export interface Published {
  findings: Finding[];
  diagnostics: Diagnostic[];
}

/**
 * The diagnostic of each finding, reusing those sent before for the findings sent before. An edit leaves
 * the findings before and after those it changed in place (the same objects), so only the ones between are
 * looked up: a map of every finding, built on each keystroke, was 2–3 ms of the first ones on a 35k-line file.
 */
export function diagnosticsReusing(before: Published | undefined, findings: Finding[], toNew: (finding: Finding) => Diagnostic): Diagnostic[] {
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
