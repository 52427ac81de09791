import type { ComponentName, SimulationResult, State, Subject, TimelineEvent } from '../../server/src/simulate/types';
import { COMPONENT_LABELS } from './format';

/** A stretch of time in one state, with the event that started it. */
export interface Segment {
  from: number;
  to: number;
  state: State;
  reason: string;
  fact: string;
}

export interface Row {
  key: string;
  group: 'function' | 'node' | 'workload';
  label: string;
  /** Extra words for the row (kind, placement, worst capacity). */
  detail?: string;
  segments: Segment[];
  workload?: { namespace: string; name: string };
}

/** The order of the cluster-function rows; etcd only appears when the result has it. */
const FUNCTION_ORDER: ComponentName[] = ['api', 'etcd', 'scheduling', 'controllers', 'autoscaling', 'dns', 'service-routing', 'kubectl'];
const ALWAYS_SHOWN = new Set<ComponentName>(['api', 'scheduling', 'controllers', 'autoscaling', 'dns', 'service-routing', 'kubectl']);

export function subjectKey(subject: Subject): string {
  return subject.type === 'workload' ? `workload:${subject.namespace}/${subject.name}` : `${subject.type}:${subject.name}`;
}

/** Where the time axis ends: past the outage and the last event, so recovery is visible. */
export function axisEnd(result: SimulationResult): number {
  const last = result.timeline.reduce((max, e) => Math.max(max, e.at), 0);
  return Math.max(result.end ?? 0, result.scenario.duration * 1.08, last * 1.02);
}

function segmentsFrom(points: { at: number; state: State; reason: string; fact: string }[], end: number, quiet: string): Segment[] {
  const sorted = [...points].sort((a, b) => a.at - b.at);
  const segments: Segment[] = [];
  if (!sorted.length || sorted[0].at > 0) segments.push({ from: 0, to: sorted[0]?.at ?? end, state: 'ok', reason: quiet, fact: '' });
  sorted.forEach((point, i) => {
    const to = Math.min(sorted[i + 1]?.at ?? end, end);
    const previous = segments[segments.length - 1];
    // Several events at the same instant: the last one describes the state that holds.
    if (previous && previous.from === point.at) segments.pop();
    segments.push({ from: point.at, to, state: point.state, reason: point.reason, fact: point.fact });
  });
  return segments.filter((s) => s.to > s.from || s === segments[segments.length - 1]);
}

function eventsBySubject(timeline: TimelineEvent[]): Map<string, TimelineEvent[]> {
  const map = new Map<string, TimelineEvent[]>();
  for (const event of timeline) {
    const key = subjectKey(event.subject);
    const list = map.get(key);
    if (list) list.push(event);
    else map.set(key, [event]);
  }
  return map;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** The timeline's rows: cluster functions, then nodes that something happens to, then every workload. */
export function buildRows(result: SimulationResult): Row[] {
  const end = axisEnd(result);
  const events = eventsBySubject(result.timeline);
  const rows: Row[] = [];
  for (const name of FUNCTION_ORDER) {
    const component = result.components.find((c) => c.name === name);
    const own = events.get(`component:${name}`) ?? [];
    if (!component && !own.length && !ALWAYS_SHOWN.has(name)) continue;
    const label = COMPONENT_LABELS[name];
    const points = own.length ? own : (component?.states ?? []).map((s) => ({ ...s, reason: `${label} ${s.state === 'ok' ? 'works' : `is ${s.state}`}`, fact: '' }));
    rows.push({ key: `component:${name}`, group: 'function', label, segments: segmentsFrom(points, end, `${label} works`) });
  }
  for (const [key, list] of events) {
    if (!key.startsWith('node:')) continue;
    rows.push({ key, group: 'node', label: list[0].subject.name, segments: segmentsFrom(list, end, 'Running') });
  }
  for (const workload of result.workloads) {
    const key = `workload:${workload.namespace}/${workload.name}`;
    const worst = workload.capacity.reduce((w, p) => (p.desired && p.ready / p.desired < w.ready / Math.max(w.desired, 1) ? p : w), workload.capacity[0] ?? { at: 0, ready: 0, desired: 0, blackholed: 0 });
    const blackholed = workload.capacity.reduce((max, p) => Math.max(max, p.blackholed), 0);
    const detail = [
      workload.kind,
      worst.desired ? `lowest ${worst.ready}/${worst.desired} ready` : '',
      blackholed ? `up to ${percent(blackholed)} of new connections lost` : '',
      workload.placement === 'assumed' ? 'placement assumed' : '',
    ].filter(Boolean).join(' · ');
    rows.push({
      key,
      group: 'workload',
      label: workload.namespace ? `${workload.namespace}/${workload.name}` : workload.name,
      detail,
      segments: segmentsFrom(events.get(key) ?? [], end, 'Serving: nothing in this outage reaches it'),
      workload: { namespace: workload.namespace, name: workload.name },
    });
  }
  return rows;
}
