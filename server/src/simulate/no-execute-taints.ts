import { TIMING } from './facts';
import { formatSeconds } from './format-time';
import { least } from '../extremes';
import { compareCodeUnits } from '../sorted';
import { onNode as entryOf } from './on-node';
import type { NodeIncident } from './node-incidents';
import { notReadySpans, type Span } from './node-readiness';
import type { ControlPlaneTimeline } from './control-plane';
import type { SimNode, SimTopology } from './model';


/** Why the node controller left a NotReady node untainted, from `at` until `until` (Infinity: to the simulation's end). */
export interface TaintHold {
  at: number;
  until: number;
  cause: 'partial' | 'partial-large' | 'master';
  /** The node's zone and, when the hold began, how many of its nodes were NotReady. */
  zone: string;
  notReady: number;
  size: number;
  /** What ended it: the node Ready again (else its zone recovered, or the simulation ended). */
  then?: 'ready';
}

/** Labels the zone key is made of, in the order nodetopology.GetZoneKey reads them (the beta ones first). */
const REGION_LABELS = ['failure-domain.beta.kubernetes.io/region', 'topology.kubernetes.io/region'];
const ZONE_LABELS = ['failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/zone'];
const EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

/** A zone's rate-limited tainting queue: tokens at `rate` a second, at most one kept (burst 1); `next` is when one is there. */
interface Limiter {
  rate: number;
  next: number;
}

/**
 * When the node controller has its NoExecute taint on each NotReady node, the taint a pod's toleration counts from
 * (facts/control-plane.md §3). It queues a node once it is NotReady and taints the queue's nodes in turn, zone by
 * zone, at most one every 10 s (--node-eviction-rate); in a zone partially down (more than 2 of its nodes NotReady,
 * 55 % or more) none while the zone has 50 nodes or fewer, and one every 100 s in a larger one; while every zone is
 * wholly down (master disruption mode) it takes its taints off and adds none.
 */
export class NoExecuteTaints {
  private readonly taints = new Map<string, Span[]>();
  private readonly holds = new Map<string, TaintHold[]>();
  /** When the node controller has each node NotReady (see notReadySpans). */
  readonly notReady: ReadonlyMap<string, readonly Span[]>;

