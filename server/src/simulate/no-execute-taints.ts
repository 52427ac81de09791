import { TIMING } from './facts';
import { formatSeconds } from './format-time';
import { least } from '../extremes';
import { onNode as entryOf } from './on-node';
import { onNode } from './by-node';
import { podsBackAt, type NodeIncident } from './node-incidents';
import type { ControlPlaneTimeline } from './control-plane';
import type { SimNode, SimTopology } from './model';

/** A stretch of time [from, to). */
interface Span {
  from: number;
  to: number;
}

/** Why the node controller did not taint a NotReady node, from `at` until `until` (Infinity: not within the simulation). */
export interface TaintHold {
  at: number;
  until: number;
  why: string;
  /** What ended it: the node tainted, the node Ready again, or another reason to hold (none: the simulation's end). */
  then?: 'tainted' | 'ready' | 'held';
}

/** Labels the zone key is made of (nodetopology.GetZoneKey), the legacy beta ones as its fallback. */
const REGION_LABELS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];
const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
const EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

/** Zone states of the node lifecycle controller (ComputeZoneState). */
type ZoneState = 'normal' | 'partial' | 'full';

/**
 * When the node controller has its NoExecute taint on each NotReady node, the taint a pod's toleration counts from
 * (facts/control-plane.md §3). It taints a node as soon as it is NotReady in a healthy zone or in one wholly down; in
 * a zone partially down (more than 2 of its nodes NotReady, and 55 % or more) it taints none while the zone has 50
 * nodes or fewer and one node every 100 s in a larger one; and while every zone is wholly down (master disruption
 * mode) it takes its taints off every node and adds none, giving each node a fresh grace period once a zone is back.
 */
export class NoExecuteTaints {
  private readonly taints = new Map<string, Span[]>();
  private readonly holds = new Map<string, TaintHold[]>();

