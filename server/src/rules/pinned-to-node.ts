import { ownedByAnother } from '../inventory/inventory';
import { nodePin, type NodePin } from '../manifest/node-pin';
import { HOSTNAME_TOPOLOGY } from '../manifest/spread';
import { describeResource, podTemplateOf } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import type { Rule } from './types';

/** How the pin keeps the pod on its node, for the message. */
function describePin({ node, by }: NodePin): string {
  if (by === 'nodeName') return `nodeName: ${node} binds it to that node, bypassing the scheduler`;
  if (by === 'nodeSelector') return `nodeSelector ${HOSTNAME_TOPOLOGY}: ${node} allows only that node`;
  return `required node affinity allows only node ${node}`;
}

export const pinnedToNode: Rule = {
  meta: {
    id: 'pinned-to-node',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'Pods pinned to one node',
    description:
      'A pod bound to one node (by `nodeName`, or by a required node selector or node affinity on `kubernetes.io/hostname` with a single value) cannot be rescheduled anywhere else: when that node dies, is drained or is replaced during an upgrade, the pods stay Pending until a node of that exact name returns. Label the nodes that may run it (a pool, a zone, a hardware type) and select that label, or use preferred node affinity to keep the placement as a wish; pods that hold node-local data belong on a storage class that follows them. DaemonSets are per-node by design and are not reported.',
    example: ordersDeployment().replace('    spec:\n      containers:', '    spec:\n      nodeName: worker-7\n      containers:'),
  },
  check({ resources, report }) {
    for (const workload of resources) {
      // Pods read from a cluster carry the nodeName the scheduler gave them; only manifests state a pin.
      if (workload.kind === 'DaemonSet' || !workload.node || ownedByAnother(workload)) continue;
      const template = podTemplateOf(workload);
      if (!template) continue;
      const pin = nodePin(template.spec);
      if (!pin) continue;
      report({
        resource: workload,
        path: [...template.path, 'spec', ...pin.field],
        message: `${describeResource(workload)} is pinned to node ${pin.node}: its pods stay down while that node is. Its ${describePin(pin)}; if the node dies or is drained, the pods cannot move and stay down until it returns. Select a node label several nodes share (a pool or zone) or use preferred node affinity instead.`,
      });
    }
  },
};
