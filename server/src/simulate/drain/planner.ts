import type { ControlPlaneTimeline } from '../control-plane';
import { FACT, TIMING } from '../facts';
import { workloadKey, type SimTopology, type SimWorkload } from '../model';
import { nodeFailedAt, type NodeIncident } from '../node-incidents';
import { notReadyAt, type Span } from '../node-readiness';
import type { Scenario } from '../types';
import { desiredHealthy } from '../../manifest/pdb';
import { budgetsOver, type PodGuard } from '../budgets-over';
import type { DrainPlan } from './plan';
import { onNode } from '../on-node';

interface PlanInputs {
  scenario: Scenario;
  topology: SimTopology;
  workloads: SimWorkload[];
  controlPlane: ControlPlaneTimeline;
  incidents: NodeIncident[];
  /** When the node controller has each node NotReady (the NoExecute taints' notReady). */
  notReady: ReadonlyMap<string, readonly Span[]>;
}

const on = (workload: SimWorkload, node: string) => (onNode(workload.placement, node) ?? 0) > 0;

/** A pod kubectl drain will not delete without --force: one that no controller owns (a static pod is mirrored, and left alone). */
export function kubectlRefusal(workloads: SimWorkload[], node: string): string | undefined {
  const bare = workloads.filter((w) => on(w, node) && w.kind === 'Pod' && !w.staticPod);
  if (!bare.length) return undefined;
  return `kubectl drain refuses to start: ${bare.map(workloadKey).join(', ')} ${bare.length === 1 ? 'is a pod' : 'are pods'} without a controller, deleted only with --force (and then lost for good)`;
}

/** The pods a budget selects that were ready when the cluster was read: those it counts as healthy. */
function healthyWhenRead(w: SimWorkload, guard: PodGuard): number {
  if (!guard.pods) return Math.max(0, w.replicas - (w.notServing?.length ?? 0));
  const running = new Set(Object.values(w.podNames ?? {}).flat());
  const down = new Set((w.notServing ?? []).map((p) => p.pod));
  return guard.pods.filter((pod) => running.has(pod) && !down.has(pod)).length;
}

/** Disruptions a budget allows as the pods were read: the autoscaler does not pick a node a budget holds now. */
function allowedNow(w: SimWorkload, guard: PodGuard): number {
  return Math.max(0, healthyWhenRead(w, guard) - desiredHealthy(guard.budget, w.replicas));
}

/** Why the autoscaler will not evict the workload's pods on the node, as their budgets stand when the cluster was read. */
function budgetRefusal(w: SimWorkload, node: string): string | undefined {
  // Named where budgets pick some out by name; otherwise every pod has the same budgets.
  const pods: (string | undefined)[] = onNode(w.podNames, node) ?? [undefined];
  for (const name of pods) {
    const pod = `a pod of ${workloadKey(w)}${name === undefined ? '' : ` (${name})`}`;
    const { names, guard } = budgetsOver(w, name);
    if (names.length > 1) return `${pod} is selected by ${names.length} PodDisruptionBudgets, and the eviction API evicts no such pod`;
    if (guard && allowedNow(w, guard) === 0) {
      const healthy = healthyWhenRead(w, guard);
      return `the PodDisruptionBudget ${guard.pdb} of ${workloadKey(w)} allows no disruption (it needs ${desiredHealthy(guard.budget, w.replicas)} healthy and ${healthy} ${healthy === 1 ? 'is' : 'are'})`;
    }
    if (w.namespace === 'kube-system' && !guard) return `${pod} runs in kube-system without a PodDisruptionBudget (--skip-nodes-with-system-pods)`;
  }
  return undefined;
}