  constructor(
    topology: SimTopology,
    private readonly cp: ControlPlaneTimeline,
    incidents: readonly NodeIncident[],
  ) {
    const notReady = notReadySpans(topology, cp, incidents);
    this.notReady = notReady;
    const nodes = [...notReady.keys()];
    const zones = zonesOf(topology.nodes);
    const zoneOf = (node: string) => zones.byNode.get(node) ?? `${node}\0`;
    const taintedSince = new Map<string, number>();
    const queuedAt = new Map<string, number>();
    const held = new Map<string, Omit<TaintHold, 'until' | 'then'>>();
    const limiters = new Map<string, Limiter>();
    // A taint on the node when the cluster was read stays on it: nothing takes it off but master disruption mode.
    for (const node of nodes) {
      const taintedFor = entryOf(topology.notReadyTaintedFor, node);
      if (taintedFor !== undefined && notReady.get(node)![0].from <= 0) taintedSince.set(node, -taintedFor);
    }
    const untaint = (node: string, t: number) => {
      const since = taintedSince.get(node);
      if (since === undefined) return;
      this.listOf(this.taints, node).push({ from: since, to: t });
      taintedSince.delete(node);
    };
    const release = (node: string, t: number, then?: TaintHold['then']) => {
      const hold = held.get(node);
      if (!hold) return;
      if (t > hold.at) this.listOf(this.holds, node).push({ ...hold, until: t, ...(then ? { then } : {}) });
      held.delete(node);
    };
    const hold = (node: string, t: number, cause: TaintHold['cause'], counts: { notReady: number; size: number }) => {
      const current = held.get(node);
      if (current?.cause === cause) return;
      release(node, t);
      held.set(node, { at: t, cause, zone: zoneOf(node), ...counts });
    };
    const limiterOf = (zone: string) => {
      let limiter = limiters.get(zone);
      // A zone's queue starts with its one token.
      if (!limiter) limiters.set(zone, (limiter = { rate: TIMING.nodeEvictionRate, next: -Infinity }));
      return limiter;
    };
    // SwapLimiter: a new rate starts with a token only when the old limiter had one left.
    const setRate = (zone: string, rate: number, t: number) => {
      const limiter = limiterOf(zone);
      if (limiter.rate === rate) return;
      const hadToken = limiter.rate > 0 && limiter.next <= t;
      limiter.rate = rate;
      limiter.next = rate > 0 ? (hadToken ? t : t + 1 / rate) : Infinity;
    };

    const times = [...new Set([0, ...[...notReady.values()].flat().flatMap((s) => [s.from, s.to]), ...cp.segments.map((s) => s.from)])]
      .filter((time) => Number.isFinite(time) && time >= 0)
      .sort((a, b) => a - b);
    let master = false;
    let controllersWereUp = false;
    let next = 0;
    for (let t = times[0] ?? Infinity; Number.isFinite(t); ) {
      const down = nodes.filter((node) => notReady.get(node)!.some((s) => s.from <= t && t < s.to));
      const isDown = new Set(down);
      for (const node of nodes) {
        if (isDown.has(node)) continue;
        untaint(node, t);
        release(node, t, 'ready');
        queuedAt.delete(node);
      }
      const controllers = this.cp.at(t).controllers;
      if (controllers && !controllersWereUp) {
        // A controller manager that starts (again) has its queues and limiters afresh, and no disruption mode.
        master = false;
        limiters.clear();
        queuedAt.clear();
      }
      controllersWereUp = controllers;
      const wakeUps: number[] = [];
      // The queue in its order, first come first served (those that come at once by name): a Map keeps insertion order.
      const enqueue = (nodes: string[]) => {
        for (const node of nodes.sort(compareCodeUnits)) {
          queuedAt.delete(node);
          queuedAt.set(node, t);
        }
      };
      if (controllers) {
        enqueue(down.filter((node) => !taintedSince.has(node) && !queuedAt.has(node)));
        const counts = new Map<string, number>();
        for (const node of down) if (!zones.excluded.has(node)) counts.set(zoneOf(node), (counts.get(zoneOf(node)) ?? 0) + 1);
        const sizeOf = (zone: string) => zones.sizes.get(zone) ?? 1;
        const stateOf = (zone: string) => zoneState(counts.get(zone) ?? 0, sizeOf(zone));
        const allDown = zones.sizes.size > 0 && [...zones.sizes.keys()].every((zone) => stateOf(zone) === 'full');
        if (allDown && !master) {
          for (const node of down) untaint(node, t);
          enqueue([...down]);
        }
        if (allDown !== master) for (const zone of new Set([...zones.sizes.keys(), ...down.map(zoneOf)])) setRate(zone, allDown ? 0 : rateOf(stateOf(zone), sizeOf(zone)), t);
        master = allDown;
        const queues = new Map<string, string[]>();
        for (const node of queuedAt.keys()) {
          const queue = queues.get(zoneOf(node));
          if (queue) queue.push(node);
          else queues.set(zoneOf(node), [node]);
        }
        for (const [zone, queue] of queues) {
          const counted = { notReady: counts.get(zone) ?? 0, size: sizeOf(zone) };
          if (master) {
            for (const node of queue) hold(node, t, 'master', counted);
            continue;
          }
          const state = stateOf(zone);
          setRate(zone, rateOf(state, sizeOf(zone)), t);
          const limiter = limiterOf(zone);
          let first = 0;
          for (; first < queue.length && limiter.rate > 0 && limiter.next <= t; first++) {
            const node = queue[first];
            release(node, t);
            queuedAt.delete(node);
            taintedSince.set(node, t);
            limiter.next = t + 1 / limiter.rate;
          }
          if (first < queue.length && limiter.rate > 0) wakeUps.push(limiter.next);
          // Waiting on the normal rate is a matter of seconds; a zone's disruption is told.
          for (const node of queue.slice(first)) {
            if (state === 'partial') hold(node, t, limiter.rate > 0 ? 'partial-large' : 'partial', counted);
            else release(node, t);
          }
        }
      }
      while (next < times.length && times[next] <= t) next++;
      t = least([times[next] ?? Infinity, ...wakeUps.filter((time) => time > t)]);
    }
    for (const node of [...taintedSince.keys()]) untaint(node, Infinity);
    for (const node of [...held.keys()]) release(node, Infinity);
  }

  /** When the node controller taints `node`, NotReady from `from`; Infinity when it does not before the node is Ready again. */
  taintedAt(node: string, from: number): number {
    return this.listOf(this.taints, node).find((s) => s.to > from)?.from ?? Infinity;
  }

