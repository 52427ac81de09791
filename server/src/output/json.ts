import { reportedFixes } from '../render/analyze-unit';
import type { Finding } from '../rules/types';

/** The CLI's JSON report: one object, version 1, LSP-style 0-based ranges. */
export function toJsonReport(findings: readonly Finding[]): string {
  return JSON.stringify(
    {
      version: 1,
      findings: findings.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        file: f.uri,
        range: f.range,
        resource: f.resource,
        fixes: reportedFixes(f).map((fix) => ({ title: fix.title, preferred: !!fix.preferred, ...(fix.unsafe ? { unsafe: fix.unsafe } : {}) })),
        ...(f.rendered ? { rendered: f.rendered } : {}),
      })),
    },
    null,
    2,
  );
}