  constructor(topology: SimTopology, cp: ControlPlaneTimeline, incidents: readonly NodeIncident[]) {
    const notReady = notReadySpans(topology, cp, incidents);
    const zones = zonesOf(topology.nodes);
    const zoneOf = (node: string) => zones.byNode.get(node);
    const taintedSince = new Map<string, number>();
    const heldSince = new Map<string, { at: number; why: string }>();
    // A node tainted at the read (its taint's time known) carries it from then.
    if (cp.at(0).controllers) for (const [node, spans] of notReady) if (spans[0].from <= 0 && entryOf(topology.notReadyTaintedFor, node) !== undefined) taintedSince.set(node, -entryOf(topology.notReadyTaintedFor, node)!);
    // Once master disruption mode ends, each node is given a fresh grace period before it counts as NotReady again.
    const freshUntil = new Map<string, number>();
    const nextToken = new Map<string, number>();
    let master = false;
    const isNotReady = (node: string, t: number) => (notReady.get(node) ?? []).some((s) => s.from <= t && t < s.to);
    const untaint = (node: string, t: number) => {
      const since = taintedSince.get(node);
      if (since === undefined) return;
      this.taintsOf(node).push({ from: since, to: t });
      taintedSince.delete(node);
    };
    const hold = (node: string, t: number, why: string) => {
      const held = heldSince.get(node);
      if (held?.why === why) return;
      release(node, t, 'held');
      heldSince.set(node, { at: t, why });
    };
    const release = (node: string, t: number, then?: TaintHold['then']) => {
      const held = heldSince.get(node);
      if (!held) return;
      if (t > held.at) this.holdsOf(node).push({ at: held.at, until: t, why: held.why, ...(then ? { then } : {}) });
      heldSince.delete(node);
    };
    const taint = (node: string, t: number) => {
      release(node, t, 'tainted');
      taintedSince.set(node, t);
    };

    const times = [...new Set([0, ...[...notReady.values()].flat().flatMap((s) => [s.from, s.to]), ...cp.segments.map((s) => s.from)])]
      .filter((t) => Number.isFinite(t) && t >= 0)
      .sort((a, b) => a - b);
    let t = times[0] ?? 0;
    for (let guard = 0; guard < 100_000 && Number.isFinite(t); guard++) {
      const down = [...notReady.keys()].filter((node) => isNotReady(node, t));
      const isDown = new Set(down);
      for (const node of [...taintedSince.keys()]) if (!isDown.has(node)) untaint(node, t);
      for (const node of [...heldSince.keys()]) if (!isDown.has(node)) release(node, t, 'ready');
      const wakeUps: number[] = [];
      if (cp.at(t).controllers) {
        const counted = down.filter((node) => zoneOf(node) !== undefined && !zones.excluded.has(node) && !((freshUntil.get(node) ?? -Infinity) > t));
        const states = zoneStates(zones, counted);
        const allDown = states.size > 0 && [...zones.sizes.keys()].every((zone) => states.get(zone) === 'full');
        if (allDown && !master) {
          master = true;
          for (const node of [...taintedSince.keys()]) untaint(node, t);
        } else if (!allDown && master) {
          master = false;
          for (const node of down) freshUntil.set(node, t + TIMING.nodeMonitorGrace);
        }
        for (const node of down) {
          if (taintedSince.has(node)) continue;
          const fresh = freshUntil.get(node) ?? -Infinity;
          if (fresh > t) {
            wakeUps.push(fresh);
            continue;
          }
          const zone = zoneOf(node);
          const state = zone === undefined ? 'normal' : (states.get(zone) ?? 'normal');
          const size = zone === undefined ? 1 : zones.sizes.get(zone)!;
          const counts = zone === undefined ? '' : `${counted.filter((n) => zoneOf(n) === zone).length} of its ${size} nodes`;
          if (master) hold(node, t, 'every node of the cluster is NotReady, which the node controller takes for a loss of its own connection (master disruption mode): it takes its NoExecute taints off and adds none');
          else if (state !== 'partial') taint(node, t);
          else if (size <= TIMING.largeZone) hold(node, t, `${zoneName(zone!)} is partially disrupted (${counts} NotReady: more than 2, and 55 % or more), where, in a zone of ${TIMING.largeZone} nodes or fewer, the node controller adds no NoExecute taint`);
          else {
            const token = nextToken.get(zone!) ?? -Infinity;
            if (token <= t) {
              taint(node, t);
              nextToken.set(zone!, t + 1 / TIMING.secondaryEvictionRate);
            } else {
              hold(node, t, `${zoneName(zone!)} is partially disrupted (${counts} NotReady), where the node controller adds its NoExecute taint to one node every ${formatSeconds(1 / TIMING.secondaryEvictionRate)}`);
              wakeUps.push(token);
            }
          }
        }
      }
      t = least([...times.filter((time) => time > t), ...wakeUps.filter((time) => time > t)]);
    }
    for (const node of [...taintedSince.keys()]) untaint(node, Infinity);
    for (const node of [...heldSince.keys()]) release(node, Infinity);
  }

  /**
   * When pods tolerating the taint `toleration` seconds are evicted from `node`, NotReady from `from`: once the node
   * has carried the taint that long without a break, and the controller manager runs (its taint-eviction
   * controller deletes them); Infinity when that does not happen.
   */
  evictionAt(cp: ControlPlaneTimeline, node: string, from: number, toleration: number): number {
    for (const taint of this.taintsOf(node)) {
      if (taint.to <= from) continue;
      const due = Math.max(0, taint.from + toleration);
      if (due < taint.to) return cp.firstControllers(due);
    }
    return Infinity;
  }

  /** The first hold of `node`'s taint from `from` on: why its pods were evicted late, or not at all. */
  holdFrom(node: string, from: number): TaintHold | undefined {
    return this.holdsOf(node).find((h) => h.until > from);
  }

