import { setField } from '../fixes/yaml-edit';
import type { Inventory } from '../inventory/inventory';
import { describeNodeAgent, nodeAgentOf, agentDuty } from '../manifest/node-agent';
import { formatAmount, podRequests } from '../manifest/scheduling';
import { describeResource, podTemplateOf } from '../manifest/workload';
import type { Rule } from './types';

/** The two classes Kubernetes creates; pods in them are "critical" to the kubelet and the scheduler. */
const CRITICAL_CLASSES = ['system-node-critical', 'system-cluster-critical'];
/** The largest value a class of one's own may have (the system classes sit above 2,000,000,000). */
const USER_CLASS_MAX = 1_000_000_000;

function globalDefaultClass(inventory: Inventory): string | undefined {
  const found = inventory.ofKind('PriorityClass').find((c) => c.object?.globalDefault === true);
  return found ? `${found.name} (globalDefault, value ${found.object?.value ?? '?'})` : undefined;
}

/** "has no priorityClassName, so it runs at priority 0", or what its own class gives it. */
function describePriority(className: unknown, inventory: Inventory): string {
  if (typeof className !== 'string' || !className) {
    const fallback = globalDefaultClass(inventory);
    return `has no priorityClassName, so its pods run at ${fallback ? `the priority of ${fallback}` : 'priority 0'}, like any app`;
  }
  const own = inventory.ofKind('PriorityClass').find((c) => c.name === className);
  const value = typeof own?.object?.value === 'number' ? `value ${own.object.value}` : `a class of its own, at most ${USER_CLASS_MAX}`;
  return `has priorityClassName ${className} (${value}), below both system-critical classes`;
}

export const nodeAgentPriority: Rule = {
  meta: {
    id: 'node-agent-priority',
    severity: 'warning',
    scenario: 'node-agents',
    title: 'A node agent without a system-critical priority',
    description:
      'A node agent (kube-proxy, a CNI agent, node-local-dns, a CSI node plugin, a log or metrics agent, or any DaemonSet in `kube-system` or on the host network) keeps its node working. Without `priorityClassName: system-node-critical` (or `system-cluster-critical`) it runs at the priority of any app. Under node memory pressure the kubelet evicts pods whose usage exceeds their requests first, and among them the lowest priority first, so it can evict the agent before the app that causes the pressure, and the node then runs without Service routing, networking, DNS, volume mounts or logs until the agent is back. When it must come back on a full node (after an eviction, a rollout or a new node), the scheduler preempts lower-priority pods only for a higher-priority pod, and the kubelet makes room at admission only for critical pods: an agent at app priority stays Pending there. `system-node-critical` also gives its containers the OOM score of Guaranteed pods (-997). A `ResourceQuota` may limit the system classes outside `kube-system`.',
    fix: 'Sets `priorityClassName: system-node-critical` on the pod template.',
    example: `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-local-dns
  namespace: kube-system
spec:
  selector:
    matchLabels:
      k8s-app: node-local-dns
  template:
    metadata:
      labels:
        k8s-app: node-local-dns
    spec:
      hostNetwork: true
      tolerations:
        - operator: Exists
      containers:
        - name: node-cache
          image: registry.k8s.io/dns/k8s-dns-node-cache:1.23.1
          resources:
            requests:
              memory: 5Mi
`,
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      const agent = nodeAgentOf(resource);
      const template = podTemplateOf(resource);
      if (!agent || !template) continue;
      const className = template.spec.priorityClassName;
      if (typeof className === 'string' && CRITICAL_CLASSES.includes(className)) continue;
      const memory = podRequests(template.spec).memory;
      const request = memory ? `; it requests ${formatAmount('memory', memory)}, and every byte above that counts against it` : '; it requests no memory, so all it uses counts as above its request';
      const path = [...template.path, 'spec', 'priorityClassName'];
      report({
        resource,
        path,
        message: `${describeResource(resource)}: memory pressure can evict it before the apps on its node. ${describeNodeAgent(resource, agent)} ${describePriority(className, inventory)}${request}. Under node memory pressure the kubelet evicts pods above their requests first, lowest priority first, so it can evict this agent before the app that causes the pressure, and the node runs without ${agentDuty(agent)} until its pod is back; on a full node the scheduler preempts nothing for it and the kubelet makes room only for critical pods, so that pod stays Pending while the node runs without it. Set priorityClassName: system-node-critical.`,
        fixes: () => [{ title: 'Run it at priority system-node-critical', preferred: true, edits: setField(resource, path, 'system-node-critical') ?? [] }],
      });
    }
  },
};
