import type { Finding } from '../rules/types';
import { ruleById } from '../rules/index';
import { ruleLabel, type RuleHref } from './card';

type RenderedFinding = Finding & { rendered?: { tool: 'helm' | 'kustomize'; unit: string } };

/**
 * The hover on a template, values, base or patch line that holds findings on what its chart or overlay
 * renders: each finding by rule title with where its value comes from (a values key, a patch), and the unit
 * it was rendered from. The diagnostic's own text is not repeated: the editor shows it above.
 */
export function renderedHover(findings: readonly RenderedFinding[], line: number, ruleHref?: RuleHref): string | undefined {
  const here = findings.filter((f) => f.rendered && f.range?.start.line === line);
  if (!here.length) return undefined;
  const unit = here[0].rendered!;
  const lines = [`**As ${unit.tool === 'helm' ? 'the chart renders it' : 'the overlay builds it'}** — ${unit.unit.split(/[\\/]/).pop()}`, ''];
  for (const f of here) {
    const origin = /\(from ([^()]*)\)$/.exec(f.message)?.[1];
    lines.push(`- ${ruleLabel(f.ruleId, ruleHref)} (${f.severity}): ${ruleById(f.ruleId)?.meta.title ?? f.ruleId}${origin ? ` — from ${origin}` : ''}`);
  }
  return lines.join('\n');
}
