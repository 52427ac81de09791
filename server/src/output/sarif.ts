import type { Finding, Rule, Severity } from '../rules/types';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

function region(finding: Finding) {
  const r = finding.range!;
  return { startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** A file as SARIF names it: a URI reference (forward slashes, spaces and the like escaped), relative paths kept relative. */
function artifactUri(file: string): string {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(file)) return file;
  return encodeURI(file.replace(/\\/g, '/')).replace(/[?#]/g, encodeURIComponent);
}

/** SARIF 2.1.0 with one run; cluster findings (no file) carry a logical location naming the resource. */
export function toSarif(findings: readonly Finding[], rules: readonly Rule[], version: string): object {
  const index = new Map(rules.map((rule, i) => [rule.meta.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kube-resilience',
            version,
            rules: rules.map((rule) => ({
              id: rule.meta.id,
              name: rule.meta.id,
              shortDescription: { text: rule.meta.title },
              fullDescription: { text: rule.meta.description },
              help: { text: `${rule.meta.description}${rule.meta.fix ? ` Fix: ${rule.meta.fix}` : ''}` },
              defaultConfiguration: { level: LEVEL[rule.meta.severity] },
              properties: { tags: [rule.meta.scenario] },
            })),
          },
        },
        results: findings.map((finding) => ({
          ruleId: finding.ruleId,
          ...(index.has(finding.ruleId) ? { ruleIndex: index.get(finding.ruleId) } : {}),
          level: LEVEL[finding.severity],
          message: { text: finding.message },
          locations:
            finding.uri && finding.range
              ? [{ physicalLocation: { artifactLocation: { uri: artifactUri(finding.uri) }, region: region(finding) } }]
              : finding.resource
                ? [{ logicalLocations: [{ kind: 'resource', name: finding.resource.name ?? finding.resource.kind, fullyQualifiedName: `${finding.resource.kind}/${finding.resource.namespace ? `${finding.resource.namespace}/` : ''}${finding.resource.name ?? ''}` }] }]
                : [],
          relatedLocations: finding.related.map((r, id) => ({
            id,
            message: { text: r.message },
            physicalLocation: { artifactLocation: { uri: artifactUri(r.uri) }, region: { startLine: r.range.start.line + 1, startColumn: r.range.start.character + 1 } },
          })),
        })),
      },
    ],
  };
}
