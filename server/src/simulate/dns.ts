import { FACT, TIMING } from './facts';
import { podsBackAt } from './node-incidents';
import type { SimContext } from './workload-capacity';
import type { NotServing } from './model';
import type { State, TimelineEvent } from './types';
import { plural } from '../words';
import { least } from '../extremes';

type ReplicaState = 'serving' | 'waiting' | 'servfail' | 'dead' | 'unlisted' | 'unready' | 'evicted' | 'crashed';

interface Interval {
  from: number;
  to: number;
  state: Exclude<ReplicaState, 'serving'>;
  why: string;
  /** Already out of the kube-dns Service when it began (its node NotReady, or itself not Ready): no query goes to it. */
  out?: boolean;
}

export interface DnsResult {
  states: { at: number; state: State }[];
  events: TimelineEvent[];
}

/** A CoreDNS replica as its workload's run knows it (`slot`), with the node it ran on when the cluster was read. */
interface DnsReplica {
  slot: number;
  node: string;
}

/** A CoreDNS pod a drain evicted: out of the kube-dns Service from `at` until its replacement serves (`until`). */
export interface DnsEviction extends DnsReplica {
  drained: string;
  at: number;
  until: number;
}

/** A replacement of a CoreDNS replica that serves from `at`, on node `to`. */
export interface DnsMove extends DnsReplica {
  at: number;
  to: string;
}

/** A CoreDNS container that stopped on its node (a crash, an OOM kill): restarted in place, or (no `restart`) failed for good. */
export interface DnsCrash extends DnsReplica {
  at: number;
  what: string;
  restart?: { startsAt: number; servesAt: number };
}

/** What the CoreDNS workload's run knows of its replicas (empty when no CoreDNS workload is known). */
export interface DnsHistory {
  /** Its replicas as the cluster was read, each with why it did not serve then, if it did not. */
  replicas: (DnsReplica & { atStart?: Pick<NotServing, 'pod' | 'why'> })[];
  evictions: DnsEviction[];
  moves: DnsMove[];
  crashes: DnsCrash[];
}

/** A node a replica runs on, from `from` until it leaves it (`to`: a drain evicts it, or its replacement serves elsewhere). */
interface Residence {
  node: string;
  from: number;
  to: number;
}

