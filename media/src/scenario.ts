import type { SimulationInput } from '../../server/src/simulate/messages';
import type { Scenario, ScenarioEvent } from '../../server/src/simulate/types';

export const DEFAULT_SCENARIO: Scenario = { fail: { kind: 'apiserver' }, duration: 2 * 3600, events: [] };

/** The moment a minutes field names, in whole seconds within the scenario (decimals typed gave 60.6 s, which the host refuses). */
export function secondsAt(minutes: string, scenario: Scenario): number {
  return Math.round(Math.max(0, Math.min(Number(minutes) || 0, scenario.duration / 60)) * 60);
}

/** What the person clicked to add an event to: a node, or a workload (through one of its pods). */
export type Target = { type: 'node'; name: string } | { type: 'workload'; namespace: string; name: string };

/** Drops what a restored scenario names that this cluster does not have (another context, a renamed node). */
export function fitScenario(scenario: Scenario, input: SimulationInput): Scenario {
  const nodes = new Set(input.nodes.map((n) => n.name));
  const workloads = new Set(input.workloads.map((w) => `${w.namespace}/${w.name}`));
  const known = (event: ScenarioEvent) => {
    if ('node' in event) return nodes.has(event.node);
    if ('workload' in event) return workloads.has(`${event.namespace}/${event.workload}`);
    return true;
  };
  const fail = scenario.fail.kind === 'nodes' ? { kind: 'nodes' as const, nodes: scenario.fail.nodes.filter((n) => nodes.has(n)) } : scenario.fail;
  return { ...scenario, fail, events: scenario.events.filter(known) };
}

export function withEvent(scenario: Scenario, event: ScenarioEvent): Scenario {
  return { ...scenario, events: [...scenario.events, event].sort((a, b) => a.at - b.at) };
}

export function withoutEvent(scenario: Scenario, index: number): Scenario {
  return { ...scenario, events: scenario.events.filter((_, i) => i !== index) };
}
