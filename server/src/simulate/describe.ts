import { formatSeconds } from './format-time';
import type { Failure, Scenario, ScenarioEvent, WorkloadResult } from './types';
import { plural } from '../words';
import { least } from '../extremes';

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
export function capacityVerdict(workload: WorkloadResult): { lowest: number; desired: number; worstBlackholed: number; firstHit?: number; wholeAgain?: number } {
  const points = workload.capacity;
  const desired = Math.max(0, ...points.map((p) => p.desired));
  const lowest = least(points.map((p) => p.ready));
  const worstBlackholed = Math.max(0, ...points.map((p) => p.blackholed));
  const hurt = (p: (typeof points)[number]) => p.ready < p.desired || p.blackholed > 0 || (p.load ?? 1) > 1;
  const firstIndex = points.findIndex(hurt);
  if (firstIndex < 0) return { lowest, desired, worstBlackholed };
  const lastHurt = points.map(hurt).lastIndexOf(true);
  const recovered = points[lastHurt + 1];
  return { lowest, desired, worstBlackholed, firstHit: points[firstIndex].at, wholeAgain: recovered?.at };
}
