import { FACT, TIMING } from '../facts';
import { formatSeconds } from '../format-time';
import { workloadKey, type SimWorkload } from '../model';
import type { DrainResult, TimelineEvent } from '../types';
import type { WorkloadSimulation } from '../workload-capacity';
import type { DrainPlan } from './plan';
import { PLAN_FACT } from './planner';
import { greatest } from '../../extremes';
import { namesListed, plural, sentenceList } from '../../words';

export interface WorkloadRunOf {
  workload: SimWorkload;
  run: WorkloadSimulation;
}

/** When the node is empty: every pod a drain had to evict is evicted and terminated; null when that does not happen by `end`. */
export function drainEnd(plan: DrainPlan, runs: WorkloadRunOf[], end: number): number | null {
  if (plan.halted) return null;
  if (runs.some(({ run }) => run.refusals.some((r) => r.drain === plan && r.to === null) || run.gaveUp.some((g) => g.drain === plan))) return null;
  const mine = runs.flatMap(({ run }) => run.evictions.filter((e) => e.drain === plan));
  const last = greatest([plan.start, ...mine.map((e) => e.terminatedAt)]);
  return last <= end ? last : null;
}

export function drainResult(plan: DrainPlan, runs: WorkloadRunOf[], end: number): DrainResult {
  const gaveUp = runs.flatMap(({ run }) => run.gaveUp.filter((g) => g.drain === plan));
  const refusals = runs.flatMap(({ workload, run }) => run.refusals.filter((r) => r.drain === plan && r.pdb).map((r) => ({ workload: workloadKey(workload), pdb: r.pdb!, from: r.from, to: r.to, untilReady: !!r.untilReady })));
  return {
    node: plan.node,
    by: plan.by,
    start: plan.start,
    end: drainEnd(plan, runs, end),
    notRemovedBecause: plan.halted ?? (gaveUp.length ? `the cluster autoscaler gave up: ${gaveUp[0].why}` : null),
    blocked: refusals.sort((a, b) => a.from - b.from),
    evicted: runs
      .flatMap(({ workload, run }) => run.evictions.filter((e) => e.drain === plan).map((e) => ({ workload: workloadKey(workload), at: e.at })))
      .sort((a, b) => a.at - b.at || a.workload.localeCompare(b.workload)),
  };
}

/** The node's own rows: cordoned, blocked, empty (removed by the autoscaler), or left alone. */
export function drainNodeEvents(plan: DrainPlan, result: DrainResult): TimelineEvent[] {
  const subject = { type: 'node' as const, name: plan.node };
  const fact = plan.upgrade ? `${FACT.nodeUpgrade}; ${PLAN_FACT[plan.by]}` : PLAN_FACT[plan.by];
  const who = plan.by === 'kubectl' ? (plan.upgrade ? 'the node upgrade drains it' : 'kubectl drain') : 'the cluster autoscaler scales it down';
  if (result.notRemovedBecause && plan.halted) return [{ at: plan.start, subject, state: 'ok', reason: `${plan.node} stays: ${result.notRemovedBecause}`, fact }];
  const events: TimelineEvent[] = [{ at: plan.start, subject, state: 'degraded', reason: `${plan.node} cordoned: ${who}, evicting its pods through the eviction API`, fact }];
  for (const b of result.blocked) {
    const until = b.to === null ? ' for the rest of the simulated time' : ` until ${formatSeconds(b.to)}`;
    const why = severalBudgets(b.pdb)
      ? `the PodDisruptionBudgets ${b.pdb} both select ${b.workload}'s pods, and the eviction API evicts no such pod${until} (finding pdb-multiple)`
      : b.untilReady
        ? `the PodDisruptionBudget ${b.pdb} of ${b.workload} allows no disruption while a pod of it is not ready${until}`
        : `the PodDisruptionBudget ${b.pdb} of ${b.workload} allows no disruption${until} (finding pdb-blocks-eviction)`;
    events.push({ at: b.from, subject, state: 'degraded', reason: `the drain of ${plan.node} is blocked: ${why}`, fact: `${FACT.eviction}; ${fact}` });
  }
  if (result.notRemovedBecause) events.push({ at: Math.max(plan.start, ...result.blocked.map((b) => b.to ?? b.from)), subject, state: 'ok', reason: `${plan.node} stays: ${result.notRemovedBecause}; the node is uncordoned`, fact });
  else if (result.end !== null) {
    events.push({
      at: result.end,
      subject,
      state: plan.by === 'autoscaler' ? 'down' : 'degraded',
      reason: plan.by === 'autoscaler' ? `${plan.node} is empty and the autoscaler deletes it (${formatSeconds(result.end - plan.start)} after it started)` : `${plan.node} is drained: every pod evicted and terminated, ${formatSeconds(result.end - plan.start)} after the drain started`,
      fact,
    });
  }
  return events;
}

