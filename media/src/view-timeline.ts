import type { SimulationResult } from '../../server/src/simulate/types';
import { el, present } from './dom';
import { formatSeconds } from '../../server/src/simulate/format-time';
import { summarize } from '../../server/src/simulate/summary';
import { STATE_LABELS } from './format';
import { axisEnd, buildRows, type Row, type Segment } from './rows';
import { rovingFocus } from './roving-focus';
import { position, renderAxis } from './view-axis';

/** One tooltip for every segment, shown on hover and on keyboard focus. */
function tooltipFor(container: HTMLElement): { show(target: HTMLElement, row: Row, segment: Segment): void; hide(): void } {
  const tip = el('div', { class: 'tooltip', attrs: { id: 'timeline-tooltip', role: 'tooltip', hidden: true } });
  container.append(tip);
  return {
    show(target, row, segment) {
      tip.replaceChildren(
        ...present([
          el('div', { class: 'tip-title' }, `${row.label}: ${STATE_LABELS[segment.state]}`, el('span', { class: 'muted' }, ` ${formatSeconds(segment.from)} – ${formatSeconds(segment.to)}`)),
          el('div', {}, segment.reason),
          segment.fact ? el('div', { class: 'tip-fact' }, segment.fact) : null,
        ]),
      );
      tip.hidden = false;
      const box = target.getBoundingClientRect();
      const host = container.getBoundingClientRect();
      const left = Math.min(Math.max(box.left - host.left, 0), Math.max(host.width - tip.offsetWidth, 0));
      tip.style.left = `${left}px`;
      tip.style.top = `${box.bottom - host.top + 4}px`;
    },
    hide() {
      tip.hidden = true;
    },
  };
}

function segmentLabel(row: Row, segment: Segment): string {
  return `${row.label} ${STATE_LABELS[segment.state]} from ${formatSeconds(segment.from)} to ${formatSeconds(segment.to)}: ${segment.reason}${segment.fact ? ` (${segment.fact})` : ''}`;
}

function rowElement(row: Row, end: number, duration: number, focused: boolean, tooltip: ReturnType<typeof tooltipFor>): HTMLElement {
  const segments = row.segments.map((segment, index) =>
    el('div', {
      class: `segment state-${segment.state}`,
      attrs: {
        tabindex: 0,
        role: 'img',
        'aria-label': segmentLabel(row, segment),
        'aria-describedby': 'timeline-tooltip',
        'data-focus': `segment:${row.key}:${index}`,
      },
      // Laid side by side and sized by their share of time: one ends exactly where the next begins.
      style: { 'flex-grow': String(segment.to - segment.from) },
      on: {
        mouseenter: (e) => tooltip.show(e.currentTarget as HTMLElement, row, segment),
        mouseleave: () => tooltip.hide(),
        focus: (e) => tooltip.show(e.currentTarget as HTMLElement, row, segment),
        blur: () => tooltip.hide(),
        keydown: (e) => {
          if (e.key === 'Escape') tooltip.hide();
        },
      },
    }),
  );
  return el(
    'div',
    { class: `row ${row.group}${focused ? ' focused' : ''}`, attrs: { role: 'group', 'aria-label': row.label, 'data-row': row.key } },
    el('div', { class: 'row-label' }, el('span', { class: 'row-name', attrs: { title: row.label } }, row.label), row.detail ? el('span', { class: 'row-detail muted', attrs: { title: row.detail } }, row.detail) : null),
    el('div', { class: 'track states' }, el('div', { class: 'outage', style: { width: position(duration, end) } }), ...segments),
  );
}

export function renderSummary(result: SimulationResult | undefined): HTMLElement {
  const section = el('section', { class: 'summary', attrs: { 'aria-labelledby': 'summary-title' } }, el('h2', { attrs: { id: 'summary-title' } }, 'What happens first'));
  if (!result) return section;
  const sentences = result.summary ?? summarize(result.timeline, result.workloads);
  section.append(el('ol', {}, ...sentences.map((s) => el('li', {}, s.charAt(0).toUpperCase() + s.slice(1)))));
  return section;
}

export function renderTimeline(result: SimulationResult | undefined, focus: { namespace: string; workload: string } | undefined, waiting?: string): HTMLElement {
  const section = el('section', { class: 'timeline', attrs: { 'aria-labelledby': 'timeline-title' } }, el('h2', { attrs: { id: 'timeline-title' } }, 'Timeline'));
  if (!result || waiting) {
    section.append(el('p', { class: waiting ? 'ask' : 'muted', attrs: waiting ? { role: 'status' } : {} }, waiting ?? 'The timeline appears once the scenario has been simulated.'));
    return section;
  }
  // With nothing failing in the control plane there is no outage to draw.
  const outage = result.scenario.fail.kind === 'none' ? 0 : result.scenario.duration;
  const end = axisEnd(result);
  const tooltip = tooltipFor(section);
  const rows = buildRows(result);
  const group = (title: string, list: Row[]) =>
    list.length ? [el('h3', { class: 'row-group' }, title), ...list.map((r) => rowElement(r, end, outage, !!focus && r.workload?.namespace === focus.namespace && r.workload.name === focus.workload, tooltip))] : [];
  const timelineRows = el(
    'div',
    { class: 'rows', attrs: { role: 'group', 'aria-label': 'Timeline rows: arrow keys move between segments, Up and Down between rows' } },
    renderAxis(end, outage),
    ...group('Cluster functions', rows.filter((r) => r.group === 'function')),
    ...group('Nodes', rows.filter((r) => r.group === 'node')),
    ...group('Workloads', rows.filter((r) => r.group === 'workload')),
  );
  section.append(
    el(
      'div',
      { class: 'legend', attrs: { 'aria-label': 'Legend' } },
      ...(['ok', 'degraded', 'down'] as const).map((s) => el('span', { class: 'legend-item' }, el('span', { class: `swatch state-${s}` }), STATE_LABELS[s])),
      outage > 0 ? el('span', { class: 'legend-item' }, el('span', { class: 'swatch outage' }), 'outage') : null,
    ),
    timelineRows,
  );
  rovingFocus(timelineRows, '.segment', '.row');
  if (result.assumptions.length) section.append(el('details', { class: 'assumptions' }, el('summary', {}, `Assumptions (${result.assumptions.length})`), el('ul', {}, ...result.assumptions.map((a) => el('li', {}, a)))));
  return section;
}
