import { formatSeconds } from './format-time';
import { MAX_DURATION_SECONDS, MAX_SURGE_FACTOR } from './messages';
import { controlPlaneNodes, workloadKey, type SimTopology, type SimWorkload } from './model';
import type { Failure, Scenario, ScenarioEvent } from './types';

/** A scenario written by a person that does not make sense: the message says what and how to write it. */
export class ScenarioError extends Error {}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90s`, `10m`, `2h`, `1h30m`, `0` → seconds. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  if (!/^(\d+(\.\d+)?[smhd])+$/.test(trimmed)) throw new ScenarioError(`"${text}" is not a duration: write it like 90s, 10m, 2h or 1h30m`);
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) total += Number(amount) * UNITS[unit];
  // Beyond what a number holds it was said to be "never", and far beyond it as "2.4e+22 h 24 m 16 s".
  if (!(total <= MAX_DURATION_SECONDS)) throw new ScenarioError(`"${text}" is longer than any simulation: it covers at most ${formatSeconds(MAX_DURATION_SECONDS)}`);
  // Under half a second it was rounded to none, and refused as "not 0 s".
  if (total > 0 && Math.round(total) === 0) throw new ScenarioError(`"${text}" is less than a second, the simulator's smallest step`);
  return Math.round(total);
}

export const FAILURE_USAGE = 'none|apiserver|etcd|scheduler|controller-manager|nodes:NAME[,NAME]';

export function parseFailure(text: string): Failure {
  if (text === 'none' || text === 'apiserver' || text === 'etcd' || text === 'scheduler' || text === 'controller-manager') return { kind: text };
  if (text === 'etcd-quorum') return { kind: 'etcd' };
  const nodes = /^nodes?:(.+)$/.exec(text);
  if (nodes) {
    // A node named twice fails once (it said "cp-1, cp-1 fail").
    const names = [...new Set(nodes[1].split(',').map((n) => n.trim()).filter(Boolean))];
    if (names.length) return { kind: 'nodes', nodes: names };
  }
  throw new ScenarioError(`--fail takes ${FAILURE_USAGE}, not "${text}"`);
}

/**
 * The scenario with what it says twice said once: a node failed twice, or an event of a node (or of the cluster) at
 * one moment written again, means nothing more (5,000 reboots of one node at one moment made 15,000 timeline rows).
 * Pod crashes and surges repeated are kept: two crashes at a moment crash two pods.
 */
