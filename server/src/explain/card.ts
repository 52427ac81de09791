import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { ruleById } from '../rules/index';
import type { Finding } from '../rules/types';
import { liveLine } from './cluster-facts';
import { postureOf } from './posture';
import { postureLines } from './posture-line';
import { scenarioRows } from './scenarios';
import { TIMING_SOURCES } from './timings';
import { verdictLine } from './verdict';
import { markdownText } from './markdown-text';

export interface CardOptions {
  /** What the live cluster says about this workload, in one line; without it the card asks the cluster itself. */
  liveLine?: string;
  /** Where a rule's documentation lives, so each finding links to it as its diagnostic does. */
  ruleHref?: RuleHref;
  /** Where a fact sheet (docs/facts/<sheet>.md) lives, so the timings link their sources. */
  factsHref?: (sheet: string) => string | undefined;
  /** A link that ends the card on the line of the timing sources (the simulator's drain of this workload's node). */
  action?: string;
}

export type RuleHref = (ruleId: string) => string | undefined;

/** Visible characters a line of the card may take: a default hover is about 70–80 wide, and wraps once at most. */
const LINE_WIDTH = 100;

/** `rule-id`, linked to the rule's page when there is one; `title` shows when the pointer rests on the link. */
export function ruleLabel(ruleId: string, ruleHref?: RuleHref, title?: string): string {
  const href = ruleHref?.(ruleId);
  const tip = title ? ` "${title.replace(/"/g, "'")}"` : '';
  return href ? `[\`${ruleId}\`](${href}${tip})` : `\`${ruleId}\``;
}

/** A finding named in a hover: its rule (linked), its severity and the rule's title, not its message (the editor shows that above). */
export function findingTitleLine(finding: Finding, ruleHref?: RuleHref): string {
  // Without a rule of ours (a chart's render error), the message says it: text a template's `fail` wrote, shown as written.
  return `- ${ruleLabel(finding.ruleId, ruleHref)} (${finding.severity}): ${ruleById(finding.ruleId)?.meta.title ?? markdownText(finding.message)}`;
}

/**
 * The findings by rule id in one line, each linked to its rule page with the rule's title as the link's
 * tooltip (never the message: the editor shows that on the finding's own line); what does not fit in
 * LINE_WIDTH is counted, so that the card fits a hover without scrolling.
 */
function findingsLine(findings: readonly Finding[], ruleHref?: RuleHref): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
  const ids = [...counts];
  const more = (n: number) => `+${n} more in the Problems panel`;
  const labels: string[] = [];
  let width = 'Findings: '.length;
  for (const [i, [ruleId, count]] of ids.entries()) {
    const times = count > 1 ? ` ×${count}` : '';
    const needed = ruleId.length + times.length + ' · '.length;
    // Room is kept to count what cannot be named.
    const reserve = i < ids.length - 1 ? more(ids.length).length : 0;
    if (width + needed + reserve > LINE_WIDTH) {
      labels.push(more(ids.length - i));
      break;
    }
    labels.push(`${ruleLabel(ruleId, ruleHref, ruleById(ruleId)?.meta.title)}${times}`);
    width += needed;
  }
  return `Findings: ${labels.join(' · ')}`;
}

function timingSourcesLine(factsHref?: (sheet: string) => string | undefined): string {
  const sources = TIMING_SOURCES.map(({ sheet, sections }) => {
    const href = factsHref?.(sheet);
    return `${href ? `[${sheet}.md](${href})` : `facts/${sheet}.md`} ${sections}`;
  });
  return `_Timings: ${sources.join(', ')}_`;
}

/**
 * The resilience card shown on a workload's `kind` line, sized to a hover without scrolling: a verdict,
 * a table of what each failure does, then the findings, the posture and the live cluster in a line each.
 */
export function resilienceCard(resource: Resource, inventory: Inventory, findings: readonly Finding[], cluster?: ClusterInfo, options: CardOptions = {}): string {
  const p = postureOf(resource, inventory);
  const rows = scenarioRows(p);
  const lines = [verdictLine(resource, p, rows, findings), '', '| Failure | What happens |', '| --- | --- |', ...rows.map((r) => `| ${r.scenario} | ${r.text} |`), ''];
  if (findings.length) lines.push(findingsLine(findings, options.ruleHref), '');
  lines.push(...postureLines(p, resource).flatMap((line) => [line, '']));
  // A caller (the server) may bring its own line; otherwise the cluster speaks through cluster-facts.
  const live = options.liveLine ?? (cluster ? liveLine(resource, inventory, cluster) : undefined);
  if (live) lines.push(live, '');
  lines.push([options.action, timingSourcesLine(options.factsHref)].filter(Boolean).join(' · '));
  return lines.join('\n');
}
