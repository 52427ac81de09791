import { TIMING } from './facts';
import { controlPlaneNodes, type SimTopology } from './model';
import { hasQuorum, quorumSize } from './quorum';
import type { Scenario, State } from './types';
import { plural } from '../words';

/** One stretch of time over which the control plane does not change. */
export interface ControlPlaneSegment {
  from: number;
  etcd: { members: number; alive: number; quorum: boolean };
  /** Control-plane nodes whose API server can serve (its own etcd member up when etcd is stacked). */
  apiServers: string[];
  /** Writes go through: some API server serves and etcd has quorum. */
  writes: boolean;
  /** Reads still answered from the watch cache (quorum lost less than ~30 s ago). */
  cachedReads: boolean;
  /** A scheduler / controller manager that reaches a working API server acts. */
  scheduling: boolean;
  controllers: boolean;
  /** A leader lease is moving to a surviving instance. */
  schedulingLeaseMoving: boolean;
  controllersLeaseMoving: boolean;
}

/** What the instances alone make of a moment, before the windows that follow a change (cached reads, lease moves). */
type RawSegment = Omit<ControlPlaneSegment, 'cachedReads' | 'schedulingLeaseMoving' | 'controllersLeaseMoving'> & { schedulers: string[]; managers: string[] };

type Instance = 'apiserver' | 'scheduler' | 'controller-manager' | 'etcd';
const INSTANCES: Instance[] = ['apiserver', 'scheduler', 'controller-manager', 'etcd'];

interface Outage {
  from: number;
  to: number;
}

/** The control plane over time: which instances run, whether etcd has quorum, what acts. */
export class ControlPlaneTimeline {
  readonly segments: ControlPlaneSegment[];
  readonly cpNodes: string[];
  /** The node controller's grace period for a silent node, in seconds. */
  readonly nodeMonitorGrace: number;

  constructor(
    readonly topology: SimTopology,
    readonly scenario: Scenario,
  ) {
    this.cpNodes = controlPlaneNodes(topology).map((n) => n.name);
    this.nodeMonitorGrace = topology.nodeMonitorGrace ?? TIMING.nodeMonitorGrace;
    this.segments = this.build();
  }

  /** Down intervals of one instance on one control-plane node. */
  private outages(node: string, instance: Instance): Outage[] {
    const { fail, duration } = this.scenario;
    const out: Outage[] = [];
    const whole = { from: 0, to: duration };
    // Not serving when the cluster was read: down before the outage, and through it.
    if (instance === 'apiserver' && this.topology.apiServersDown?.includes(node)) out.push({ from: -Infinity, to: Infinity });
    if (duration > 0) {
      if (fail.kind === 'apiserver' && instance === 'apiserver') out.push(whole);
      if (fail.kind === 'scheduler' && instance === 'scheduler') out.push(whole);
      if (fail.kind === 'controller-manager' && instance === 'controller-manager') out.push(whole);
      if (fail.kind === 'nodes' && fail.nodes.includes(node)) out.push(whole);
    }
    for (const event of this.scenario.events) {
      if (event.kind === 'node-lost' && event.node === node) out.push({ from: event.at, to: Infinity });
      // Static control-plane pods come back with the node (rule 7).
      if (event.kind === 'node-reboot' && event.node === node) out.push({ from: event.at, to: event.at + TIMING.assumedReboot });
    }
    return out;
  }

  private up(node: string, instance: Instance, t: number): boolean {
    return !this.outages(node, instance).some((o) => t >= o.from && t < o.to);
  }

  private breakpoints(): number[] {
    const points = new Set<number>([0, this.scenario.duration]);
    for (const node of this.cpNodes) {
      for (const instance of INSTANCES) {
        for (const o of this.outages(node, instance)) {
          points.add(o.from);
          if (Number.isFinite(o.to)) points.add(o.to);
        }
      }
    }
    return [...points].filter((p) => p >= 0).sort((a, b) => a - b);
  }

  private raw(t: number): RawSegment {
    const stacked = this.topology.etcd.mode === 'stacked';
    const members = stacked ? this.cpNodes.length : this.topology.etcd.members;
    // External members run on hosts that are no nodes of the cluster: no node's failure, reboot or loss reaches them (a
    // worker named etcd-1 was taken for one). Only the scenario's etcd failure does, as it does a stacked etcd.
    const alive = stacked ? this.cpNodes.filter((n) => this.up(n, 'etcd', t)).length : members;
    // A stacked API server talks only to its own node's etcd member (facts/control-plane.md §4).
    const apiServers = this.cpNodes.filter((n) => this.up(n, 'apiserver', t) && (!stacked || this.up(n, 'etcd', t)));
    // Quorum loss as the failure itself: members run but cannot agree, so the API servers stay up without it.
    const quorumFailed = this.scenario.fail.kind === 'etcd' && t >= 0 && t < this.scenario.duration;
    const quorum = !quorumFailed && hasQuorum(members, alive);
    const writes = quorum && apiServers.length > 0;
    // Scheduler and controller manager reach the API through their own node's API server (kubeadm ≥ 1.20).
    const schedulers = writes ? apiServers.filter((n) => this.up(n, 'scheduler', t)) : [];
    const managers = writes ? apiServers.filter((n) => this.up(n, 'controller-manager', t)) : [];
    return { from: t, etcd: { members, alive, quorum }, apiServers, writes, scheduling: schedulers.length > 0, controllers: managers.length > 0, schedulers, managers };
  }

