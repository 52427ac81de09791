import { formatSeconds } from './format-time';
import { capacityVerdict } from './describe';
import type { TimelineEvent, WorkloadResult } from './types';
import { plural } from '../words';

const COMPONENT_WORDS: Record<string, string> = {
  api: 'the API',
  etcd: 'etcd',
  scheduling: 'scheduling',
  controllers: 'the controllers',
  autoscaling: 'autoscaling',
  dns: 'cluster DNS',
  'service-routing': 'service routing',
  kubectl: 'kubectl',
};

function verb(event: TimelineEvent): string {
  const plural = event.subject.type === 'component' && event.subject.name === 'controllers';
  if (event.state === 'down') return plural ? 'stop' : 'goes down';
  return plural ? 'are degraded' : 'is degraded';
}

/** The reason without the "Deployment shop/web: " that repeats the subject it is told under. */
export function reasonWithoutSubject(event: TimelineEvent): string {
  if (event.subject.type !== 'workload') return event.reason;
  const own = `${event.subject.kind ?? ''} ${event.subject.namespace}/${event.subject.name}: `.trimStart();
  const parts = event.reason.split(own);
  // "…replaced it. Deployment shop/app: its pod…" reads "…replaced it. Its pod…" once the subject goes.
  return parts.map((part, i) => (i > 0 && parts[i - 1].endsWith('. ') ? `${part.charAt(0).toUpperCase()}${part.slice(1)}` : part)).join('');
}

/** The reason's first sentence, without repeating the subject it is about. */
function firstClause(event: TimelineEvent): string {
  return reasonWithoutSubject(event).split(/\. /)[0];
}

export function subjectName(event: TimelineEvent): string {
  const s = event.subject;
  if (s.type === 'component') return COMPONENT_WORDS[s.name] ?? s.name;
  if (s.type === 'node') return `node ${s.name}`;
  return `${s.namespace}/${s.name}`;
}

/** The first impacts in plain words: when each cluster function and each workload first stops being ok. */
export function summarize(timeline: TimelineEvent[], results: WorkloadResult[], limit = 8): string[] {
  const workloadCount = results.length;
  const seen = new Set<string>();
  const lines: string[] = [];
  const impacts = timeline.filter((e) => e.state !== 'ok' && e.subject.type !== 'node');
  const components = impacts.filter((e) => e.subject.type === 'component' && ['api', 'dns', 'scheduling', 'controllers'].includes(e.subject.name));
  const workloads = impacts.filter((e) => e.subject.type === 'workload');
  const first: TimelineEvent[] = [];
  const apiDownAt = components.find((e) => e.subject.type === 'component' && e.subject.name === 'api' && e.state === 'down')?.at;
  for (const event of [...components, ...workloads]) {
    // Scheduling and controllers stopping with the API is the API going down: said once.
    if (event.subject.type === 'component' && event.subject.name !== 'api' && event.subject.name !== 'dns' && event.at === apiDownAt) continue;
    const key = `${subjectName(event)}|${event.state}`;
    const worse = event.state === 'down' && seen.has(`${subjectName(event)}|degraded`);
    if (seen.has(key) || (seen.has(subjectName(event)) && !worse)) continue;
    seen.add(key);
    seen.add(subjectName(event));
    first.push(event);
  }
  const severity = (e: TimelineEvent) => (e.state === 'down' ? 0 : 1);
  // Past the limit, the cluster's own components and what goes down are kept before what degrades, whenever they
  // come (the earliest eight dropped a DNS outage at 40 m for CronJobs degraded at 0 s); told in time order.
  const rank = (e: TimelineEvent) => (e.subject.type === 'component' ? 0 : 1 + severity(e));
  const kept = new Set([...first].sort((a, b) => rank(a) - rank(b) || a.at - b.at).slice(0, limit));
  first.sort((a, b) => a.at - b.at || severity(a) - severity(b));
  for (const event of first.filter((e) => kept.has(e))) lines.push(`at ${formatSeconds(event.at)} ${subjectName(event)} ${verb(event)}: ${firstClause(event)}`);
  if (first.length > limit) lines.push(`${plural(first.length - limit, 'more impact')} in the timeline`);
  // A workload short of replicas from the start has no change to tell, but is affected all the same.
  const short = results.filter((w) => capacityVerdict(w).firstHit !== undefined).map((w) => `${w.namespace}/${w.name}`);
  // One scaled to zero serves nothing to keep: "keeps serving throughout" said so of a Deployment of no replica.
  // (A CronJob has no pod between its runs, and is no such workload.)
  const idleNames = new Set(results.filter((w) => w.kind !== 'CronJob' && w.capacity.every((p) => p.desired === 0)).map((w) => `${w.namespace}/${w.name}`));
  const hit = [...new Set([...workloads.map(subjectName), ...short])].filter((name) => !idleNames.has(name)).length;
  const idle = idleNames.size;
  const serving = workloadCount - idle;
  if (serving > 0) lines.push(hit ? `${hit} of ${plural(serving, 'workload')} affected` : serving === 1 ? 'the 1 workload keeps serving throughout' : `all ${serving} workloads keep serving throughout`);
  if (idle > 0) lines.push(`${plural(idle, 'workload')} of no replica: ${idle === 1 ? 'it serves' : 'they serve'} nothing, before or after`);
  if (!lines.length) lines.push('nothing changes');
  return lines;
}