/** Cluster DNS over the outage, replica by replica (rule 8), following where the CoreDNS workload's run put each one. */
export function simulateDns(ctx: SimContext, history: DnsHistory = { replicas: [], evictions: [], moves: [], crashes: [] }): DnsResult {
  const { controlPlane: cp, incidents, scenario, topology } = ctx;
  const replicas = topology.coreDnsNodes;
  if (topology.clusterDnsWithoutReplicas) {
    const reason = `${topology.clusterDnsWithoutReplicas}: no cluster name resolves, before, during or after the outage`;
    return { states: [{ at: 0, state: 'down' }], events: [{ at: 0, subject: { type: 'component', name: 'dns' }, state: 'down', reason, fact: FACT.dns }] };
  }
  if (!replicas.length) return { states: [{ at: 0, state: 'ok' }], events: [] };
  const { evictions, moves } = history;
  const replicaOf = replicaOfSlot(replicas, [...history.replicas, ...evictions, ...moves]);

  const intervals: Interval[][] = replicas.map((node, index) => {
    const list: Interval[] = [];
    const own = evictions.filter((e) => replicaOf.get(e.slot) === index);
    const ownMoves = moves.filter((m) => replicaOf.get(m.slot) === index);
    const lived = residences(node, own, ownMoves);
    // When a replacement of it serves, as the CoreDNS workload's run found (its start, a node to run on); without
    // that workload, the assumed start after the node controller's eviction.
    const known = history.replicas.find((r) => replicaOf.get(r.slot) === index);
    const replacedAfter = (from: number, evictAt: number) => (known ? least(ownMoves.filter((m) => m.at >= from).map((m) => m.at)) : cp.firstScheduling(evictAt) + TIMING.assumedPodStart);
    const atStart = known ? known.atStart?.why : topology.notReadyNodes?.includes(node) ? 'node-not-ready' : undefined;
    if (atStart === 'not-ready' || atStart === 'node-not-ready') {
      // Out of the kube-dns Service from the start until a replacement serves: its node was NotReady at the read, or
      // it was not Ready itself (crashing, or failing its readiness probe; nothing evicts it).
      const nodeNotReady = atStart === 'node-not-ready';
      const evictAt = nodeNotReady ? ctx.taints.evictionAt(node, 0, TIMING.unreachableToleration) : Infinity;
      const why = nodeNotReady ? `${node} NotReady when the cluster was read` : known!.atStart!.pod;
      list.push({ from: 0, to: Math.min(replacedAfter(0, evictAt), lived[0].to), state: nodeNotReady ? 'unlisted' : 'unready', why });
    }
    for (const residence of lived) {
      // A node an upgrade replaces was drained first: its CoreDNS pods were evicted and run elsewhere.
      const hits = incidents.filter((i) => i.node === residence.node && i.kind !== 'replaced' && i.at >= residence.from && i.at < residence.to);
      for (const incident of hits) {
        const podsBack = podsBackAt(incidents, incident.node, incident.at, (t) => cp.firstWrites(t));
        const notReadyAt = cp.notReadyAt(incident.at);
        const evictAt = ctx.taints.evictionAt(incident.node, notReadyAt, TIMING.unreachableToleration);
        // The CoreDNS workload's run knows its own toleration of the node: where it is known, its replacement decides.
        const replaced = known || evictAt < podsBack ? replacedAfter(incident.at, evictAt) : Infinity;
        // A replica back with a new IP answers through the kube-dns Service only once its endpoints are updated.
        const back = Math.min(cp.firstControllers(podsBack), replaced);
        // Once its node is marked NotReady, the endpoints controller takes it out of the kube-dns Service: no query goes to it.
        const unlisted = notReadyAt < podsBack ? notReadyAt : Infinity;
        list.push({ from: incident.at, to: Math.min(back, unlisted), state: 'dead', why: incident.what, ...(outOfService(list, incident.at) ? { out: true } : {}) });
        if (unlisted < back) list.push({ from: unlisted, to: back, state: 'unlisted', why: incident.what });
      }
    }
    for (const crash of history.crashes.filter((c) => replicaOf.get(c.slot) === index)) list.push(...crashIntervals(crash, ownMoves, ctx));
    for (const eviction of own) list.push({ from: eviction.at, to: eviction.until, state: 'evicted', why: `the drain of ${eviction.drained}`, ...(outOfService(list, eviction.at) ? { out: true } : {}) });
    for (const event of scenario.events) {
      if (event.kind !== 'coredns-restart' || cp.at(event.at).writes) continue;
      if (list.some((i) => i.state === 'dead' && event.at >= i.from && event.at < i.to)) continue;
      list.push(...startedWithoutApi(event.at, cp.firstWrites(event.at) + TIMING.reconnect));
    }
    return list;
  });

  const stateOfReplica = (index: number, t: number): ReplicaNow => {
    const hit = intervals[index].filter((i) => t >= i.from && t < i.to);
    const dead = hit.find((i) => i.state === 'dead');
    const found = dead ?? hit[0];
    return found ? { state: found.state, why: found.why, ...(found.out ? { out: true } : {}) } : { state: 'serving' };
  };

  const points = new Set<number>([0]);
  for (const list of intervals) for (const i of list) for (const t of [i.from, i.to]) if (Number.isFinite(t) && t <= ctx.end) points.add(t);

  const states: { at: number; state: State }[] = [];
  const events: TimelineEvent[] = [];
  let last: State | undefined;
  let lastReason: string | undefined;
  for (const at of [...points].sort((a, b) => a - b)) {
    const now = replicas.map((_, i) => stateOfReplica(i, at));
    const count = (s: ReplicaState) => now.filter((r) => r.state === s).length;
    const serving = count('serving');
    const state: State = serving === replicas.length ? 'ok' : serving > 0 || count('waiting') > 0 ? 'degraded' : 'down';
    // A replica that leaves the kube-dns Service changes what DNS does without changing how many serve: said too.
    const reason = describe(now, replicas, topology.nodeLocalDns, { cacheFrozen: !cp.at(at).writes, endpointsFrozen: !cp.at(at).controllers });
    if (state === last && reason === lastReason) continue;
    if (state !== last) states.push({ at, state });
    if (last !== undefined || state !== 'ok') events.push({ at, subject: { type: 'component', name: 'dns' }, state, reason, fact: FACT.dns });
    last = state;
    lastReason = reason;
  }
  const apiDownAt = cp.segments.find((s) => !s.writes)?.from;
  const stateAt = (t: number) => states.filter((s) => s.at <= t).pop()?.state ?? 'ok';
  if (apiDownAt !== undefined && apiDownAt <= ctx.end && stateAt(apiDownAt) === 'ok') {
    events.push({
      at: apiDownAt,
      subject: { type: 'component', name: 'dns' },
      state: 'ok',
      reason: 'running CoreDNS replicas keep answering cluster names from their informer cache for the whole outage (frozen: no new Services); response-cache expiry does not break DNS (kube-dns, the older DNS server, reportedly failed after 1–2 min: uncertain)',
      fact: FACT.dns,
    });
  }
  // With the API up a restart is no outage: said, or the restart asked for looked ignored.
  for (const event of scenario.events) {
    if (event.kind !== 'coredns-restart' || event.at > ctx.end || !cp.at(event.at).writes || stateAt(event.at) !== 'ok') continue;
    events.push({ at: event.at, subject: { type: 'component', name: 'dns' }, state: 'ok', reason: 'CoreDNS restarted with the API up: its replicas list Services and endpoints from the API as they start and answer again within seconds', fact: FACT.dns });
  }
  return { states, events };
}

