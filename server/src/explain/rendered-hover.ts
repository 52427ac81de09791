import { basename } from 'node:path';
import type { Finding } from '../rules/types';
import { findingTitleLine, type RuleHref } from './card';
import { markdownText } from './markdown-text';

/**
 * The hover on a template, values, base or patch line that holds findings on what its chart or overlay
 * renders: each finding by rule title with where its value comes from (a values key, a patch), and the unit
 * it was rendered from. The diagnostic's own text is not repeated: the editor shows it above.
 */
export function renderedHover(findings: readonly Finding[], line: number, ruleHref?: RuleHref): string | undefined {
  const here = findings.filter((f) => f.rendered && f.range?.start.line === line);
  if (!here.length) return undefined;
  const unit = here[0].rendered!;
  const heading = `**As ${unit.tool === 'helm' ? 'the chart renders it' : 'the overlay builds it'}** — ${markdownText(basename(unit.unit))}`;
  return [heading, '', ...here.map((f) => `${findingTitleLine(f, ruleHref)}${f.origin ? ` — from ${markdownText(f.origin)}` : ''}`)].join('\n');
}