  /** Every hold, by node: the nodes' rows tell them. */
  allHolds(): [string, TaintHold[]][] {
    return [...this.holds];
  }

  private taintsOf(node: string): Span[] {
    let spans = this.taints.get(node);
    if (!spans) this.taints.set(node, (spans = []));
    return spans;
  }

  private holdsOf(node: string): TaintHold[] {
    let holds = this.holds.get(node);
    if (!holds) this.holds.set(node, (holds = []));
    return holds;
  }
}

/**
 * When the node controller sees each node NotReady, merged by node: from the read until an incident brings it back
 * for a node NotReady then, and from the grace period after a failure until its kubelet reports again.
 */
function notReadySpans(topology: SimTopology, cp: ControlPlaneTimeline, incidents: readonly NodeIncident[]): Map<string, Span[]> {
  const spans = new Map<string, Span[]>();
  const add = (node: string, span: Span) => {
    if (span.from < span.to) spans.set(node, [...(spans.get(node) ?? []), span]);
  };
  const back = (node: string, at: number) => podsBackAt(incidents as NodeIncident[], node, at, (t) => cp.firstWrites(t));
  for (const node of topology.notReadyNodes ?? []) {
    const from = cp.at(0).controllers ? 0 : cp.firstControllers(0) + TIMING.nodeMonitorGrace;
    add(node, { from, to: least(onNode(incidents, node).map((i) => back(node, i.at))) });
  }
  for (const incident of incidents) {
    if (incident.kind === 'replaced') continue;
    add(incident.node, { from: cp.firstControllers(incident.at) + TIMING.nodeMonitorGrace, to: back(incident.node, incident.at) });
  }
  for (const [node, list] of spans) spans.set(node, merged(list));
  return spans;
}

function merged(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1);
    if (last && span.from <= last.to) last.to = Math.max(last.to, span.to);
    else out.push({ ...span });
  }
  return out;
}

interface Zones {
  byNode: Map<string, string>;
  sizes: Map<string, number>;
  excluded: Set<string>;
}

/** Each node's zone key (region and zone; one zone of its own for nodes without), and each zone's size, nodes excluded from disruption left out. */
function zonesOf(nodes: readonly SimNode[]): Zones {
  const zones: Zones = { byNode: new Map(), sizes: new Map(), excluded: new Set() };
  for (const node of nodes) {
    const label = (keys: string[]) => keys.map((k) => node.labels[k]).find((v) => v !== undefined) ?? '';
    const zone = JSON.stringify([label(REGION_LABELS), node.zone ?? label(ZONE_LABELS)]);
    zones.byNode.set(node.name, zone);
    if (EXCLUDE_DISRUPTION in node.labels) zones.excluded.add(node.name);
    else zones.sizes.set(zone, (zones.sizes.get(zone) ?? 0) + 1);
  }
  return zones;
}

/** ComputeZoneState for each zone with NotReady nodes: wholly down, partially (more than 2 and 55 % or more), or normal. */
function zoneStates(zones: Zones, notReady: readonly string[]): Map<string, ZoneState> {
  const counts = new Map<string, number>();
  for (const node of notReady) counts.set(zones.byNode.get(node)!, (counts.get(zones.byNode.get(node)!) ?? 0) + 1);
  const states = new Map<string, ZoneState>();
  for (const [zone, down] of counts) {
    const size = zones.sizes.get(zone) ?? 0;
    states.set(zone, down >= size ? 'full' : down > 2 && down / size >= TIMING.unhealthyZoneThreshold ? 'partial' : 'normal');
  }
  return states;
}

/** How a zone key is said: its zone (and region), or "the nodes without a zone". */
function zoneName(zone: string): string {
  const [region, name] = JSON.parse(zone) as [string, string];
  if (!name && !region) return 'the zone of the nodes without a zone label';
  return `zone ${name || '(none)'}${region ? ` of region ${region}` : ''}`;
}