/**
 * What a crash does to a replica: down until its container starts again; a start without the API then waits
 * for it and answers SERVFAIL for cluster names until it has synced (as a CoreDNS restart does). One that
 * failed for good is gone until its replacement serves.
 */
function crashIntervals(crash: DnsCrash, moves: readonly DnsMove[], { controlPlane: cp }: SimContext): Interval[] {
  const { at, what, restart } = crash;
  if (!restart) return [{ from: at, to: least(moves.filter((m) => m.at >= at).map((m) => m.at)), state: 'dead', why: what }];
  const { startsAt, servesAt } = restart;
  if (cp.at(startsAt).writes || !Number.isFinite(servesAt)) return [{ from: at, to: servesAt, state: 'crashed', why: what }];
  return [{ from: at, to: startsAt, state: 'crashed', why: what }, ...startedWithoutApi(startsAt, servesAt)];
}

/** A replica started at `from` while the API is down: it waits for the API up to its startup timeout, then answers SERVFAIL until it has synced. */
function startedWithoutApi(from: number, synced: number): Interval[] {
  const waited = Math.min(from + TIMING.dnsStartupTimeout, synced);
  return [{ from, to: waited, state: 'waiting', why: 'CoreDNS restarted' }, ...(waited < synced ? [{ from: waited, to: synced, state: 'servfail' as const, why: 'CoreDNS restarted' }] : [])];
}

/** A replica at one moment: what it does, why, and whether it was out of the kube-dns Service before that. */
interface ReplicaNow {
  state: ReplicaState;
  why?: string;
  out?: boolean;
}

/** Whether a replica is out of the kube-dns Service at `t` by what came before: its node NotReady, or itself not Ready. */
function outOfService(list: readonly Interval[], t: number): boolean {
  return list.some((i) => (i.state === 'unlisted' || i.state === 'unready') && i.from <= t && t <= i.to);
}

/**
 * `cacheFrozen`: nothing can change what the API holds, so the replicas' caches stay as they are;
 * `endpointsFrozen`: no controller manager updates the kube-dns Service's endpoints.
 */
