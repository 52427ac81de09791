// Hand-written simulation data in the shape of the engine's contract: SIMULATION.md's scenario 2
// (one control plane, API server down 2 h, worker-2 reboots at 10 m).
import type { SimulationInput } from '../../server/src/simulate/messages';
import type { SimulationResult } from '../../server/src/simulate/types';

export const input: SimulationInput = {
  cluster: { source: 'demo', name: 'demo' },
  nodes: [
    { name: 'cp-1', role: 'control-plane', zone: 'zone-a', etcdMember: true, dns: false, pods: [] },
    { name: 'worker-1', role: 'worker', zone: 'zone-a', etcdMember: false, dns: true, pods: [pod('shop', 'web', 'Deployment', 'web-1'), pod('kube-system', 'coredns', 'Deployment', 'coredns-1')] },
    { name: 'worker-2', role: 'worker', zone: 'zone-b', etcdMember: false, dns: false, pods: [pod('shop', 'web', 'Deployment', 'web-2'), pod('shop', 'checkout', 'Deployment', 'checkout-1')] },
    { name: 'worker-3', role: 'worker', zone: 'zone-c', etcdMember: false, dns: true, pods: [pod('shop', 'web', 'Deployment', 'web-3'), pod('kube-system', 'coredns', 'Deployment', 'coredns-2')] },
  ],
  workloads: [
    { kind: 'Deployment', name: 'web', namespace: 'shop', replicas: 3, placement: 'assumed' },
    { kind: 'Deployment', name: 'checkout', namespace: 'shop', replicas: 1, placement: 'assumed' },
  ],
  notes: ['Placement is assumed: pods spread over workers in name order.'],
};

function pod(namespace: string, workload: string, kind: string, name: string) {
  return { namespace, workload, kind, name };
}

const API_DOWN = 'rule 2: the API needs one API server and etcd quorum — facts/control-plane.md §1';

export const result: SimulationResult = {
  version: 1,
  scenario: { fail: { kind: 'apiserver' }, duration: 7200, events: [{ kind: 'node-reboot', node: 'worker-2', at: 600 }] },
  timeline: [
    { at: 0, subject: { type: 'component', name: 'api' }, state: 'down', reason: 'every API server is down', fact: API_DOWN },
    { at: 0, subject: { type: 'component', name: 'scheduling' }, state: 'down', reason: 'the scheduler needs the API', fact: 'rule 3' },
    { at: 0, subject: { type: 'component', name: 'controllers' }, state: 'down', reason: 'controllers need the API', fact: 'rule 3' },
    { at: 0, subject: { type: 'component', name: 'autoscaling' }, state: 'down', reason: 'the HPA is frozen', fact: 'rule 3' },
    { at: 0, subject: { type: 'component', name: 'kubectl' }, state: 'down', reason: 'kubectl talks to the API server', fact: 'rule 13' },
    { at: 0, subject: { type: 'component', name: 'dns' }, state: 'ok', reason: 'CoreDNS answers from its informer cache', fact: 'rule 8' },
    { at: 600, subject: { type: 'node', name: 'worker-2' }, state: 'down', reason: 'worker-2 rebooted and nothing recreates pods while the API is down', fact: 'rule 7: only static pods come back' },
    { at: 600, subject: { type: 'workload', name: 'checkout', namespace: 'shop', kind: 'Deployment' }, state: 'down', reason: 'its only replica ran on worker-2', fact: 'rule 5: nothing is replaced' },
    { at: 600, subject: { type: 'workload', name: 'web', namespace: 'shop', kind: 'Deployment' }, state: 'degraded', reason: '2 of 3 replicas serve; the Service still sends 1/3 of new connections to the dead pod', fact: 'rule 6: endpoints are frozen' },
    { at: 600, subject: { type: 'component', name: 'service-routing' }, state: 'degraded', reason: 'endpoints are frozen with dead pods in them', fact: 'rule 6' },
    { at: 7200, subject: { type: 'component', name: 'api' }, state: 'ok', reason: 'the API server is back', fact: 'rule 14' },
    { at: 7260, subject: { type: 'workload', name: 'web', namespace: 'shop', kind: 'Deployment' }, state: 'ok', reason: 'the ReplicaSet controller replaces the lost pod', fact: 'rule 14' },
    { at: 7260, subject: { type: 'workload', name: 'checkout', namespace: 'shop', kind: 'Deployment' }, state: 'ok', reason: 'the ReplicaSet controller replaces the lost pod', fact: 'rule 14' },
  ],
  workloads: [
    { kind: 'Deployment', name: 'web', namespace: 'shop', placement: 'assumed', capacity: [{ at: 0, ready: 3, desired: 3, blackholed: 0 }, { at: 600, ready: 2, desired: 3, blackholed: 1 / 3 }, { at: 7260, ready: 3, desired: 3, blackholed: 0 }] },
    { kind: 'Deployment', name: 'checkout', namespace: 'shop', placement: 'assumed', capacity: [{ at: 0, ready: 1, desired: 1, blackholed: 0 }, { at: 600, ready: 0, desired: 1, blackholed: 1 }, { at: 7260, ready: 1, desired: 1, blackholed: 0 }] },
  ],
  components: [
    { name: 'api', states: [{ at: 0, state: 'down' }, { at: 7200, state: 'ok' }] },
    { name: 'scheduling', states: [{ at: 0, state: 'down' }, { at: 7200, state: 'ok' }] },
  ],
  assumptions: ['Placement is assumed: pods spread over workers in name order.'],
};

/** The same cluster with a name and a workload that try to be markup. */
export const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** The cluster with one more worker named as cloud providers name them: one long word of hyphens and dots. */
export const LONG_NODE_NAME = 'ip-10-0-12-34.eu-west-1.compute.internal';
export const inputWithLongNodeName: SimulationInput = {
  ...input,
  nodes: [...input.nodes, { name: LONG_NODE_NAME, role: 'worker', zone: 'zone-a', etcdMember: false, dns: false, pods: [pod('shop', 'web', 'Deployment', 'web-4')] }],
};

/** A workload and its pod named as long as Kubernetes allows (63 characters), on worker-2. */
export const LONG_WORKLOAD_NAME = `checkout-${'x'.repeat(44)}-canary-v2`;
export const inputWithLongPodName: SimulationInput = {
  ...input,
  nodes: input.nodes.map((node) => (node.name === 'worker-2' ? { ...node, pods: [...node.pods, pod('shop', LONG_WORKLOAD_NAME, 'Deployment', `${LONG_WORKLOAD_NAME.slice(0, 57)}-7f9c2`)] } : node)),
  workloads: [...input.workloads, { kind: 'Deployment', name: LONG_WORKLOAD_NAME, namespace: 'shop', replicas: 1, placement: 'assumed' }],
};

/** The same outage with shop/checkout back only at 2 h 30 m, so the time axis ends just past its last tick. */
export const lateRecovery: SimulationResult = {
  ...result,
  timeline: result.timeline.map((event) => (event.subject.type === 'workload' && event.subject.name === 'checkout' && event.at === 7260 ? { ...event, at: 9000 } : event)),
};
