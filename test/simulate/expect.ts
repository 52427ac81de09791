import type { CapacityPoint, ComponentName, SimulationResult, State, TimelineEvent } from '../../server/src/simulate/types';

/** Readers of a simulation result, so tests say what they check rather than how to dig for it. */

export function capacity(result: SimulationResult, name: string): CapacityPoint[] {
  const workload = result.workloads.find((w) => w.name === name);
  if (!workload) throw new Error(`no workload ${name} in the result`);
  return workload.capacity;
}

/** The capacity in force at second `t`. */
export function capacityAt(result: SimulationResult, name: string, t: number): CapacityPoint {
  const points = capacity(result, name).filter((p) => p.at <= t);
  return points[points.length - 1];
}

export function componentAt(result: SimulationResult, name: ComponentName, t: number): State {
  const row = result.components.find((c) => c.name === name);
  if (!row) throw new Error(`no component row ${name}`);
  const states = row.states.filter((s) => s.at <= t);
  return states.length ? states[states.length - 1].state : 'ok';
}

export function eventsAbout(result: SimulationResult, name: string): TimelineEvent[] {
  return result.timeline.filter((e) => e.subject.name === name);
}

/** Every capacity point serves all desired replicas with nothing blackholed. */
export function servesThroughout(result: SimulationResult, name: string): boolean {
  return capacity(result, name).every((p) => p.ready === p.desired && p.blackholed === 0);
}

/** Replica-seconds served over the simulated time. */
export function servedArea(result: SimulationResult, name: string): number {
  const points = capacity(result, name);
  let area = 0;
  for (let i = 0; i < points.length - 1; i++) area += points[i].ready * (points[i + 1].at - points[i].at);
  return area;
}

/** Seconds a component row spends down. */
export function downSeconds(result: SimulationResult, name: ComponentName): number {
  const row = result.components.find((c) => c.name === name)!;
  const end = result.end ?? 0;
  let total = 0;
  row.states.forEach((s, i) => {
    const until = Math.min(row.states[i + 1]?.at ?? end, end);
    if (s.state === 'down') total += Math.max(0, until - s.at);
  });
  return total;
}
