import { ControlPlaneTimeline } from '../../../server/src/simulate/control-plane';
import type { DrainPlan } from '../../../server/src/simulate/drain/plan';
import type { SimWorkload } from '../../../server/src/simulate/model';
import { nodeIncidents, type NodeIncident } from '../../../server/src/simulate/node-incidents';
import { NoExecuteTaints } from '../../../server/src/simulate/no-execute-taints';
import type { Scenario } from '../../../server/src/simulate/types';
import type { WorkloadEvent } from '../../../server/src/simulate/workload/events';
import { HANDLERS } from '../../../server/src/simulate/workload/handlers';
import { createRun, emit, runToEnd, type WorkloadRun } from '../../../server/src/simulate/workload/run';
import { cluster } from '../fixtures';

/** A healthy control plane for the whole run, unless the case says otherwise. */
export const HEALTHY: Scenario = { fail: { kind: 'apiserver' }, duration: 0, events: [] };

/**
 * One workload's run with nothing scheduled yet, so a case can hand one event to its handler; `incidents` are
 * node incidents besides the scenario's (the handler of one, handed it, finds it among them as a run does).
 */
export function runOf(workload: SimWorkload, scenario: Scenario = HEALTHY, drains: DrainPlan[] = [], end = 7200, incidents: NodeIncident[] = []): WorkloadRun {
  const topology = cluster();
  const controlPlane = new ControlPlaneTimeline(topology, scenario);
  const all = [...nodeIncidents(scenario), ...incidents];
  const ctx = { topology, scenario, controlPlane, incidents: all, taints: new NoExecuteTaints(topology, controlPlane, all), drains, end };
  return createRun(workload, ctx, HANDLERS);
}

/** Hands the event to its handler at `at`, runs everything it leads to, and reports what the workload served. */
export function play(run: WorkloadRun, at: number, event: WorkloadEvent | ((run: WorkloadRun) => WorkloadEvent)) {
  emit(run, at, typeof event === 'function' ? event(run) : event);
  const { capacity, events } = runToEnd(run);
  const readyAt = (t: number) => capacity.filter((p) => p.at <= t).at(-1)!.ready;
  return { capacity, events, readyAt, reasons: events.map((e) => e.reason).join('\n'), facts: events.map((e) => e.fact).join('\n') };
}

export function kubectlDrain(node: string, start = 0, extra: Partial<DrainPlan> = {}): DrainPlan {
  return { node, by: 'kubectl', start, uncordonAt: Infinity, ...extra };
}

export function autoscalerDrain(node: string, start = 0, extra: Partial<DrainPlan> = {}): DrainPlan {
  return { node, by: 'autoscaler', start, uncordonAt: Infinity, ...extra };
}
