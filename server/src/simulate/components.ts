import type { ControlPlaneSegment } from './control-plane';
import { FACT, TIMING } from './facts';
import { formatSeconds } from './format-time';
import { clusterUnhealthy } from './drain/planner';
import type { SimContext } from './workload-capacity';
import type { ComponentName, ComponentResult, State, TimelineEvent } from './types';

interface Row {
  name: ComponentName;
  state: (s: ControlPlaneSegment) => State;
  reason: (s: ControlPlaneSegment, state: State, before: State | undefined) => string;
  fact: string;
  /** A reason that qualifies an ok state (kubectl works, but nothing acts on it): told from the start too. */
  caveat?: (s: ControlPlaneSegment) => boolean;
}

/** The cluster functions' rows, derived from the control plane over time. DNS has its own model (dns.ts). */
export function simulateComponents(ctx: SimContext): { components: ComponentResult[]; events: TimelineEvent[] } {
  const cp = ctx.controlPlane;
  const managerOnly = (s: ControlPlaneSegment) => s.writes && !s.controllers;
  const kubectlIdle = (s: ControlPlaneSegment) => managerOnly(s) || !s.scheduling;
  const rows: Row[] = [
    {
      name: 'etcd',
      state: (s) => cp.etcdState(s),
      reason: (s) => cp.describeEtcd(s),
      fact: FACT.quorum,
    },
    {
      name: 'api',
      state: (s) => (s.writes ? cp.apiState(s) : s.cachedReads ? 'degraded' : 'down'),
      reason: (s, state) => {
        if (state === 'ok') return 'every API server serves and etcd has quorum';
        if (s.writes) return `${s.apiServers.length} of ${cp.cpNodes.length} API servers serve (${s.apiServers.join(', ')}); the load balancer and the default/kubernetes endpoints drop the others within ~15 s`;
        // The API servers' loss first: with the only control plane gone, "etcd has no quorum" named a consequence as the cause.
        if (!s.apiServers.length) return `no API server is running${s.etcd.quorum ? '' : ' (and etcd has no quorum)'}: nothing can read or write cluster state`;
        if (s.cachedReads) return `etcd has no quorum: writes and consistent reads (\`kubectl get\`) fail at once; API servers answer reads of cached data (informers' lists at resourceVersion 0, watches) from their watch cache for about ${TIMING.watchCacheGrace} s, then fail (429)`;
        return 'etcd has no quorum: the API fails every request';
      },
      fact: FACT.api,
    },
    {
      name: 'scheduling',
      state: (s) => (!s.scheduling ? 'down' : s.schedulingLeaseMoving ? 'degraded' : 'ok'),
      reason: (s, state, before) =>
        state === 'down'
          ? s.writes
            ? 'no scheduler runs: new pods stay Pending (running pods are not affected)'
            : 'the scheduler needs the API: new pods cannot even be created'
          : state === 'degraded'
            ? `if the scheduler's leader was on a lost node, its lease moves to a surviving one within ~${TIMING.leaderLease} s: no workload impact`
            : before === 'degraded'
              ? 'a surviving scheduler holds the lease'
              : 'the scheduler binds pods again',
      fact: FACT.controlLoops,
    },
    {
      name: 'controllers',
      state: (s) => (!s.controllers ? 'down' : s.controllersLeaseMoving ? 'degraded' : 'ok'),
      reason: (s, state, before) =>
        state === 'down'
          ? s.writes
            ? 'no controller manager runs: nothing replaces lost pods, Deployments do not roll, endpoints and node health are not updated'
            : 'the controller manager needs the API: no ReplicaSet, StatefulSet, DaemonSet, Job or CronJob controller, no endpoint updates, no node lifecycle'
          : state === 'degraded'
            ? `if the controller manager's leader was on a lost node, its lease moves to a surviving one within ~${TIMING.leaderLease} s: no workload impact`
            : before === 'degraded'
              ? 'a surviving controller manager holds the lease'
              : 'controllers reconcile again: lost pods are replaced; the node controller starts a fresh grace period, so no mass eviction',
      fact: FACT.controlLoops,
    },
    {
      name: 'autoscaling',
      // The HPA is a loop of the controller manager; VPA and the cluster autoscaler are programs of their own that need only the API.
      state: (s) => (!s.writes ? 'down' : s.controllers ? 'ok' : 'degraded'),
      reason: (_s, state) =>
        state === 'down'
          ? 'HPA, VPA and the cluster autoscaler need the API: replica counts and node counts are frozen'
          : state === 'degraded'
            ? 'the HPA runs in the controller manager: replica counts are frozen; VPA and the cluster autoscaler need only the API and keep evicting pods, which nothing replaces until the controller manager returns'
            : 'autoscalers act again; the cluster autoscaler pauses while more than 45 % of the nodes and more than 3 nodes are unready',
      fact: FACT.controlLoops,
    },
    {
      name: 'service-routing',
      state: (s) => (s.controllers && s.writes ? 'ok' : 'degraded'),
      reason: (_s, state) =>
        state === 'degraded'
          ? 'kube-proxy keeps its rules, but endpoints are frozen: dead or unready pods are not removed and new pods not added'
          : 'endpoints follow pods again: dead pods leave their Services',
      fact: FACT.frozenEndpoints,
    },
    {
      name: 'kubectl',
      state: (s) => (s.writes ? 'ok' : s.cachedReads ? 'degraded' : 'down'),
      reason: (s, state) =>
        state === 'down'
          ? 'kubectl, port-forward, logs, exec and dashboards all go through the API: unavailable'
          : state === 'degraded'
            ? `\`kubectl get\` and writes fail at once (both need etcd's quorum); only reads of cached data (informers) are answered from the watch cache, for about ${TIMING.watchCacheGrace} s`
            : kubectlIdle(s)
              ? idleKubectl(s)
              : 'kubectl works',
      fact: FACT.people,
      caveat: kubectlIdle,
    },
  ];

  const components: ComponentResult[] = [];
  const events: TimelineEvent[] = [];
  for (const row of rows) {
    const states: { at: number; state: State }[] = [];
    let lastReason = '';
    for (const segment of cp.segments) {
      if (segment.from > ctx.end) break;
      const state = row.state(segment);
      const previous = states[states.length - 1];
      // The state the row was in before this one: a segment that keeps the state does not end what came before it again.
      const before = previous?.state === state ? states[states.length - 2] : previous;
      const reason = row.reason(segment, state, before?.state);
      if (previous?.state === state && reason === lastReason) continue;
      if (previous?.state !== state) states.push({ at: segment.from, state });
      if (previous || state !== 'ok' || row.caveat?.(segment)) events.push({ at: segment.from, subject: { type: 'component', name: row.name }, state, reason, fact: row.fact });
      lastReason = reason;
    }
    components.push({ name: row.name, states });
  }
  const halt = autoscalerHalt(ctx);
  if (halt) haltAutoscaling(components.find((c) => c.name === 'autoscaling')!, events, halt, ctx.end);
  events.push(...outageNotes(ctx));
  return { components, events };
}

