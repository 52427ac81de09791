import { FACT, TIMING } from './facts';
import { formatSeconds } from './format-time';
import { firstFailure, nodeBackAt, nodeIsDown, podsBackAt } from './node-incidents';
import { holdReason } from './no-execute-taints';
import type { SimContext } from './workload-capacity';
import type { TimelineEvent } from './types';
import { onNode } from './on-node';

/** What happens to each node the scenario touches. */
export function simulateNodes(ctx: SimContext): TimelineEvent[] {
  const { controlPlane: cp, incidents, scenario } = ctx;
  const events: TimelineEvent[] = [];
  const subject = (name: string) => ({ type: 'node' as const, name });
  for (const incident of incidents) {
    const isControlPlane = cp.cpNodes.includes(incident.node);
    const carrying = isControlPlane ? ` with its API server, ${ctx.topology.etcd.mode === 'stacked' ? 'etcd member, ' : ''}scheduler and controller manager` : '';
    events.push({ at: incident.at, subject: subject(incident.node), state: 'down', reason: `${incident.what}${carrying}: every pod on it is gone`, fact: incident.fact });
    if (!Number.isFinite(incident.backAt) || incident.backAt > ctx.end) continue;
    // Another incident still holds the node down: that one tells its return.
    if (nodeBackAt(incidents, incident.node, incident.at) !== incident.backAt) continue;
    const podsBack = podsBackAt(incidents, incident.node, incident.at, (t) => cp.firstWrites(t));
    if (podsBack > incident.backAt + TIMING.reconnect) {
      events.push({
        at: incident.backAt,
        subject: subject(incident.node),
        state: 'degraded',
        reason: `${incident.node} is up again${incident.kind === 'reboot' ? ` (reboot assumed to take ${formatSeconds(TIMING.assumedReboot)})` : ''}, but only static pods start: no kube-proxy, CNI agent or regular pods until the API returns, and its iptables/IPVS rules are gone, so it serves nothing`,
        fact: FACT.nodeReboot,
      });
    }
    // Down again before its kubelet reached the API (lost, rebooted again): what follows is that incident's to tell.
    if (firstFailure(incidents, incident.node, incident.backAt, podsBack) < podsBack) continue;
    if (podsBack <= ctx.end) {
      events.push(
        incident.kind === 'replaced'
          ? { at: podsBack, subject: subject(incident.node), state: 'ok', reason: `the fresh ${incident.node} has joined: it runs its DaemonSet pods and takes new pods again`, fact: incident.fact }
          : { at: podsBack, subject: subject(incident.node), state: 'ok', reason: `${incident.node}'s kubelet reached the API and started its pods again`, fact: FACT.recovery },
      );
    }
  }
  for (const node of ctx.topology.notReadyNodes ?? []) {
    const taintedFor = onNode(ctx.topology.notReadyTaintedFor, node);
    const evictAt = ctx.taints.evictionAt(node, 0, TIMING.unreachableToleration);
    const taintedAt = ctx.taints.taintedAt(node, 0);
    const since = !cp.at(0).controllers
      ? "counted from the controller manager's return, whose taint-eviction controller counts afresh"
      : taintedAt < 0 && taintedFor !== undefined
        ? `from when the node controller tainted it, ${formatSeconds(taintedFor)} before the read`
        : taintedAt > 0
          ? `counted from its taint at ${formatSeconds(taintedAt)}`
          : 'counted from the read';
    const evicted = evictAt <= ctx.end ? `; the node controller evicts its pods once they no longer tolerate it: ${evictAt === 0 ? 'at once' : `by ${formatSeconds(evictAt)}`} for the default ${TIMING.unreachableToleration} s toleration (${since})` : '';
    events.push({ at: 0, subject: subject(node), state: 'down', reason: `${node} was NotReady when the cluster was read: its pods serve nothing, and it takes no new pods${evicted}`, fact: FACT.nodeLifecycle });
  }
  events.push(...taintHolds(ctx));
  for (const event of scenario.events) {
    if (event.kind !== 'kube-proxy-restart') continue;
    const notRunning = kubeProxyNotRunning(ctx, event.node, event.at);
    if (notRunning) {
      events.push({ at: event.at, subject: subject(event.node), ...notRunning });
      continue;
    }
    const writes = cp.at(event.at).writes;
    events.push({
      at: event.at,
      subject: subject(event.node),
      state: writes ? 'ok' : 'degraded',
      reason: writes
        ? `kube-proxy on ${event.node} restarted and re-synced its rules`
        : `kube-proxy on ${event.node} restarted in the same mode: it does not flush its rules (v1.14+), so Services keep working there, but it cannot sync until the API returns (changing the proxy mode now would wipe them)`,
      fact: FACT.kubeProxy,
    });
  }
  return events;
}

/** Each NotReady node the node controller does not taint (zone disruption): its pods stay bound to it, not evicted. */
function taintHolds(ctx: SimContext): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const [node, holds] of ctx.taints.allHolds()) {
    for (const hold of holds) {
      if (hold.at > ctx.end) continue;
      const taintedAt = ctx.taints.taintedAt(node, hold.at);
      const then =
        taintedAt <= ctx.end
          ? `; it taints the node at ${formatSeconds(taintedAt)}, and the pods not tolerating it longer are evicted from then`
          : hold.then === 'ready' && hold.until <= ctx.end
            ? `, until the node is Ready again at ${formatSeconds(hold.until)}`
            : '';
      events.push({ at: hold.at, subject: { type: 'node', name: node }, state: 'down', reason: `${node} is NotReady, but ${holdReason(hold)}: its pods stay bound to it${then}`, fact: FACT.zoneDisruption });
    }
  }
  return events;
}

/**
 * Why no kube-proxy runs on `node` at `t` to be restarted, if none does: the node is down, or back without the
 * API, where only static pods start (a DaemonSet's pods need it) and its rules went with the reboot.
 */
function kubeProxyNotRunning(ctx: SimContext, node: string, t: number): Pick<TimelineEvent, 'state' | 'reason' | 'fact'> | undefined {
  const { incidents, controlPlane: cp } = ctx;
  const last = incidents.filter((i) => i.node === node && i.at <= t).sort((a, b) => b.at - a.at)[0];
  if (!last) return undefined;
  if (nodeIsDown(incidents, node, t)) return { state: 'down', reason: `kube-proxy on ${node} cannot be restarted: ${last.what}, and nothing runs there`, fact: last.fact };
  const podsBack = podsBackAt(incidents, node, last.at, (from) => cp.firstWrites(from));
  if (t >= podsBack) return undefined;
  return { state: 'degraded', reason: `kube-proxy on ${node} has not run since the node came back: a DaemonSet's pod starts only once its kubelet reaches the API, so nothing restarts it and the node still serves no Service`, fact: FACT.nodeReboot };
}
