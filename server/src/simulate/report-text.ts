import { withoutControls } from '../printable';
import { capacityVerdict, describeScenario } from './describe';
import { formatSeconds } from './format-time';
import { reasonWithoutSubject, subjectName } from './summary';
import type { SimulationResult, State } from './types';

export interface ReportOptions {
  /** The cluster's name, as the reader knows it ("demo", a context, a snapshot file). */
  cluster?: string;
}

const MARK: Record<State, string> = { ok: 'ok  ', degraded: 'DEGR', down: 'DOWN' };

/** The simulation as a story for a terminal: first impacts, then minute by minute, then capacity. */
export function renderSimulationText(result: SimulationResult, options: ReportOptions = {}): string {
  const lines: string[] = [];
  lines.push(`What if ${describeScenario(result.scenario)}${options.cluster ? ` (cluster ${options.cluster})` : ''}?`);
  lines.push('');
  lines.push('First impacts:');
  for (const line of result.summary ?? []) lines.push(`  • ${line}`);
  lines.push('');
  lines.push('Minute by minute:');
  let lastAt: number | undefined;
  for (const event of result.timeline) {
    if (event.at !== lastAt) lines.push(`  ${formatSeconds(event.at)}`);
    lastAt = event.at;
    lines.push(`    ${MARK[event.state]} ${subjectName(event)}: ${reasonWithoutSubject(event)} [${shortFact(event.fact)}]`);
  }
  lines.push('');
  lines.push('Serving capacity (ready and reachable replicas of desired):');
  for (const workload of result.workloads) {
    const v = capacityVerdict(workload);
    const name = `${workload.namespace}/${workload.name}`;
    if (v.desired === 0) {
      // Only a CronJob has no pods between runs; anything else wants none (scaled to 0, or a DaemonSet no node takes).
      lines.push(`  ${name} (${workload.kind}): ${workload.kind === 'CronJob' ? 'no pods between runs' : 'no pods wanted'}`);
      continue;
    }
    // Whole all along, but not always as many (a DaemonSet on a node the autoscaler deleted, an HPA's scale-out).
    const last = workload.capacity[workload.capacity.length - 1];
    const resized = last && last.desired !== v.desired && last.desired > 0 ? `, ${last.desired}/${last.desired} from ${formatSeconds(workload.capacity.find((p) => p.desired === last.desired && p.at > 0)?.at ?? last.at)}` : '';
    const story = v.firstHit === undefined
      ? resized ? `whole throughout: ${v.desired}/${v.desired}${resized}` : `${v.desired}/${v.desired} throughout`
      : `lowest ${v.lowest}/${v.lowestOf} at ${formatSeconds(v.lowestAt)}${v.firstHit < v.lowestAt ? `, hurt from ${formatSeconds(v.firstHit)}` : ''}${v.worstBlackholed > 0 ? `, up to ${Math.round(v.worstBlackholed * 100)} % of new connections blackholed` : ''}, ${v.wholeAgain === undefined ? 'not whole again by the end' : `whole again at ${formatSeconds(v.wholeAgain)}`}`;
    lines.push(`  ${name} (${workload.kind}, placement ${workload.placement}): ${story}`);
    for (const e of workload.evictions ?? []) {
      const replaced = e.replacementReady === null ? 'no replacement serving by the end' : `its replacement serves at ${formatSeconds(e.replacementReady)}`;
      lines.push(`    evicted from ${e.node} at ${formatSeconds(e.at)}, ${e.stopped === null ? 'never stopped (no kubelet confirmed its end)' : `stopped at ${formatSeconds(e.stopped)}`}, ${replaced}${e.sessionsCut ? '; in-memory sessions cut' : ''}`);
    }
  }
  if (result.assumptions.length) {
    lines.push('');
    lines.push('Assumptions:');
    for (const a of result.assumptions) lines.push(`  - ${a}`);
  }
  // Names from the cluster may hold terminal escapes.
  return lines.map(withoutControls).join('\n');
}

/** "rule 6" out of "rule 6: endpoints are frozen — facts/…". */
export function shortFact(fact: string): string {
  const rules = [...new Set([...fact.matchAll(/rule \d+/g)].map((m) => m[0]))];
  return rules.length ? rules.join(', ') : fact;
}