interface Halt {
  from: number;
  /** When enough nodes are ready again (Infinity: not within the scenario). */
  to: number;
  reason: string;
}

/**
 * The cluster autoscaler's halt once the API returns to a cluster whose nodes are mostly unready: it stops all
 * operations until enough of them are back. The autoscaling row said "autoscalers act again" at the API's return;
 * nodes lost meanwhile count only once the node controller marks them NotReady, a grace period later.
 */
function autoscalerHalt({ controlPlane: cp, topology, taints, end }: SimContext): Halt | undefined {
  const downAt = cp.segments.find((s) => !s.writes)?.from;
  if (downAt === undefined) return undefined;
  const back = cp.firstWrites(downAt);
  if (!Number.isFinite(back) || back > end) return undefined;
  const spans = [...taints.notReady.values()].flat();
  const changes = (after: number) => [...new Set(spans.flatMap((s) => [s.from, s.to]))].filter((t) => t > after && Number.isFinite(t)).sort((a, b) => a - b);
  const halted = [back, ...changes(back).filter((t) => t <= end)].map((t) => ({ t, sick: clusterUnhealthy(topology, taints.notReady, t) })).find((h) => h.sick);
  if (!halted?.sick) return undefined;
  const { t: from, sick } = halted;
  const when = from === back ? 'when the API returns' : `${formatSeconds(from - back)} after the API returns, once the node controller has marked them NotReady`;
  return {
    from,
    to: changes(from).find((t) => !clusterUnhealthy(topology, taints.notReady, t)) ?? Infinity,
    reason: `${sick.unready} of ${sick.total} nodes are unready ${when}: the cluster autoscaler stops all operations while more than 45 % of the nodes and more than 3 nodes are unready`,
  };
}

