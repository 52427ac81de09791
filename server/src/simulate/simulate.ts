import { simulateComponents } from './components';
import { ControlPlaneTimeline } from './control-plane';
import { simulateDns, type DnsHistory } from './dns';
import { slotsAtStart } from './workload/at-start';
import { stopping } from './capacity-state';
import { FACT, TIMING } from './facts';
import { workloadKey, type SimTopology, type SimWorkload } from './model';
import { nodeIncidents } from './node-incidents';
import { NoExecuteTaints } from './no-execute-taints';
import { simulateNodes } from './nodes';
import { summarize } from './summary';
import type { ComponentName, ComponentResult, Scenario, SimulationResult, TimelineEvent } from './types';
import { withControlPlanes, workloadsOn } from './what-if';
import { withoutRepeats } from './parse-scenario';
import { simulateWorkload, type SimContext } from './workload-capacity';
import type { DrainPlan } from './drain/plan';
import { planDrains } from './drain/planner';
import { drainEnd, drainNodeEvents, drainResult, drainSummary, type WorkloadRunOf } from './drain/report';
import { rollUpgrade } from './drain/upgrade';
import { upgradeDrainEnds } from './drain/upgrade-runs';
import { formatSeconds } from './format-time';
import { plural } from '../words';
import { greatest, least } from '../extremes';
import { onNode } from './on-node';

/** Time shown after the outage ends, long enough for a lost node's pods to be evicted and replaced. */
const RECOVERY_VIEW = 600;

const ROW_ORDER: ComponentName[] = ['api', 'etcd', 'scheduling', 'controllers', 'autoscaling', 'dns', 'service-routing', 'kubectl'];
const SUBJECT_ORDER = { component: 0, node: 1, workload: 2 } as const;

/** What each workload and each cluster function does while the control plane fails this way. Pure: no I/O. */
export function simulate(topology: SimTopology, given: SimWorkload[], asked: Scenario): SimulationResult {
  const scenario = withoutRepeats(asked);
  const effective = withControlPlanes(topology, scenario.controlPlanes);
  const workloads = workloadsOn(effective, topology, given);
  const controlPlane = new ControlPlaneTimeline(effective, scenario);
  const lastEvent = Math.max(0, ...scenario.events.map((e) => e.at));
  const incidents = nodeIncidents(scenario);
  const taints = new NoExecuteTaints(effective, controlPlane, incidents);
  const base: SimContext = { topology: effective, scenario, controlPlane, incidents, taints, drains: planDrains({ scenario, topology: effective, workloads, controlPlane, incidents, notReady: taints.notReady }), end: Math.max(scenario.duration, lastEvent) + RECOVERY_VIEW };
  const { ctx, runs } = voluntaryDisruptions(base, workloads);

  const { components, events: componentEvents } = simulateComponents(ctx);
  const dns = simulateDns(ctx, dnsHistory(runs));
  const rows: ComponentResult[] = [...components, { name: 'dns' as const, states: dns.states }].sort((a, b) => ROW_ORDER.indexOf(a.name) - ROW_ORDER.indexOf(b.name));

  const drains = ctx.drains.map((plan) => drainResult(plan, runs, ctx.end));
  const drainEvents = ctx.drains.flatMap((plan, i) => drainNodeEvents(plan, drains[i]));
  const timeline: TimelineEvent[] = [...componentEvents, ...dns.events, ...simulateNodes(ctx), ...drainEvents, ...runs.flatMap((r) => r.run.events), ...neighboursAtRisk(runs)];
  timeline.sort((a, b) => a.at - b.at || SUBJECT_ORDER[a.subject.type] - SUBJECT_ORDER[b.subject.type]);

  const assumptions = [...effective.assumptions];
  if (effective.managed) assumptions.unshift(`the control plane is managed by ${effective.managed}: the provider runs it highly available and hides it, so this is a what-if only`);
  const assumed = workloads.filter((w) => w.placementSource === 'assumed');
  if (assumed.length) assumptions.push(`placement of ${plural(assumed.length, 'workload')} (${assumed.slice(0, 5).map(workloadKey).join(', ')}${assumed.length > 5 ? ', …' : ''}) is assumed: a deterministic spread over the nodes that honours their spread rules`);
  if (scenario.events.some((e) => e.kind === 'node-reboot')) assumptions.push('a reboot is assumed to take 2 m');
  const declared = workloads.filter((w) => w.startSeconds !== undefined);
  assumptions.push(
    `a replacement pod is assumed to be serving ${TIMING.assumedPodStart} s after it can be scheduled (cached image)${declared.length ? `, or after the start its workload declares (${declared.slice(0, 5).map((w) => `${workloadKey(w)} ${w.startSeconds} s`).join(', ')}${declared.length > 5 ? ', …' : ''})` : ''}`,
    // The scheduler's resource fit is not modelled: what each node has left is not known to the workloads run apart.
    'a node that takes new pods is assumed to have room for a replacement: CPU and memory requests are not weighed against what the node has left (host ports and node selectors are)',
  );

  return {
    version: 1,
    scenario,
    timeline,
    workloads: runs.map((r) => r.run.result),
    components: rows,
    assumptions,
    end: ctx.end,
    summary: [...[drainSummary(ctx.drains, drains, runs), upgradeSummary(scenario, ctx)].filter((line): line is string => !!line), ...summarize(timeline, runs.map((r) => r.run.result))],
    drains,
  };
}

/**
 * What the CoreDNS workload's run did to its replicas, each named by its slot and the node it ran on when the
 * cluster was read: the drains' evictions, and where each replacement that serves runs from then on.
 */
