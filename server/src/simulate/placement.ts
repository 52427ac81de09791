import { countOnNode } from './on-node';

/** A deterministic stand-in for the scheduler when no live pods tell where replicas run. */

export interface SpreadNode {
  name: string;
  zone?: string;
}

export interface SpreadRules {
  /** A spread constraint or anti-affinity on a zone key. */
  byZone: boolean;
  /** Required anti-affinity on the hostname: at most one replica a node. */
  onePerNode: boolean;
}

/** Replicas over the eligible nodes, round-robin (zones interleaved when the manifest spreads by zone), starting at a node chosen from the workload's name so that single replicas do not all land on the first node. */
export function assumedPlacement(replicas: number, nodes: SpreadNode[], rules: SpreadRules, seed: string): Record<string, number> {
  const sorted = [...nodes].sort((a, b) => a.name.localeCompare(b.name));
  if (!sorted.length || replicas <= 0) return {};
  const order = rules.byZone ? interleaveZones(sorted) : sorted;
  const start = hash(seed) % order.length;
  const placement: Record<string, number> = {};
  const count = rules.onePerNode ? Math.min(replicas, order.length) : replicas;
  for (let i = 0; i < count; i++) {
    const node = order[(start + i) % order.length].name;
    countOnNode(placement, node);
  }
  return placement;
}

function interleaveZones(nodes: SpreadNode[]): SpreadNode[] {
  const zones = new Map<string, SpreadNode[]>();
  for (const node of nodes) {
    const key = node.zone ?? '';
    const zone = zones.get(key);
    if (zone) zone.push(node);
    else zones.set(key, [node]);
  }
  const groups = [...zones.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, list]) => list);
  const out: SpreadNode[] = [];
  for (let i = 0; out.length < nodes.length; i++) for (const group of groups) if (group[i]) out.push(group[i]);
  return out;
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}