/** One paragraph that answers "what does emptying these nodes do?". */
export function drainSummary(plans: DrainPlan[], results: DrainResult[], runs: WorkloadRunOf[]): string | undefined {
  if (!results.length) return undefined;
  const sentences = results.map((d, i) => {
    const plan = plans[i];
    const verb = d.by === 'autoscaler' ? `Scaling ${d.node} down` : `Draining ${d.node}`;
    const reasons: string[] = [];
    const blockers = [...new Map(d.blocked.map((b) => [b.workload, b])).values()];
    for (const b of blockers) {
      const w = runs.find((r) => workloadKey(r.workload) === b.workload)?.workload;
      const start = w?.startSeconds !== undefined ? ` and each replacement needs ${formatSeconds(w.startSeconds)} to start` : '';
      const budget = severalBudgets(b.pdb) ? `PDBs ${b.pdb} together allow` : `PDB ${b.pdb} allows`;
      const waiting = b.untilReady ? ' while a pod of it is not ready' : '';
      reasons.push(b.to === null && d.end === null ? `${b.workload}'s ${budget} no eviction${waiting}, so the drain never finishes` : `${b.workload}'s PDB ${b.pdb} lets one pod go at a time${start}`);
    }
    // Pods on a node no kubelet runs on: the drain evicted them, or the node controller did before it.
    const stuck: string[] = [];
    for (const { workload, run } of runs) {
      const waited = run.evictions.filter((e) => e.drain === plan && e.stoppingPod && (e.unconfirmed || !e.evictedBefore)).map((e) => e.stoppingPod!);
      if (waited.length) reasons.push(`it waits for ${waited.length === 1 ? `the pod ${waited[0]}` : `the ${waited.length} pods ${namesListed(waited, 5)}`} of ${workloadKey(workload)}${workload.replicas === 0 ? ' (scaled to 0)' : ''}, already stopping`);
      for (const e of run.evictions) if (e.drain === plan && e.unconfirmed && !e.stoppingPod) stuck.push(workloadKey(workload));
      const cut = run.evictions.filter((e) => e.drain === plan && e.sessionsCut);
      const kept = run.evictions.filter((e) => e.drain === plan && !e.sessionsCut && !e.unconfirmed && e.stoppingPod === undefined && workload.sessions === 'in-memory');
      const pods = (n: number) => (n === 1 ? `the ${workloadKey(workload)} pod` : `the ${n} ${workloadKey(workload)} pods`);
      if (cut.length) {
        // Moments of the timeline, as every "at" is (the drain may start later than 0); each pod's own, as a budget
        // lets them go one at a time (the last pod's moment read as every pod's).
        const at = moments(cut.map((e) => e.sessionsCutAt ?? e.terminatedAt));
        const capped = d.by === 'autoscaler' && (workload.terminationGrace ?? 0) > TIMING.autoscalerGraceCap;
        reasons.push(capped ? `${pods(cut.length)} keep their sessions until ${at}, when the autoscaler's grace cap cuts them` : `${pods(cut.length)} ${cut.length === 1 ? 'loses its' : 'lose their'} in-memory sessions at ${at}`);
      } else if (kept.length) reasons.push(`${pods(kept.length)} ${kept.length === 1 ? 'keeps its' : 'keep their'} sessions until they end (at ${formatSeconds(greatest(kept.map((e) => e.terminatedAt)))})`);
    }
    if (stuck.length) {
      const one = stuck.length === 1;
      reasons.push(`it waits for ${one ? 'a pod' : `${stuck.length} pods`} of ${sentenceList([...new Set(stuck)])} that stay${one ? 's' : ''} Terminating on ${d.node} until its kubelet is back (no kubelet confirms ${one ? 'its' : 'their'} end while the node is away)`);
    }
    const evicted = new Set(d.evicted.map((e) => e.workload)).size;
    const head = d.notRemovedBecause && !d.evicted.length
      ? `${verb} does not happen: ${d.notRemovedBecause}`
      : d.notRemovedBecause
        ? `${verb} fails after evicting pods of ${plural(evicted, 'workload')}: ${d.notRemovedBecause}`
        : d.end === null
          ? `${verb} does not finish within the simulated time`
          : `${verb} takes ${formatSeconds(d.end - d.start)}${evicted ? '' : ' (nothing to evict)'}`;
    return `${head}${reasons.length ? `: ${sentenceList(reasons)}` : ''}.`;
  });
  // Two drains of one node alike (one asked for, one an upgrade's) are told once.
  return [...new Set(sentences)].join(' ');
}

/** Whether a refusal names several budgets over one pod ("a and b", as evictionVerdict writes them). */
function severalBudgets(pdb: string): boolean {
  return pdb.includes(' and ');
}

/** Moments of the timeline in words, earliest first: "30 s and 20 m 30 s"; many as the span they fall in. */
function moments(times: readonly number[]): string {
  const distinct = [...new Set(times)].sort((a, b) => a - b);
  if (distinct.length > MOMENTS_LISTED) return `${formatSeconds(distinct[0])} to ${formatSeconds(distinct[distinct.length - 1])}`;
  return sentenceList(distinct.map(formatSeconds));
}

const MOMENTS_LISTED = 4;