function dnsHistory(runs: readonly WorkloadRunOf[]): DnsHistory {
  const history: DnsHistory = { replicas: [], evictions: [], moves: [], crashes: [] };
  // Numbered across the workloads: each run numbers its own replicas from 0.
  let first = 0;
  for (const { workload, run } of runs.filter((r) => r.workload.clusterDns)) {
    const start = slotsAtStart(workload);
    const startNode = new Map(start.map((slot) => [slot.id, slot.node]));
    for (const slot of start) if (!stopping(slot)) history.replicas.push({ slot: first + slot.id, node: slot.node, ...(slot.atStart ? { atStart: slot.atStart } : {}) });
    for (const e of run.evictions) {
      if (e.stoppingPod === undefined && startNode.has(e.slot)) history.evictions.push({ slot: first + e.slot, node: startNode.get(e.slot)!, drained: e.drain.node, at: e.at, until: e.replacementReady ?? Infinity });
    }
    for (const c of run.crashes) if (startNode.has(c.slot)) history.crashes.push({ ...c, slot: first + c.slot, node: startNode.get(c.slot)! });
    for (const m of run.moves) if (startNode.has(m.slot)) history.moves.push({ slot: first + m.slot, node: startNode.get(m.slot)!, at: m.at, to: m.node });
    first += start.length;
  }
  return history;
}

function runAll(ctx: SimContext, workloads: SimWorkload[]): WorkloadRunOf[] {
  return workloads.map((w) => ({ workload: w, run: simulateWorkload(w, ctx) }));
}

/**
 * Node upgrades and failed scale-downs depend on what the workloads do: an upgrade drains the next node only
 * once the previous one is empty; a scale-down the autoscaler gives up on uncordons its node.
 */
function voluntaryDisruptions(base: SimContext, workloads: SimWorkload[]): { ctx: SimContext; runs: WorkloadRunOf[] } {
  let ctx = base;
  const upgrade = base.scenario.events.find((e) => e.kind === 'upgrade-nodes');
  if (upgrade) {
    const step = rollUpgrade(upgrade.at, base.topology, workloads, { plans: base.drains, incidents: base.incidents }, upgradeDrainEnds(base, workloads), (from) => base.controlPlane.firstWrites(from));
    ctx = { ...base, drains: step.plans, incidents: [...step.incidents].sort((a, b) => a.at - b.at) };
  }
  let runs = runAll(ctx, workloads);
  const gaveUpAt = (plan: DrainPlan) => least(runs.flatMap((r) => r.run.gaveUp.filter((g) => g.drain === plan).map((g) => g.at)));
  if (ctx.drains.some((p) => p.by === 'autoscaler' && Number.isFinite(gaveUpAt(p)))) {
    ctx = { ...ctx, drains: ctx.drains.map((p) => (p.by === 'autoscaler' && Number.isFinite(gaveUpAt(p)) ? { ...p, uncordonAt: gaveUpAt(p) } : p)) };
    runs = runAll(ctx, workloads);
  }
  // A node the autoscaler emptied is deleted then: known once the workloads have run, it is told to the DaemonSets,
  // which alone keep pods there (the plans are kept as they are: the runs' evictions name them).
  const removed = ctx.drains.filter((p) => p.by === 'autoscaler' && !p.upgrade);
  for (const plan of removed) plan.removedAt = drainEnd(plan, runs, ctx.end) ?? undefined;
  if (removed.some((p) => p.removedAt !== undefined)) runs = runs.map((r) => (r.workload.kind === 'DaemonSet' ? { workload: r.workload, run: simulateWorkload(r.workload, ctx) } : r));
  return { ctx, runs };
}

function upgradeSummary(scenario: Scenario, ctx: SimContext): string | undefined {
  const upgrade = scenario.events.find((e) => e.kind === 'upgrade-nodes');
  if (!upgrade) return undefined;
  const workers = ctx.topology.nodes.filter((n) => !n.controlPlane).length;
  const replaced = ctx.incidents.filter((i) => i.kind === 'replaced');
  const first = ctx.drains.find((p) => p.upgrade)?.start ?? upgrade.at;
  const waited = first > upgrade.at ? `, waiting for the API until ${formatSeconds(first)} (cordoning a node is a write)` : '';
  if (replaced.length < workers) {
    // Not done by the end: a drain that never finishes (a budget that allows nothing) or just more workers than time.
    const next = ctx.drains.filter((p) => p.upgrade)[replaced.length]?.node;
    return `The rolling node upgrade replaces ${replaced.length} of ${plural(workers, 'worker')} within the simulated ${formatSeconds(ctx.end - upgrade.at)}${waited}: ${next ? `the upgrade of ${next} is not done by then` : 'the next worker is not reached by then'} (a longer --for shows whether it ever is).`;
  }
  const last = greatest(replaced.map((i) => i.backAt));
  return `The rolling node upgrade of ${plural(workers, 'worker')} takes ${formatSeconds(last - upgrade.at)}, one node at a time${waited}.`;
}

/** Pods without memory limits push their nodes into memory pressure: the kubelet may evict their neighbours too. */
function neighboursAtRisk(runs: { workload: SimWorkload; run: ReturnType<typeof simulateWorkload> }[]): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const { workload: source, run } of runs) {
    for (const { node, at } of run.pressuredNodes) {
      for (const { workload } of runs) {
        if (workload === source || !onNode(workload.placement, node)) continue;
        events.push({
          at,
          subject: { type: 'workload', name: workload.name, namespace: workload.namespace, kind: workload.kind },
          state: 'degraded',
          reason: `at risk: ${node} is under memory pressure from ${workloadKey(source)}'s surge and the kubelet may evict ${workloadKey(workload)}'s pods there too (it ranks by memory use above requests)`,
          fact: FACT.surge,
        });
      }
    }
  }
  return events;
}