/** The autoscaling row degraded while the halt lasts where it would be ok, said when it begins and when it ends. */
function haltAutoscaling(row: ComponentResult, events: TimelineEvent[], halt: Halt, end: number): void {
  const stateAt = (t: number) => row.states.filter((s) => s.at <= t).at(-1)?.state ?? 'ok';
  const halted = (t: number) => t >= halt.from && t < halt.to;
  const ends = halt.to <= end;
  const points = [...new Set([...row.states.map((s) => s.at), halt.from, ...(ends ? [halt.to] : [])])].sort((a, b) => a - b);
  const states: { at: number; state: State }[] = [];
  for (const at of points) {
    const state = halted(at) && stateAt(at) === 'ok' ? 'degraded' : stateAt(at);
    if (states.at(-1)?.state !== state) states.push({ at, state });
  }
  const about = (e: TimelineEvent) => e.subject.type === 'component' && e.subject.name === 'autoscaling';
  const said = events.filter((e) => about(e) && halted(e.at) && e.state === 'ok');
  for (const e of said) Object.assign(e, { state: 'degraded', reason: halt.reason, fact: FACT.recovery });
  if (!said.some((e) => e.at === halt.from)) events.push({ at: halt.from, subject: { type: 'component', name: 'autoscaling' }, state: 'degraded', reason: halt.reason, fact: FACT.recovery });
  if (ends) events.push({ at: halt.to, subject: { type: 'component', name: 'autoscaling' }, state: stateAt(halt.to), reason: 'enough nodes are ready again: the cluster autoscaler acts again', fact: FACT.recovery });
  row.states = states;
}

/** Facts worth telling at a moment without changing a row: DNS holding, tokens, recovery. */
function outageNotes(ctx: SimContext): TimelineEvent[] {
  const cp = ctx.controlPlane;
  const notes: TimelineEvent[] = [];
  const downAt = cp.segments.find((s) => !s.writes)?.from;
  if (downAt === undefined) return notes;
  const back = cp.firstWrites(downAt);
  // A token refreshed just before the outage began is the last to miss its refresh; one due just then, the first to expire.
  const firstExpiry = downAt + TIMING.tokenTtl - TIMING.tokenRefresh;
  if (firstExpiry < back && firstExpiry <= ctx.end) {
    notes.push({
      at: firstExpiry,
      subject: { type: 'component', name: 'api' },
      state: 'down',
      reason: `where the API servers do not extend token expiry (CIS-hardened), the first projected service-account tokens expire now, ${formatSeconds(TIMING.tokenTtl)} after their last refresh: their pods' API clients get 401 until the kubelet refreshes them once the API is back, and every token has expired ${formatSeconds(TIMING.tokenTtl)} into the outage; with the default extended expiry nothing happens yet`,
      fact: FACT.tokens,
    });
  }
  const tokenAt = downAt + TIMING.tokenRefresh;
  if (tokenAt < back && tokenAt <= ctx.end) {
    notes.push({
      at: tokenAt,
      subject: { type: 'component', name: 'api' },
      state: 'down',
      // Each token was refreshed at its own moment before the outage: the first refresh missed may come at once, the last by now.
      reason: `by now every projected service-account token has missed its refresh (the kubelet refreshes each at 80 % of its ~1 h TTL, ${formatSeconds(TIMING.tokenRefresh)}; the first were missed as the outage began): harmless with the default extended expiry; where it is off (CIS-hardened API servers) tokens expire 12–60 m into the outage and in-pod clients get 401 until the kubelet refreshes them; custom-audience tokens (cloud IAM) are never extended and expire on their own TTL, so pods may lose cloud credentials`,
      fact: FACT.tokens,
    });
  }
  if (Number.isFinite(back) && back <= ctx.end) {
    notes.push({
      at: back,
      subject: { type: 'component', name: 'controllers' },
      state: cp.at(back).controllers ? 'ok' : 'down',
      reason: `the API is back after ${formatSeconds(back - downAt)}: no mass eviction (the node controller starts its ${cp.nodeMonitorGrace} s grace period afresh); controllers replace lost pods; each CronJob runs at most one missed schedule`,
      fact: FACT.recovery,
    });
  }
  return notes;
}

/** What kubectl meets with the API up but the scheduler or the controller manager down: what acts on its writes. */
function idleKubectl(s: ControlPlaneSegment): string {
  if (!s.controllers && !s.scheduling) return 'kubectl reads and writes work, but nothing acts on them';
  // With the controllers up a Deployment's new pods are created: they stay Pending, which "nothing acts" denied.
  if (s.controllers) return 'kubectl reads and writes work and controllers act on them, but no new pod is scheduled: new pods stay Pending';
  return 'kubectl reads and writes work, but no controller acts on them: a Deployment\'s new replicas, a Job\'s pods are never created';
}