  private build(): ControlPlaneSegment[] {
    const points = this.breakpoints();
    // Before the outage every instance runs: the state changes are measured against it.
    const healthy = this.raw(-1);
    const raws = points.map((t) => this.raw(t));
    const schedulerMoves = this.leaseMoves(raws, healthy, (r) => r.schedulers, this.topology.leaders?.scheduler);
    const managerMoves = this.leaseMoves(raws, healthy, (r) => r.managers, this.topology.leaders?.controllerManager);
    // Windows that follow a change: cached reads after quorum loss, lease hand-over after losing the leader.
    const windows = new Set<number>([...schedulerMoves, ...managerMoves].map((t) => t + TIMING.leaderLease));
    raws.forEach((r, i) => {
      const before = raws[i - 1] ?? healthy;
      if (before.etcd.quorum && !r.etcd.quorum) windows.add(r.from + TIMING.watchCacheGrace);
    });
    const all = [...new Set([...points, ...windows])].sort((a, b) => a - b);
    const segments: ControlPlaneSegment[] = [];
    let quorumLostAt = -Infinity;
    let previous = healthy;
    const lastBefore = (moves: number[], t: number) => moves.filter((m) => m <= t).at(-1) ?? -Infinity;
    for (const t of all) {
      const r = this.raw(t);
      if (previous.etcd.quorum && !r.etcd.quorum) quorumLostAt = t;
      const { schedulers: _s, managers: _m, ...segment } = r;
      segments.push({
        ...segment,
        cachedReads: !r.etcd.quorum && r.apiServers.length > 0 && t < quorumLostAt + TIMING.watchCacheGrace,
        schedulingLeaseMoving: r.scheduling && t < lastBefore(schedulerMoves, t) + TIMING.leaderLease,
        controllersLeaseMoving: r.controllers && t < lastBefore(managerMoves, t) + TIMING.leaderLease,
      });
      previous = r;
    }
    return segments;
  }

  /**
   * When a leader lease starts moving: an instance is lost while others run on, and the leader was among those lost.
   * A leader known from the cluster's lease that keeps running keeps it; after a move, or once every instance lost
   * it, the new holder is unknown, and the next loss is taken to be the leader's.
   */
  private leaseMoves(raws: RawSegment[], healthy: RawSegment, instances: (r: RawSegment) => string[], knownLeader: string | undefined): number[] {
    let leader = knownLeader && this.cpNodes.includes(knownLeader) ? knownLeader : undefined;
    const moves: number[] = [];
    raws.forEach((r, i) => {
      const before = instances(raws[i - 1] ?? healthy);
      const now = instances(r);
      if (!before.some((n) => !now.includes(n)) || (leader !== undefined && now.includes(leader))) return;
      leader = undefined;
      if (now.length) moves.push(r.from);
    });
    return moves;
  }

  at(t: number): ControlPlaneSegment {
    let found = this.segments[0];
    for (const s of this.segments) {
      if (s.from <= t) found = s;
      else break;
    }
    return found;
  }

  /** The earliest moment at or after `from` when `holds` is true, Infinity when it never is. */
  firstTime(from: number, holds: (s: ControlPlaneSegment) => boolean): number {
    if (holds(this.at(from))) return from;
    const next = this.segments.find((s) => s.from > from && holds(s));
    return next ? next.from : Infinity;
  }

  /** When the API next takes writes (kubelets report, controllers can act). */
  firstWrites(from: number): number {
    return this.firstTime(from, (s) => s.writes);
  }

  /** When the controller manager next acts: it reaches the API and its leader holds the lease. */
  firstControllers(from: number): number {
    return this.firstTime(from, (s) => s.controllers && !s.controllersLeaseMoving);
  }

  /** When new pods are next made and bound: controllers and scheduler act. */
  firstScheduling(from: number): number {
    return this.firstTime(from, (s) => s.scheduling && !s.schedulingLeaseMoving && s.controllers && !s.controllersLeaseMoving);
  }

  /**
   * When the node controller marks a node that went silent at `at` NotReady: a grace period after it could watch the
   * node, counted afresh by a controller manager that returns or takes the lease over (its node health starts empty).
   */
  notReadyAt(at: number): number {
    return this.firstControllers(at) + this.nodeMonitorGrace;
  }

  apiState(s: ControlPlaneSegment): State {
    if (!s.writes) return 'down';
    return s.apiServers.length < this.cpNodes.length ? 'degraded' : 'ok';
  }

  etcdState(s: ControlPlaneSegment): State {
    if (!s.etcd.quorum) return 'down';
    return s.etcd.alive < s.etcd.members ? 'degraded' : 'ok';
  }

  describeEtcd(s: ControlPlaneSegment): string {
    const { members, alive } = s.etcd;
    const need = quorumSize(members);
    const mode = this.topology.etcd.mode === 'stacked' ? 'stacked etcd' : 'external etcd';
    if (this.scenario.fail.kind === 'etcd' && !s.etcd.quorum) return `${mode} has lost quorum (the failure simulated): no write can commit`;
    return `${mode}: ${alive} of ${plural(members, 'member')} up, quorum needs ${need}${s.etcd.quorum ? '' : ': no write can commit'}`;
  }
}
