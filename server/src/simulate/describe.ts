import { formatSeconds } from './format-time';
import type { Failure, Scenario, ScenarioEvent, WorkloadResult } from './types';
import { plural } from '../words';

export function describeFailure(fail: Failure): string {
  switch (fail.kind) {
    case 'none':
      return 'nothing fails in the control plane';
    case 'apiserver':
      return 'every API server fails';
    case 'etcd':
      return 'etcd loses quorum';
    case 'scheduler':
      return 'the scheduler fails';
    case 'controller-manager':
      return 'the controller manager fails';
    case 'nodes':
      return `${fail.nodes.join(', ')} fail${fail.nodes.length === 1 ? 's' : ''}`;
  }
}

export function describeEvent(event: ScenarioEvent): string {
  const when = `at ${formatSeconds(event.at)}`;
  switch (event.kind) {
    case 'node-reboot':
      return `${event.node} reboots ${when}`;
    case 'node-lost':
      return `${event.node} is lost ${when}`;
    case 'pod-crash':
      return `a pod of ${event.namespace}/${event.workload} crashes (${event.mode}) ${when}`;
    case 'traffic-surge':
      return `traffic to ${event.namespace}/${event.workload} grows ×${event.factor} ${when}`;
    case 'coredns-restart':
      return `CoreDNS restarts ${when}`;
    case 'kube-proxy-restart':
      return `kube-proxy on ${event.node} restarts ${when}`;
    case 'drain':
      return `${event.node} is drained (kubectl drain) ${when}`;
    case 'scale-down':
      return `the cluster autoscaler scales ${event.node} down ${when}`;
    case 'upgrade-nodes':
      return `the workers are upgraded one by one from ${formatSeconds(event.at)}`;
  }
}

/** "every API server fails for 2 h; worker-2 reboots at 10 m" */
export function describeScenario(scenario: Scenario): string {
  const parts = scenario.fail.kind === 'none' && scenario.events.length ? [] : [`${describeFailure(scenario.fail)} for ${formatSeconds(scenario.duration)}`];
  if (scenario.controlPlanes !== undefined) parts.push(`as if the cluster had ${plural(scenario.controlPlanes, 'control-plane node')}`);
  parts.push(...scenario.events.map(describeEvent));
  return parts.join('; ');
}

/** The worst moment of a workload and when it is whole again. */
export function capacityVerdict(workload: WorkloadResult): {
  /** Ready replicas at the worst moment (the least share of those desired then), and how many were desired then. */
  lowest: number;
  lowestOf: number;
  lowestAt: number;
  /** The most replicas desired at any moment (0: none ever). */
  desired: number;
  worstBlackholed: number;
  firstHit?: number;
  wholeAgain?: number;
} {
  const points = workload.capacity;
  const desired = Math.max(0, ...points.map((p) => p.desired));
  // The worst moment by share: 0 of 3 at one moment and 9 desired at another is no "0/9" (an HPA scaled it out meanwhile).
  const wanted = points.filter((p) => p.desired > 0);
  const worst = wanted.length ? wanted.reduce((w, p) => (p.ready * w.desired < w.ready * p.desired ? p : w)) : undefined;
  const lowest = worst ? { lowest: worst.ready, lowestOf: worst.desired, lowestAt: worst.at } : { lowest: 0, lowestOf: 0, lowestAt: 0 };
  const worstBlackholed = Math.max(0, ...points.map((p) => p.blackholed));
  const hurt = (p: (typeof points)[number]) => p.ready < p.desired || p.blackholed > 0 || (p.load ?? 1) > 1;
  const firstIndex = points.findIndex(hurt);
  if (firstIndex < 0) return { ...lowest, desired, worstBlackholed };
  const lastHurt = points.map(hurt).lastIndexOf(true);
  const recovered = points[lastHurt + 1];
  return { ...lowest, desired, worstBlackholed, firstHit: points[firstIndex].at, wholeAgain: recovered?.at };
}