  /**
   * When pods tolerating the taint `toleration` seconds are evicted from `node`, NotReady from `from`: once the node
   * has carried the taint that long without a break while the controller manager's taint-eviction controller
   * counted (one that starts again counts from its start); Infinity when that does not happen.
   */
  evictionAt(node: string, from: number, toleration: number): number {
    for (const taint of this.listOf(this.taints, node)) {
      if (taint.to <= from) continue;
      const due = this.countedOut(taint.from, toleration);
      if (due < taint.to) return due;
    }
    return Infinity;
  }

  /** The first hold of `node`'s taint from `from` on: why its pods were evicted late, or not at all. */
  holdFrom(node: string, from: number): TaintHold | undefined {
    return this.listOf(this.holds, node).find((h) => h.until > from);
  }

  /** Every hold, by node: the nodes' rows tell them. */
  allHolds(): [string, TaintHold[]][] {
    return [...this.holds];
  }

  /** When a countdown of `seconds` started at `start` runs out, counted again from each return of the controller manager. */
  private countedOut(start: number, seconds: number): number {
    const segments = this.cp.segments;
    for (let begin = start; Number.isFinite(begin); ) {
      const due = Math.max(0, begin + seconds);
      const outage = segments.findIndex((s, i) => !s.controllers && s.from < due && (segments[i + 1]?.from ?? Infinity) > begin);
      if (outage < 0) return due;
      begin = this.cp.firstControllers(segments[outage].from);
    }
    return Infinity;
  }

  private listOf<T>(map: Map<string, T[]>, node: string): T[] {
    let list = map.get(node);
    if (!list) map.set(node, (list = []));
    return list;
  }
}

/** How a hold is said: why the node controller leaves the node untainted. */
export function holdReason(hold: TaintHold): string {
  if (hold.cause === 'master') return 'every node of the cluster is NotReady, which the node controller takes for a loss of its own connection (master disruption mode): it takes its NoExecute taints off and adds none';
  const partially = `${zoneName(hold.zone)} is partially disrupted (${hold.notReady} of its ${hold.size} nodes NotReady: more than 2, and 55 % or more)`;
  if (hold.cause === 'partial') return `${partially}, where, in a zone of ${TIMING.largeZone} nodes or fewer, the node controller adds no NoExecute taint`;
  return `${partially}, where the node controller adds its NoExecute taint to one node every ${formatSeconds(1 / TIMING.secondaryEvictionRate)}`;
}

interface Zones {
  byNode: Map<string, string>;
  sizes: Map<string, number>;
  excluded: Set<string>;
}

/** Each node's zone key (region and zone; one zone of their own for nodes without), and each zone's size, nodes excluded from disruption left out. */
function zonesOf(nodes: readonly SimNode[]): Zones {
  const zones: Zones = { byNode: new Map(), sizes: new Map(), excluded: new Set() };
  for (const node of nodes) {
    const label = (keys: string[]) => keys.map((k) => node.labels[k]).find((v) => v !== undefined);
    const zone = JSON.stringify([label(REGION_LABELS) ?? '', label(ZONE_LABELS) ?? node.zone ?? '']);
    zones.byNode.set(node.name, zone);
    if (EXCLUDE_DISRUPTION in node.labels) zones.excluded.add(node.name);
    else zones.sizes.set(zone, (zones.sizes.get(zone) ?? 0) + 1);
  }
  return zones;
}

/** ComputeZoneState: wholly down (no node Ready), partially (more than 2 NotReady, and 55 % or more), or normal. */
function zoneState(notReady: number, size: number): 'normal' | 'partial' | 'full' {
  if (notReady > 0 && notReady >= size) return 'full';
  return notReady > 2 && notReady / size >= TIMING.unhealthyZoneThreshold ? 'partial' : 'normal';
}

/** The tainting rate of a zone in `state` (setLimiterInZone): a zone wholly down is tainted as a healthy one. */
function rateOf(state: 'normal' | 'partial' | 'full', size: number): number {
  if (state !== 'partial') return TIMING.nodeEvictionRate;
  return size > TIMING.largeZone ? TIMING.secondaryEvictionRate : 0;
}

/** How a zone key is said: its zone (and region), or "the nodes without a zone". */
function zoneName(zone: string): string {
  const [region, name] = JSON.parse(zone) as [string, string];
  if (!name && !region) return 'the zone of the nodes without a zone label';
  return `zone ${name || '(none)'}${region ? ` of region ${region}` : ''}`;
}