export function withoutRepeats(scenario: Scenario): Scenario {
  const failed = scenario.fail.kind === 'nodes' ? [...new Set(scenario.fail.nodes)] : [];
  const fail = scenario.fail.kind === 'nodes' && failed.length < scenario.fail.nodes.length ? { kind: 'nodes' as const, nodes: failed } : scenario.fail;
  const seen = new Set<string>();
  const events = scenario.events.filter((event) => {
    if (event.kind === 'pod-crash' || event.kind === 'traffic-surge') return true;
    const key = JSON.stringify([event.kind, 'node' in event ? event.node : '', event.at]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return events.length === scenario.events.length && fail === scenario.fail ? scenario : { ...scenario, fail, events };
}

export const EVENT_USAGE = 'node-reboot:NODE@TIME, node-lost:NODE@TIME, pod-crash:NAMESPACE/WORKLOAD:restartable|permanent@TIME, traffic-surge:NAMESPACE/WORKLOAD:FACTOR@TIME, coredns-restart@TIME, kube-proxy-restart:NODE@TIME, drain:NODE@TIME, scale-down:NODE@TIME, upgrade-nodes@TIME';

/** The events that are voluntary disruptions: with only these, nothing needs to fail in the control plane. */
export const VOLUNTARY_EVENTS: readonly ScenarioEvent['kind'][] = ['drain', 'scale-down', 'upgrade-nodes'];

/** `--drain a,b`: kubectl drains of those nodes at 0. */
export function parseDrainList(text: string): ScenarioEvent[] {
  // A node named twice is drained once (the second drain said it was empty while its pods still stopped).
  const nodes = [...new Set(text.split(',').map((n) => n.trim()).filter(Boolean))];
  if (!nodes.length) throw new ScenarioError(`--drain takes NODE[,NODE…], not "${text}"`);
  return nodes.map((node) => ({ kind: 'drain', node, at: 0 }));
}

/** `node-reboot:worker-2@10m` and friends. */
export function parseEvent(text: string): ScenarioEvent {
  const bad = (why: string) => new ScenarioError(`--event "${text}": ${why} (one of ${EVENT_USAGE})`);
  const at = text.lastIndexOf('@');
  if (at < 0) throw bad('no @TIME');
  const time = parseDuration(text.slice(at + 1));
  const [kind, ...rest] = text.slice(0, at).split(':');
  const args = rest.join(':');
  const workload = (ref: string) => {
    const match = /^([^/\s]+)\/([^/\s]+)$/.exec(ref);
    if (!match) throw bad(`"${ref}" is not NAMESPACE/WORKLOAD`);
    return { namespace: match[1], workload: match[2] };
  };
  switch (kind) {
    case 'node-reboot':
    case 'node-lost':
    case 'kube-proxy-restart':
    case 'drain':
    case 'scale-down':
      if (!args) throw bad('no node named');
      return { kind, node: args, at: time };
    case 'coredns-restart':
    case 'upgrade-nodes':
      if (args) throw bad('takes no arguments');
      return { kind, at: time };
    case 'pod-crash': {
      const match = /^(.+):(restartable|permanent)$/.exec(args);
      if (!match) throw bad('write pod-crash:NAMESPACE/WORKLOAD:restartable|permanent@TIME');
      return { kind, ...workload(match[1]), mode: match[2] as 'restartable' | 'permanent', at: time };
    }
    case 'traffic-surge': {
      const match = /^(.+):(\d+(?:\.\d+)?)$/.exec(args);
      // 1 or less is no surge (it did nothing); at most what the simulation view's messages take (past a number's range
      // it said "×Infinity").
      if (!match || !(Number(match[2]) > 1 && Number(match[2]) <= MAX_SURGE_FACTOR)) throw bad(`write traffic-surge:NAMESPACE/WORKLOAD:FACTOR@TIME with a factor above 1, at most ${MAX_SURGE_FACTOR}`);
      return { kind, ...workload(match[1]), factor: Number(match[2]), at: time };
    }
    default:
      throw bad(`unknown event "${kind}"`);
  }
}

/**
 * Every node and workload the scenario names must exist in `topology` (the cluster as the what-if makes it, `before`
 * it); the what-if count must be sensible.
 */
export function validateScenario(scenario: Scenario, topology: SimTopology, workloads: SimWorkload[], before = topology): void {
  const nodes = new Set(topology.nodes.map((n) => n.name));
  const known = (name: string) => {
    if (nodes.has(name)) return;
    // A control-plane node --control-planes left out is not unknown: the what-if has none of that name.
    if (before.nodes.some((n) => n.name === name)) throw new ScenarioError(`node "${name}" is not in the what-if: --control-planes ${scenario.controlPlanes} keeps ${controlPlaneNodes(topology).map((n) => n.name).join(', ')}`);
    throw new ScenarioError(`unknown node "${name}" (nodes: ${[...nodes].join(', ')})`);
  };
  if (scenario.controlPlanes !== undefined && (!Number.isInteger(scenario.controlPlanes) || scenario.controlPlanes < 1 || scenario.controlPlanes > 9)) {
    throw new ScenarioError(`--control-planes takes a whole number from 1 to 9, not "${scenario.controlPlanes}"`);
  }
  // A failure for 0 s simulated nothing and said so as if it were an answer ("fails for 0 s").
  if (scenario.fail.kind !== 'none' && !(scenario.duration > 0)) throw new ScenarioError(`a failure lasts some time, not ${formatSeconds(Math.max(0, scenario.duration))}`);
  const longest = Math.max(scenario.duration, ...scenario.events.map((e) => e.at));
  if (longest > MAX_DURATION_SECONDS) throw new ScenarioError(`the simulation covers at most ${formatSeconds(MAX_DURATION_SECONDS)}, not ${formatSeconds(longest)}`);
  if (scenario.fail.kind === 'nodes') scenario.fail.nodes.forEach(known);
  const names = new Set(workloads.map(workloadKey));
  const controlPlanes = new Set(topology.nodes.filter((n) => n.controlPlane).map((n) => n.name));
  for (const event of scenario.events) {
    if ('node' in event) known(event.node);
    // The cluster autoscaler manages node groups of workers: it never removes a control-plane node.
    if (event.kind === 'scale-down' && controlPlanes.has(event.node)) throw new ScenarioError(`${event.node} is a control-plane node, which the cluster autoscaler never scales down (drain:${event.node}@… drains it)`);
    if ('workload' in event && !names.has(workloadKey({ namespace: event.namespace, name: event.workload }))) {
      throw new ScenarioError(`unknown workload "${event.namespace}/${event.workload}" (workloads: ${[...names].slice(0, 12).join(', ')}${names.size > 12 ? ', …' : ''})`);
    }
  }
}
