import { isUnitFinding, reportedFixes } from '../render/analyze-unit';
import type { Finding } from '../rules/types';
import { jsonText } from '../printable';

/** The cluster a report was made with, and the resource types it did not let be read (their findings are missing too). */
export interface ReportedCluster {
  source: string;
  name: string;
  missing: readonly { resource: string; reason: string }[];
}

/** The CLI's JSON report: one object, version 1, LSP-style 0-based ranges; with `cluster` when one was read. */
export function toJsonReport(findings: readonly Finding[], cluster?: ReportedCluster): string {
  return jsonText(
    {
      version: 1,
      ...(cluster ? { cluster: { source: cluster.source, name: cluster.name, missing: cluster.missing.map(({ resource, reason }) => ({ resource, reason })) } } : {}),
      findings: findings.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        file: f.uri,
        range: f.range,
        resource: f.resource,
        fixes: reportedFixes(f).map((fix) => ({ title: fix.title, preferred: !!fix.preferred, ...(fix.unsafe ? { unsafe: fix.unsafe } : {}) })),
        ...(f.rendered ? { rendered: f.rendered } : {}),
        ...(isUnitFinding(f) && f.unwrittenFixes.length ? { unwrittenFixes: f.unwrittenFixes.map(({ title, reason }) => ({ title, reason })) } : {}),
      })),
    },
  );
}
