import type { Finding, Severity } from '../rules/types';
import { plural } from '../words';

const COLOURS: Record<Severity | 'dim' | 'bold' | 'reset', string> = {
  error: '\x1b[31m',
  warning: '\x1b[33m',
  info: '\x1b[36m',
  hint: '\x1b[90m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
};

/** Kind/namespace/name of a finding that has no place in a file. */
function resourcePath(finding: Finding): string {
  const r = finding.resource;
  if (!r) return '';
  return [r.kind, r.namespace, r.name ?? ''].filter((part) => part !== '').join('/');
}

/** The report for people: findings grouped by file, then a summary line. */
export function toText(findings: readonly Finding[], fileCount: number, colour: boolean): string {
  const paint = (kind: keyof typeof COLOURS, text: string) => (colour ? `${COLOURS[kind]}${text}${COLOURS.reset}` : text);
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = f.uri ?? '(cluster)';
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const lines: string[] = [];
  for (const [file, list] of groups) {
    lines.push(paint('bold', file));
    for (const f of list) {
      const where = f.range ? `${f.range.start.line + 1}:${f.range.start.character + 1}` : resourcePath(f);
      const fixable = f.fixes.some((x) => x.preferred) ? paint('dim', ' (fixable)') : '';
      lines.push(`  ${paint('dim', where.padEnd(8))} ${paint(f.severity, f.severity.padEnd(7))} ${f.message}  ${paint('dim', f.ruleId)}${fixable}`);
    }
    lines.push('');
  }
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const summary = `${plural(findings.length, 'finding')} (${count('error')} errors, ${count('warning')} warnings, ${count('info') + count('hint')} info) in ${plural(fileCount, 'file')}`;
  lines.push(findings.length ? paint('bold', summary) : paint('bold', `No findings in ${plural(fileCount, 'file')}.`));
  return lines.join('\n');
}
