// What makes the simulator page read cleanly, judged from the labels' boxes: shared by the page's own layout
// test and the code-server test, which looks at the page inside VS Code.
import { type Label, overlap, withinSideways } from './label-boxes';

/** The text a reader has to tell apart, by kind. */
export const LABELS = {
  'axis tick': '.row.axis .tick',
  'outage marker': '.row.axis .recovery-mark',
  'row group': '.timeline .row-group',
  'row name': '.timeline .row:not(.node) .row-name',
  'node row name': '.timeline .row.node .row-name',
  'row detail': '.timeline .row-detail',
  legend: '.timeline .legend-item',
  'node name': '.cluster .node-name',
  'node to fail': 'fieldset label.choice:has(input[type="checkbox"])',
  pod: '.cluster .pod',
  badge: '.cluster .badge',
  'cluster note': '.cluster .notes li',
};
const NAMES_OF_NODES = new Set(['node row name', 'node name', 'node to fail']);
/** What a label is drawn in, and must stay inside. */
export const CONTAINERS = '.track, .row-label, .legend, li.node, fieldset';
export const named = (label: Label) => `${label.kind} "${label.text}"`;

export function overlappingLabels(labels: Label[]): string[] {
  return labels.flatMap((a, i) => labels.slice(i + 1).filter((b) => overlap(a.textBox, b.textBox)).map((b) => `${named(a)} overlaps ${named(b)}`));
}

export function cutOffLabels(labels: Label[]): string[] {
  return labels.flatMap((label) => [
    ...(withinSideways(label.textBox, label.container) ? [] : [`${named(label)} runs out of its container`]),
    ...(withinSideways(label.textBox, label.clip) ? [] : [`${named(label)} is clipped by the viewport or a scroll container`]),
  ]);
}

export function nodeNamesBrokenInsideWords(labels: Label[]): string[] {
  return labels.filter((label) => NAMES_OF_NODES.has(label.kind) && label.brokenWords.length).map((label) => `${named(label)} breaks inside ${label.brokenWords.join(', ')}`);
}
