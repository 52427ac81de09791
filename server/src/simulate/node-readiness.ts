import type { ControlPlaneTimeline } from './control-plane';
import { least } from '../extremes';
import type { SimTopology } from './model';
import { podsBackAt, type NodeIncident } from './node-incidents';
import { onNode } from './by-node';

/** A stretch of time [from, to). */
export interface Span {
  from: number;
  to: number;
}

/**
 * When the node controller sees each node NotReady, merged by node: from the read for a node NotReady then (a
 * controller manager starting again reads its Ready condition as it stands), until an incident brings it back; and
 * from the grace period after a failure (counted from when the controller manager can watch it) until its kubelet
 * reports again.
 */
export function notReadySpans(topology: SimTopology, cp: ControlPlaneTimeline, incidents: readonly NodeIncident[]): Map<string, Span[]> {
  const spans = new Map<string, Span[]>();
  const add = (node: string, span: Span) => {
    if (span.from < span.to) spans.set(node, [...(spans.get(node) ?? []), span]);
  };
  const back = (node: string, at: number) => podsBackAt(incidents as NodeIncident[], node, at, (t) => cp.firstWrites(t));
  for (const node of topology.notReadyNodes ?? []) add(node, { from: 0, to: least(onNode(incidents, node).map((i) => back(node, i.at))) });
  for (const incident of incidents) {
    if (incident.kind === 'replaced') continue;
    add(incident.node, { from: cp.notReadyAt(incident.at), to: back(incident.node, incident.at) });
  }
  for (const [node, list] of spans) spans.set(node, merged(list));
  return spans;
}

function merged(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1);
    if (last && span.from <= last.to) last.to = Math.max(last.to, span.to);
    else out.push({ ...span });
  }
  return out;
}


/** Whether the node controller has the node NotReady at `t` (see notReadySpans). */
export function notReadyAt(spans: ReadonlyMap<string, readonly Span[]>, node: string, t: number): boolean {
  return (spans.get(node) ?? []).some((span) => t >= span.from && t < span.to);
}
