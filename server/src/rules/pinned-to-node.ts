import { ownedByAnother } from '../inventory/inventory';
import type { Path } from '../manifest/path';
import { HOSTNAME_TOPOLOGY } from '../manifest/spread';
import { describeResource, podTemplateOf } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import type { Rule } from './types';

interface Pin {
  node: string;
  path: Path;
  how: string;
}

/** The one hostname every required node-affinity term allows, when there is exactly one. */
function affinityPin(spec: any): string | undefined {
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!Array.isArray(terms) || terms.length === 0) return undefined;
  const hosts = new Set<string>();
  for (const term of terms) {
    const requirements = [...(Array.isArray(term?.matchExpressions) ? term.matchExpressions : []), ...(Array.isArray(term?.matchFields) ? term.matchFields : [])];
    const pinning = requirements.find((r: any) => (r?.key === HOSTNAME_TOPOLOGY || r?.key === 'metadata.name') && r?.operator === 'In' && Array.isArray(r.values));
    if (!pinning) return undefined; // a term that allows any host frees the pod
    for (const value of pinning.values) hosts.add(String(value));
  }
  return hosts.size === 1 ? [...hosts][0] : undefined;
}

function pinOf(spec: any, specPath: Path): Pin | undefined {
  if (typeof spec?.nodeName === 'string' && spec.nodeName) return { node: spec.nodeName, path: [...specPath, 'nodeName'], how: `nodeName: ${spec.nodeName} binds it to that node, bypassing the scheduler` };
  const selected = spec?.nodeSelector?.[HOSTNAME_TOPOLOGY];
  if (typeof selected === 'string' && selected) return { node: selected, path: [...specPath, 'nodeSelector', HOSTNAME_TOPOLOGY], how: `nodeSelector ${HOSTNAME_TOPOLOGY}: ${selected} allows only that node` };
  const pinned = affinityPin(spec);
  if (pinned) return { node: pinned, path: [...specPath, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'], how: `required node affinity allows only node ${pinned}` };
  return undefined;
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
      const pin = pinOf(template.spec, [...template.path, 'spec']);
      if (!pin) continue;
      report({
        resource: workload,
        path: pin.path,
        message: `${describeResource(workload)} is pinned to node ${pin.node}: its pods stay down while that node is. Its ${pin.how}; if the node dies or is drained, the pods cannot move and stay down until it returns. Select a node label several nodes share (a pool or zone) or use preferred node affinity instead.`,
      });
    }
  },
};
