import { setField } from '../fixes/yaml-edit';
import { ownedByAnother } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { formatBytes, parseQuantity } from '../manifest/quantity';
import { runningContainersOf, describeContainer, describeResource } from '../manifest/workload';
import { exampleDeployment } from './example-workload';
import type { Report, Rule } from './types';

/** The memory a container states, or undefined: a memory of 0 is none (no reservation, no cgroup limit). */
function memoryOf(resources: any, kind: 'requests' | 'limits'): unknown {
  const value = resources?.[kind]?.memory;
  return value === null || value === undefined || value === '' || parseQuantity(value) === 0 ? undefined : value;
}

function writtenZero(resources: any): boolean {
  return [resources?.requests?.memory, resources?.limits?.memory].some((value) => value !== null && value !== undefined && value !== '' && parseQuantity(value) === 0);
}

function shown(quantity: unknown): string {
  const bytes = parseQuantity(quantity);
  return bytes !== undefined && String(quantity) !== formatBytes(bytes) && Number.isInteger(bytes) ? `${quantity} (${formatBytes(bytes)})` : String(quantity);
}

/** Batch pods run to completion and see no traffic surge; how much memory they get is a cost question. */
const BATCH_KINDS = ['Job', 'CronJob'];

export const memoryUnbounded: Rule = {
  meta: {
    id: 'memory-unbounded',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'Container memory without request or limit',
    description:
      'Memory is the one resource a node cannot throttle. A container with no memory request is scheduled as if it used nothing, so nodes are overcommitted without anyone deciding it; one with no limit can grow until the node runs short. Under a surge the kubelet then evicts pods that use more than they request (those without a request first) and the kernel OOM killer picks processes, often neighbours that did nothing wrong. A limit without a request is merely implicit (the API copies the limit into the request) and is reported as info. A LimitRange in the namespace (in the workspace or the live cluster) that gives containers a default request and limit counts as stating them, with the defaults the API server fills in (a `max` is the default limit, a default limit or else a `min` the default request). A memory of 0 is none. Cluster add-ons (kube-system, addon-manager labels) are left to the cluster operator, and Jobs and CronJobs, which see no surge, are not reported.',
    fix: 'When a memory limit exists without a request, copies the limit into `requests.memory`; otherwise none, since only the team knows how much memory the app needs.',
    example: exampleDeployment('        - name: app\n          image: example/orders:2.3\n          resources:\n            requests: {cpu: 250m}\n'),
  },
  check({ resources, inventory, report }) {
    for (const workload of resources) {
      if (ownedByAnother(workload) || isClusterAddon(workload) || BATCH_KINDS.includes(workload.kind)) continue;
      const defaults = inventory.memoryDefaults(workload.namespace);
      for (const { container, path, name } of runningContainersOf(workload)) {
        const written = memoryOf(container.resources, 'requests');
        const request = written ?? defaults.request;
        const limit = memoryOf(container.resources, 'limits');
        if (request !== undefined && (limit ?? defaults.limit) !== undefined) continue;
        const where = describeContainer(workload, name);
        const finding: Report = { resource: workload, path: container.resources ? [...path, 'resources'] : [...path, 'name'], message: '' };
        if (request === undefined && limit === undefined) {
          const zero = writtenZero(container.resources) ? ' (a memory of 0 is none)' : '';
          finding.message = `${where}: no memory request/limit${zero}: it can exhaust its node. The scheduler counts it as using no memory, so under a surge the node runs out, the kubelet evicts it among the first, and the kernel's OOM killer may take neighbours down with it. Set a request near its usual use and a limit near its peak.`;
        } else if (limit === undefined) {
          const from = written === undefined ? ` (the default of ${describeResource(defaults.limitRange!)})` : '';
          finding.message = `${where}: no memory limit: it can exhaust its node. It requests ${shown(request)}${from} of memory and sets no limit: under a surge it grows past its request until the node runs short, then the kubelet evicts pods using more than they request and the kernel's OOM killer may take neighbours first. Set a limit near its peak.`;
          if (written !== undefined) finding.path = [...path, 'resources', 'requests', 'memory'];
        } else {
          finding.severity = 'info';
          finding.message = `${where} limits memory to ${shown(limit)} but requests none, so it requests ${shown(limit)}. The API server sets the request to the limit, and the scheduler reserves that; write the request down so that it is a decision.`;
          finding.path = [...path, 'resources', 'limits', 'memory'];
          finding.fixes = () => [{ title: `Request the limit (${String(limit)})`, preferred: true, edits: setField(workload, [...path, 'resources', 'requests', 'memory'], limit) ?? [] }];
        }
        report(finding);
      }
    }
  },
};
