import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { yamlLines, yamlScalar } from '../fixes/yaml-text';
import { readSourceText } from './source-yaml';
import { nameTaken } from '../files/file-kind';
import { matchPath, wholeFileCondition, wholeFileIf, type Skeleton, type SkeletonNode } from './template-skeleton';

export interface PdbTemplateInput {
  templatesDir: string;
  release: string;
  /** The text of the template that renders the workload. */
  workloadTemplate: string;
  skeleton: Skeleton;
  /** The workload as rendered. */
  workload: any;
  /** The PodDisruptionBudget the fix wants, as rendered. */
  pdb: any;
}

/**
 * A new chart template for a PodDisruptionBudget of a workload another template renders. It names and
 * selects the way the workload's template does (its name expression, its namespace, the chart's own
 * selector-labels helper when the workload uses one), so it follows the release name and values; where
 * the workload's template writes them literally, so does it. It renders under the same condition as
 * the workload's template when that template is wrapped in one, and not when the chart's own budget for
 * those pods, behind a switch, is turned on.
 */
export function pdbTemplate(input: PdbTemplateInput): { path: string; text: string } | undefined {
  const { pdb, workload, skeleton } = input;
  if (pdb?.kind !== 'PodDisruptionBudget' || typeof pdb.metadata?.name !== 'string') return undefined;
  const fileName = `${pdb.metadata.name.startsWith(`${input.release}-`) ? pdb.metadata.name.slice(input.release.length + 1) : pdb.metadata.name}`.replace(/[^\w.-]/g, '-');
  const path = join(input.templatesDir, `${fileName.endsWith('-pdb') ? fileName : `${fileName}-pdb`}.yaml`);
  if (nameTaken(path)) return undefined;
  const lines = input.workloadTemplate.split('\n').map((l) => l.replace(/\r$/, ''));
  const nameNode = matchPath(skeleton, ['metadata', 'name']).nodes[1];
  const namespaceNode = matchPath(skeleton, ['metadata', 'namespace']).nodes[1];
  const suffix = typeof workload?.metadata?.name === 'string' && pdb.metadata.name.startsWith(workload.metadata.name) ? pdb.metadata.name.slice(workload.metadata.name.length) : undefined;
  const name = nameNode && suffix !== undefined ? `${nameNode.value}${suffix}` : yamlScalar(pdb.metadata.name);
  const { selector, ...budget } = pdb.spec ?? {};
  const out = ['apiVersion: policy/v1', 'kind: PodDisruptionBudget', 'metadata:', `  name: ${name}`];
  if (namespaceNode?.value) out.push(`  namespace: ${namespaceNode.value}`);
  out.push('spec:', ...yamlLines(budget, 2), '  selector:', '    matchLabels:');
  const written = matchLabelsLines(lines, skeleton, 6);
  out.push(...(written ?? yamlLines(selector?.matchLabels ?? {}, 6)));
  let text = out;
  // The chart's own budget for these pods, off now, is what a user turns on: this one then steps aside (two
  // budgets over one pod make every eviction of it fail).
  const own = written ? ownBudgetConditions(input.templatesDir, written) : [];
  if (own.length) text = [`{{- if not ${own.length === 1 ? `(${own[0]})` : `(or ${own.map((c) => `(${c})`).join(' ')})`} }}`, ...text, '{{- end }}'];
  const guard = wholeFileCondition(lines);
  if (guard) text = [guard.open, ...text, guard.close];
  return { path, text: `${text.join('\n')}\n` };
}

/**
 * The conditions of the chart's own PodDisruptionBudget templates that select the same pods (their selector
 * lines are the workload's) and render only under a condition that wraps the whole file: a switch in values.
 */
function ownBudgetConditions(templatesDir: string, selectorLines: string[]): string[] {
  const wanted = selectorLines.map(comparable);
  const conditions: string[] = [];
  for (const name of templateNames(templatesDir)) {
    const text = readSourceText(join(templatesDir, name));
    if (!text || !/^kind:\s*PodDisruptionBudget\s*$/m.test(text)) continue;
    const present = new Set(text.split('\n').map((l) => comparable(l.replace(/\r$/, ''))));
    if (!wanted.every((line) => present.has(line))) continue;
    const condition = wholeFileIf(text);
    if (condition) conditions.push(condition);
  }
  return conditions;
}

/** `| nindent 6` in a template action: the column what it includes is moved to. */
const INDENT_ACTION = /\|\s*(n?indent)\s+\d+/;

/** A template line as written, whatever its indentation (`nindent 6` here, `nindent 8` there). */
function comparable(line: string): string {
  // Inside a `with` the chart's budget passes the root as `$` where the workload passes `.`: the same labels.
  return line.trim().replace(INDENT_ACTION, '| $1').replace(/(\binclude\s+"[^"]*"\s+)\$(?=[\s)|]|$)/g, '$1.');
}

function templateNames(templatesDir: string): string[] {
  try {
    return readdirSync(templatesDir).filter((name) => /\.ya?ml$/i.test(name)).sort();
  } catch {
    return [];
  }
}

/**
 * The lines under the workload template's `spec.selector.matchLabels`, moved to `column`: literal labels
 * and the chart's helper (`{{- include "chart.selectorLabels" . | nindent 6 }}`). Undefined when the
 * template writes them some other way (then the rendered labels are written literally).
 */
function matchLabelsLines(lines: string[], skeleton: Skeleton, column: number): string[] | undefined {
  const match = matchPath(skeleton, ['spec', 'selector', 'matchLabels']);
  if (match.depth !== 3) return undefined;
  const node = match.nodes[2];
  if (node.value !== '' || node.children.length === 0) return undefined;
  const last = lastLine(node);
  const childColumn = node.children.filter((c) => c.kind !== 'opaque').map((c) => c.column)[0];
  const shift = childColumn === undefined ? 0 : column - childColumn;
  const out: string[] = [];
  for (const line of lines.slice(node.line + 1, last + 1)) {
    const trimmed = line.trimStart();
    if (/^\{\{/.test(trimmed)) out.push(' '.repeat(column) + trimmed.replace(INDENT_ACTION, `| $1 ${column}`));
    else out.push(shift >= 0 ? ' '.repeat(shift) + line : line.slice(-shift));
  }
  return out;
}

function lastLine(node: SkeletonNode): number {
  return node.children.reduce((max, child) => Math.max(max, lastLine(child)), node.line);
}

