import type { NotServing } from './model';
import type { CapacityPoint, State } from './types';

/** One replica: where it runs, whether its container serves, and what the (possibly frozen) Service lists for it. */
export interface Slot {
  id: number;
  node: string;
  alive: boolean;
  /** The Service lists an address for this replica. */
  listed: boolean;
  /** …and that address is the running incarnation's (not a dead pod's). */
  listedIsCurrent: boolean;
  /** Bumped by every new incarnation, so actions scheduled for a previous one do nothing. */
  generation: number;
  /** Restarts counted towards its crash-loop back-off. */
  restarts: number;
  /** When its container last came back from a restart (unset: running since before the start). */
  upSince?: number;
  /** The name of its pod, where a budget picks pods out by name (see SimWorkload.podNames). */
  pod?: string;
  /** The pod as the cluster was read, when it did not serve then. */
  atStart?: NotServing;
}

/** A pod already being deleted when the cluster was read: it serves nothing, and nothing replaces it. */
export function stopping(slot: Slot): boolean {
  return slot.atStart?.why === 'stopping';
}

/** What the workload serves at `at`: replicas alive and listed by their Service, and the share of listed endpoints that are dead. */
export function measure(at: number, slots: Slot[], desired: number, fronted: boolean, load: number): CapacityPoint {
  const serving = slots.filter((s) => s.alive && (!fronted || (s.listed && s.listedIsCurrent))).length;
  const listed = slots.filter((s) => s.listed).length;
  const dead = fronted ? slots.filter((s) => s.listed && !(s.alive && s.listedIsCurrent)).length : 0;
  const point: CapacityPoint = { at, ready: Math.min(serving, desired), desired, blackholed: listed ? round(dead / listed) : 0 };
  if (load > 1) point.load = round(load);
  return point;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}


export function stateOf(point: CapacityPoint, impaired: boolean): State {
  if (point.desired > 0 && point.ready === 0) return 'down';
  if (point.ready < point.desired || point.blackholed > 0 || (point.load ?? 1) > 1 || impaired) return 'degraded';
  return 'ok';
}

export function describeCapacity(point: CapacityPoint, state: State): string {
  if (point.desired === 0) return '';
  // A sentence of its own after the reasons: "… frozen at 3 replicas. Now serving 3/3".
  const parts = [`${state === 'ok' ? 'Now serving' : 'Serving'} ${point.ready}/${point.desired}`];
  // Not "dead": a restarted CoreDNS that answers SERVFAIL, or a pod not ready that a frozen Service lists, runs.
  if (point.blackholed > 0) parts.push(`${Math.round(point.blackholed * 100)} % of new connections go to listed pods that do not serve`);
  if ((point.load ?? 1) > 1) parts.push(`load ${point.load}× what it is sized for`);
  return parts.join(', ');
}

