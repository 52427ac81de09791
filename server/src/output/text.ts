import { groupBy } from '../grouped';
import { withoutControls } from '../printable';
import { preferredFix } from '../fixes/apply';
import { isUnitFinding, preferredSourceFix } from '../render/analyze-unit';
import { compareFindings } from '../rules/engine';
import type { Finding, Severity } from '../rules/types';
import { plural } from '../words';
import { splitMessage } from '../rules/message-parts';
import { wrap } from './wrap';

const COLOURS: Record<Severity | 'dim' | 'bold' | 'reset', string> = {
  error: '\x1b[31m',
  warning: '\x1b[33m',
  info: '\x1b[36m',
  hint: '\x1b[90m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
};

export interface TextOptions {
  colour: boolean;
  /** Print each finding's whole message (why, timings, what to do), not only its first sentence. */
  verbose?: boolean;
  /** Wrap lines to this many columns (a terminal's width); undefined: no wrapping. */
  width?: number;
}

/** Kind/namespace/name of a finding that has no place in a file. */
function resourcePath(finding: Finding): string {
  const r = finding.resource;
  if (!r) return '';
  return [r.kind, r.namespace, r.name ?? ''].filter((part) => part !== '').join('/');
}

const WHERE_WIDTH = 8;
const SEVERITY_WIDTH = 7;
/** Where a wrapped message continues: under the message, past location and severity. */
const INDENT = ' '.repeat(2 + WHERE_WIDTH + 1 + SEVERITY_WIDTH + 1);

/** "1 error, 2 warnings, 3 hints": the counts there are, each with its own noun. */
export function severityCounts(findings: readonly Finding[]): string {
  const nouns: Record<Severity, [string, string]> = { error: ['error', 'errors'], warning: ['warning', 'warnings'], info: ['info', 'info'], hint: ['hint', 'hints'] };
  return (Object.keys(nouns) as Severity[])
    .map((severity) => [severity, findings.filter((f) => f.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => plural(count, ...nouns[severity]))
    .join(', ');
}

/** What `--fix` would do about a finding (a rendered one's fixes are edits of its chart's or overlay's files). */
function fixableNote(finding: Finding): string {
  const preferred = (allowUnsafe: boolean) => (isUnitFinding(finding) ? preferredSourceFix(finding, allowUnsafe) : preferredFix(finding, allowUnsafe));
  return preferred(false) ? ' (fixable)' : preferred(true) ? ' (fixable with --unsafe-fixes)' : '';
}

/** Why some of a rendered finding's fixes are not written in its chart or overlay (the JSON report's unwrittenFixes). */
function unwrittenNotes(finding: Finding): string[] {
  if (!isUnitFinding(finding)) return [];
  // Titles name resources as files and clusters spell them: no terminal escape of theirs is written either.
  return finding.unwrittenFixes.map(({ title, reason }) => withoutControls(`Not written (${title}): ${reason}.`));
}

/** The report for people: findings grouped by file, then a summary line. */
export function toText(findings: readonly Finding[], fileCount: number, options: TextOptions): string {
  const { colour, verbose, width } = options;
  const paint = (kind: keyof typeof COLOURS, text: string) => (colour ? `${COLOURS[kind]}${text}${COLOURS.reset}` : text);
  const groups = groupBy(findings, (f) => f.uri ?? '(cluster)');
  const lines: string[] = [];
  for (const [file, list] of groups) {
    // By line: a chart's values file gathers findings of several renders, in the order they were rendered.
    list.sort(compareFindings);
    // Names in files and clusters may hold terminal escapes: our own colours are the only ones written.
    lines.push(paint('bold', withoutControls(file)));
    for (const f of list) {
      const where = withoutControls(f.range ? `${f.range.start.line + 1}:${f.range.start.character + 1}` : resourcePath(f));
      const fixable = fixableNote(f);
      const { headline, details } = splitMessage(withoutControls(f.message));
      const tail = `${f.ruleId}${fixable}`;
      const body = wrap(headline, width, INDENT.length);
      const last = body.length - 1;
      // The rule id ends the message, dimmed, on a line of its own when the last one has no room.
      if (width && INDENT.length + body[last].length + 2 + tail.length > width) body.push(paint('dim', tail));
      else body[last] = `${body[last]}  ${paint('dim', tail)}`;
      // Wrapped to a terminal, a place wider than its column (a cluster resource's path) goes on a line of its own,
      // so that the message starts where the wrap counted it to.
      const placeAbove = !!width && where.length > WHERE_WIDTH;
      if (placeAbove) lines.push(`  ${paint('dim', where)}`);
      lines.push(`  ${paint('dim', (placeAbove ? '' : where).padEnd(WHERE_WIDTH))} ${paint(f.severity, f.severity.padEnd(SEVERITY_WIDTH))} ${body[0]}`);
      for (const line of body.slice(1)) lines.push(`${INDENT}${line}`);
      if (verbose && details) for (const line of wrap(details, width, INDENT.length)) lines.push(`${INDENT}${paint('dim', line)}`);
      if (verbose) for (const line of unwrittenNotes(f).flatMap((note) => wrap(note, width, INDENT.length))) lines.push(`${INDENT}${paint('dim', line)}`);
    }
    lines.push('');
  }
  const summary = `${plural(findings.length, 'finding')} (${severityCounts(findings)}) in ${plural(fileCount, 'file')}`;
  lines.push(findings.length ? paint('bold', summary) : paint('bold', `No findings in ${plural(fileCount, 'file')}.`));
  return lines.join('\n');
}
