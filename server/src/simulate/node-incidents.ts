import { FACT, TIMING } from './facts';
import type { Scenario } from './types';
import { greatest, least } from '../extremes';
import { onNode } from './by-node';
import type { SimTopology, SimWorkload } from './model';
import type { NodeLossTaint } from '../manifest/scheduling';

/** A node that stops at `at` and (unless lost) is running again at `backAt`. */
export interface NodeIncident {
  node: string;
  kind: 'failed' | 'reboot' | 'lost' | 'replaced';
  at: number;
  backAt: number;
  /** Words for "what happened to the node", e.g. "worker-2 rebooted". */
  what: string;
  fact: string;
}

export function nodeIncidents(scenario: Scenario): NodeIncident[] {
  const incidents: NodeIncident[] = [];
  if (scenario.fail.kind === 'nodes' && scenario.duration > 0) {
    for (const node of scenario.fail.nodes) {
      incidents.push({ node, kind: 'failed', at: 0, backAt: scenario.duration, what: `${node} failed`, fact: FACT.nothingReplaced });
    }
  }
  for (const event of scenario.events) {
    if (event.kind === 'node-reboot') {
      incidents.push({ node: event.node, kind: 'reboot', at: event.at, backAt: event.at + TIMING.assumedReboot, what: `${event.node} rebooted`, fact: FACT.nodeReboot });
    }
    if (event.kind === 'node-lost') {
      incidents.push({ node: event.node, kind: 'lost', at: event.at, backAt: Infinity, what: `${event.node} was lost`, fact: FACT.nothingReplaced });
    }
  }
  return incidents.sort((a, b) => a.at - b.at);
}

export function nodeIsDown(incidents: NodeIncident[], node: string, t: number): boolean {
  return onNode(incidents, node).some((i) => t >= i.at && t < i.backAt);
}

/**
 * A failure, a reboot or a loss: not an upgrade's replacement, which was drained first and whose Node object goes
 * with it (its pods are collected, none waits on its kubelet).
 */
function isFailure(incident: NodeIncident): boolean {
  return incident.kind !== 'replaced';
}

/** Whether the node is down at `t` by a failure. */
export function nodeFailedAt(incidents: NodeIncident[], node: string, t: number): boolean {
  return onNode(incidents, node).some((i) => isFailure(i) && t >= i.at && t < i.backAt);
}

/** When `node` first fails from `from` until before `to`; Infinity when it does not. */
export function firstFailure(incidents: NodeIncident[], node: string, from: number, to: number): number {
  return least(onNode(incidents, node).filter((i) => isFailure(i) && i.at >= from && i.at < to).map((i) => i.at));
}

/** When the node runs again after `from`, overlapping incidents included (Infinity for a lost node). */
export function nodeBackAt(incidents: NodeIncident[], node: string, from: number): number {
  let t = from;
  for (;;) {
    const covering = onNode(incidents, node).filter((i) => t >= i.at && t < i.backAt);
    if (!covering.length) return t;
    t = greatest(covering.map((i) => i.backAt));
    if (!Number.isFinite(t)) return Infinity;
  }
}

/** When the node's kubelet runs its regular pods again: the node is up and it has reached the API (rule 7). */
export function podsBackAt(incidents: NodeIncident[], node: string, from: number, firstWrites: (t: number) => number): number {
  const back = nodeBackAt(incidents, node, from);
  if (!Number.isFinite(back)) return Infinity;
  // A fresh node (an upgrade's replacement) joins by registering with the API: no kubelet of it has to reconnect.
  const joined = onNode(incidents, node).some((i) => i.kind === 'replaced' && i.backAt === back);
  return firstWrites(back) + (joined ? 0 : TIMING.reconnect);
}

/** How long a workload's pods stay on a node carrying `taint` before the node controller evicts them: their own toleration, else the default; Infinity for ever. */
export function tolerationOf(workload: SimWorkload, taint: NodeLossTaint): number {
  const own = workload.nodeLossToleration?.[taint];
  return own === undefined ? TIMING.unreachableToleration : (own ?? Infinity);
}

/** The taint the node controller put on a node NotReady at the read: not-ready where its kubelet said so, unreachable where it stopped reporting. */
export function notReadyTaintOf(topology: SimTopology, node: string): NodeLossTaint {
  return topology.notReadyReported?.includes(node) ? 'node.kubernetes.io/not-ready' : 'node.kubernetes.io/unreachable';
}