/** Why the cluster autoscaler will not pick the node (FAQ: "What types of pods can prevent CA from removing a node?"). */
export function autoscalerRefusal(workloads: SimWorkload[], node: string, topology: SimTopology, usable: (node: string) => boolean = () => true): string | undefined {
  const workers = topology.nodes.filter((n) => !n.controlPlane).map((n) => n.name);
  for (const w of workloads.filter((w) => on(w, node) && w.kind !== 'DaemonSet' && !w.staticPod)) {
    const pod = `a pod of ${workloadKey(w)}`;
    // Where its pod could go: another node it may run on that takes pods now (not cordoned by a drain, not NotReady, not down).
    const elsewhere = (w.eligibleNodes ?? workers).filter((n) => n !== node && usable(n));
    if (w.safeToEvict === false) return `${pod} is annotated cluster-autoscaler.kubernetes.io/safe-to-evict: "false"`;
    if (w.kind === 'Pod' && !w.safeToEvict) return `${pod.replace('a pod of ', '')} is a pod without a controller`;
    if (w.localStorage && !w.safeToEvict) return `${pod} has local storage (emptyDir or hostPath) and no safe-to-evict: "true" annotation`;
    const held = budgetRefusal(w, node);
    if (held) return held;
    if (!elsewhere.length) return `no other node can run ${workloadKey(w)}'s pod (its node selector, tolerations or the resources it asks for), so the node is not unneeded while it runs`;
    if (w.hostPorts?.length && !elsewhere.some((n) => !on(w, n))) {
      return `no other node can run ${workloadKey(w)}'s pod: each runs one of its pods already, holding host port ${w.hostPorts.join(', ')} there`;
    }
  }
  return undefined;
}

/**
 * The autoscaler stops every operation while more than 45 % of the nodes and more than 3 nodes are unready
 * (IsClusterHealthy). It reads their Ready condition, as the node controller writes it (`notReady`, see
 * notReadySpans): a node that went down counts once marked NotReady, a grace period later.
 */
export function clusterUnhealthy(topology: SimTopology, notReady: ReadonlyMap<string, readonly Span[]>, t: number): { unready: number; total: number } | undefined {
  const total = topology.nodes.length;
  const unready = topology.nodes.filter(({ name }) => notReadyAt(notReady, name, t)).length;
  return unready > TIMING.autoscalerOkUnready && unready > TIMING.autoscalerMaxUnreadyShare * total ? { unready, total } : undefined;
}

/** The drains and scale-downs the scenario names, each as the node's cordon and why (if at all) nothing is evicted. */
export function planDrains({ scenario, topology, workloads, controlPlane, incidents, notReady }: PlanInputs): DrainPlan[] {
  const plans: DrainPlan[] = [];
  const takesPods = (node: string, t: number) =>
    !notReadyAt(notReady, node, t) && !nodeFailedAt(incidents, node, t) && !plans.some((p) => p.node === node && !p.halted && p.start <= t && t < p.uncordonAt);
  for (const event of scenario.events) {
    if (event.kind === 'drain') {
      const halted = kubectlRefusal(workloads, event.node) ?? (!controlPlane.at(event.at).writes ? 'kubectl drain cannot even cordon the node: the API is down' : undefined);
      plans.push({ node: event.node, by: 'kubectl', start: event.at, uncordonAt: Infinity, ...(halted ? { halted } : {}) });
    }
    if (event.kind === 'scale-down') {
      const segment = controlPlane.at(event.at);
      const sick = clusterUnhealthy(topology, notReady, event.at);
      // It needs the API only: with the controller manager down it still evicts, and nothing replaces what it evicts.
      const halted = !segment.writes
        ? 'the cluster autoscaler needs the API and stops with it'
        : sick
          ? `the cluster autoscaler stops all operations: ${sick.unready} of ${sick.total} nodes are unready (more than 45 % and more than 3)`
          : autoscalerRefusal(workloads, event.node, topology, (node) => takesPods(node, event.at));
      // A node the autoscaler does not pick is never tainted: it keeps taking pods.
      plans.push({ node: event.node, by: 'autoscaler', start: event.at, uncordonAt: halted ? event.at : Infinity, ...(halted ? { halted } : {}) });
    }
  }
  return plans;
}

export const PLAN_FACT = { kubectl: FACT.kubectlDrain, autoscaler: FACT.autoscalerScaleDown } as const;