function describe(now: ReplicaNow[], nodes: string[], nodeLocal: boolean, { cacheFrozen, endpointsFrozen }: { cacheFrozen: boolean; endpointsFrozen: boolean }): string {
  const total = now.length;
  const ofAll = (n: number) => `${n} of ${plural(total, 'CoreDNS replica')}`;
  const of = (s: ReplicaState) => now.map((r, i) => ({ ...r, node: nodes[i] })).filter((r) => r.state === s);
  const serving = of('serving');
  const parts: string[] = [];
  if (serving.length === total) {
    parts.push(total === 1 ? 'the 1 CoreDNS replica answers cluster names again' : `all ${total} CoreDNS replicas answer cluster names again`);
    return parts.join('; ');
  }
  const evicted = of('evicted');
  if (evicted.length) {
    const until = evicted.length === 1 ? 'its replacement serves' : 'their replacements serve';
    // Without the controller manager the endpoints keep the evicted pods they listed: queries still go to them, and find them gone.
    const listed = evicted.filter((r) => !r.out).length;
    const which = listed === evicted.length ? '' : `${listed} of them `;
    const where = endpointsFrozen && listed ? `stopped, yet ${which}still listed by the kube-dns Service (its endpoints frozen without the controller manager), until ${until}` : `out of the kube-dns Service until ${until}`;
    parts.push(`${ofAll(evicted.length)} evicted (${[...new Set(evicted.map((r) => `${r.why}`))].join(', ')}): ${where}`);
  }
  const crashed = of('crashed');
  if (crashed.length) {
    const queried = endpointsFrozen ? `; the kube-dns Service still sends ${crashed.length === 1 ? 'it' : 'them'} queries (its endpoints frozen)` : '';
    parts.push(`${ofAll(crashed.length)} crashed (${[...new Set(crashed.map((r) => `${r.why}`))].join(', ')}) and not answering until the kubelet has restarted ${crashed.length === 1 ? 'it' : 'them'}${queried}`);
  }
  const dead = of('dead');
  if (dead.length) {
    const listed = dead.filter((r) => !r.out).length;
    const queried = !listed ? ' (already out of the kube-dns Service)' : listed === dead.length ? '; meanwhile the kube-dns Service still sends them queries' : `; meanwhile the kube-dns Service still sends queries to ${listed} of them`;
    parts.push(`${ofAll(dead.length)} gone (${[...new Set(dead.map((r) => `${r.why}`))].join(', ')}) and not back until the control plane restores them${queried}`);
  }
  const unready = of('unready');
  if (unready.length) parts.push(`${ofAll(unready.length)} not Ready when the cluster was read (${unready.map((r) => r.why).join(', ')}): out of the kube-dns Service until ${unready.length === 1 ? 'it is' : 'they are'} replaced`);
  const unlisted = of('unlisted');
  if (unlisted.length) parts.push(`${ofAll(unlisted.length)} gone (${[...new Set(unlisted.map((r) => `${r.why}`))].join(', ')}) and out of the kube-dns Service since ${unlisted.length === 1 ? 'its node was' : 'their nodes were'} marked NotReady, until ${unlisted.length === 1 ? 'it is' : 'they are'} replaced or back`);
  const waiting = of('waiting');
  if (waiting.length) parts.push(`${ofAll(waiting.length)} restarted and wait up to ${TIMING.dnsStartupTimeout} s for the API`);
  const servfail = of('servfail');
  if (servfail.length) parts.push(`${ofAll(servfail.length)} restarted without the API: SERVFAIL for every cluster name, external names still resolve through forwarding`);
  if (serving.length) parts.push(`${serving.length} replica${serving.length === 1 ? ' keeps' : 's keep'} answering${cacheFrozen ? ' from the informer cache (frozen: no new Services)' : ''}`);
  else if (!servfail.length && !waiting.length) parts.push('no replica answers: cluster and external names fail');
  else if (!waiting.length) parts.push('cluster DNS is down');
  if (nodeLocal) parts.push(serving.length ? 'NodeLocal DNSCache keeps working through the surviving replicas' : 'NodeLocal DNSCache cannot help: its cache misses go to the central replicas');
  return parts.join('; ');
}

/**
 * Where a replica runs over time: on the node it ran on when the cluster was read, then on each node a
 * replacement of it serves on, from then. It leaves a node when a drain evicts it there or its replacement
 * serves elsewhere: what happens to a node it left no longer concerns it; what happens to the node it moved to does.
 */
function residences(start: string, evictions: readonly DnsEviction[], moves: readonly DnsMove[]): Residence[] {
  const evictedFrom = (from: number) => least(evictions.filter((e) => e.at >= from).map((e) => e.at));
  const list: Residence[] = [];
  let current = { node: start, from: 0 };
  for (const move of [...moves].sort((a, b) => a.at - b.at)) {
    list.push({ ...current, to: Math.min(move.at, evictedFrom(current.from)) });
    current = { node: move.to, from: move.at };
  }
  list.push({ ...current, to: evictedFrom(current.from) });
  return list;
}

/** Each replica of the run (its slot) as one of `replicas`, matched by the node it ran on when the cluster was read. */
function replicaOfSlot(replicas: readonly string[], known: readonly DnsReplica[]): Map<number, number> {
  const byslot = new Map<number, number>();
  const taken = new Set<number>();
  for (const { slot, node } of [...known].sort((a, b) => a.slot - b.slot)) {
    if (byslot.has(slot)) continue;
    const index = replicas.findIndex((n, i) => n === node && !taken.has(i));
    if (index < 0) continue;
    taken.add(index);
    byslot.set(slot, index);
  }
  return byslot;
}
