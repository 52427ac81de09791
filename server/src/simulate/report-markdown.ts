import { withoutControls } from '../printable';
import { capacityVerdict, describeScenario } from './describe';
import { formatSeconds } from './format-time';
import type { ReportOptions } from './report-text';
import { reasonWithoutSubject, subjectName } from './summary';
import type { SimulationResult } from './types';

/**
 * Text as a table cell or line of the report: what would draw a column, a link or image, HTML, an entity, a code
 * span, emphasis or strikethrough is escaped, and hidden characters are written as their escapes (names come from
 * manifests and clusters; a PR comment rendered a workload's `<img …>`). Renderers link bare URLs and addresses and
 * mention `@someone` whatever is escaped around them: those are broken up, as security reports do (`https[:]//`).
 */
function cell(text: string): string {
  return withoutControls(text)
    .replace(/[\\|[\]<>`*_~]/g, (c) => `\\${c}`)
    .replaceAll('&', '&amp;')
    .replaceAll('://', '\\[:\\]//')
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}\\[.\\]`)
    .replace(/(^|[^\w-])@(?=[\w-])|@(?=[\w-]+\.[\w-])/g, (_match, before: string | undefined) => `${before ?? ''}\\[@\\]`);
}

/** The simulation as a Markdown report (the CLI's --format markdown and the webview's export). */
export function renderSimulationMarkdown(result: SimulationResult, options: ReportOptions = {}): string {
  const out: string[] = [];
  out.push(`# What if ${cell(describeScenario(result.scenario))}?`);
  out.push('');
  if (options.cluster) out.push(`Cluster: **${cell(options.cluster)}** · simulated until ${formatSeconds(result.end ?? 0)}`, '');
  out.push('## First impacts', '');
  for (const line of result.summary ?? []) out.push(`- ${cell(line)}`);
  out.push('', '## Workloads', '', '| workload | kind | placement | lowest serving | worst blackholed | first hit | whole again |', '|---|---|---|---|---|---|---|');
  for (const w of result.workloads) {
    const v = capacityVerdict(w);
    out.push(
      `| ${cell(`${w.namespace}/${w.name}`)} | ${w.kind} | ${w.placement} | ${v.desired ? `${v.lowest}/${v.lowestOf}` : '—'} | ${Math.round(v.worstBlackholed * 100)} % | ${v.firstHit === undefined ? '—' : formatSeconds(v.firstHit)} | ${v.firstHit === undefined ? '—' : v.wholeAgain === undefined ? 'not by the end' : formatSeconds(v.wholeAgain)} |`,
    );
  }
  out.push('', '## Cluster functions', '', '| function | states |', '|---|---|');
  for (const c of result.components) out.push(`| ${cell(c.name)} | ${c.states.map((s) => `${s.state} at ${formatSeconds(s.at)}`).join(' → ')} |`);
  out.push('', '## Timeline', '', '| at | subject | state | what happens | rests on |', '|---|---|---|---|---|');
  for (const e of result.timeline) out.push(`| ${formatSeconds(e.at)} | ${cell(subjectName(e))} | ${e.state} | ${cell(reasonWithoutSubject(e))} | ${cell(e.fact)} |`);
  if (result.assumptions.length) {
    out.push('', '## Assumptions', '');
    for (const a of result.assumptions) out.push(`- ${cell(a)}`);
  }
  out.push('');
  return out.map(withoutControls).join('\n');
}
