import { setField } from '../fixes/yaml-edit';
import { ownedByAnother } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { formatBytes, parseQuantity } from '../manifest/quantity';
import { runningContainersOf, describeContainer, describeResource, podTemplateOf } from '../manifest/workload';
import { exampleDeployment } from './example-workload';
import type { Report, Rule } from './types';

/** The memory a container writes: an amount, 0 (which is none: no reservation, no cgroup limit), or nothing. */
function writtenMemory(resources: any, kind: 'requests' | 'limits'): { amount: unknown } | 'zero' | undefined {
  const value = resources?.[kind]?.memory;
  if (value === null || value === undefined || value === '') return undefined;
  return parseQuantity(value) === 0 ? 'zero' : { amount: value };
}

/** The memory a container gets: what it writes, else the LimitRange's default; a 0 written stays (no default replaces it), and is none. */
function effectiveMemory(written: ReturnType<typeof writtenMemory>, defaulted: unknown): unknown {
  if (written === undefined) return defaulted;
  return written === 'zero' ? undefined : written.amount;
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
      'Memory is the one resource a node cannot throttle. A container with no memory request is scheduled as if it used nothing, so nodes are overcommitted without anyone deciding it; one with no limit can grow until the node runs short. Under a surge the kubelet then evicts pods that use more than they request (those without a request first) and the kernel OOM killer picks processes, often neighbours that did nothing wrong. A limit without a request is merely implicit (the API copies the limit into the request) and is reported as info. A LimitRange in the namespace (in the workspace or the live cluster) that gives containers a default request and limit counts as stating them, with the defaults the API server fills in (a `max` is the default limit, a default limit or else a `min` the default request). A memory of 0 is none. Pod-level resources (`spec.resources`, Kubernetes 1.34+) come first: a pod-level memory limit bounds all the containers together, so none of them is reported, and with a pod-level request alone (which the scheduler counts) only a container without a limit is. Cluster add-ons (kube-system, addon-manager labels) are left to the cluster operator, and Jobs and CronJobs, which see no surge, are not reported.',
    fix: 'When a memory limit exists without a request, copies the limit into `requests.memory`; otherwise none, since only the team knows how much memory the app needs.',
    example: exampleDeployment('        - name: app\n          image: example/orders:2.3\n          resources:\n            requests: {cpu: 250m}\n'),
  },
  check({ resources, inventory, report }) {
    for (const workload of resources) {
      if (ownedByAnother(workload) || isClusterAddon(workload) || BATCH_KINDS.includes(workload.kind)) continue;
      const defaults = inventory.memoryDefaults(workload.namespace);
      // Pod-level resources (spec.resources, Kubernetes 1.34+) take precedence over the containers'. A pod-level
      // limit caps all the containers together, so none can exhaust the node, and it gets the pod counted: the API
      // server defaults the pod's request to the containers' (when they request any) or else to that limit. A
      // pod-level request alone is what the scheduler counts, and bounds nothing. LimitRanges default only containers.
      const podResources = podTemplateOf(workload)?.spec?.resources;
      if (effectiveMemory(writtenMemory(podResources, 'limits'), undefined) !== undefined) continue;
      const podRequest = effectiveMemory(writtenMemory(podResources, 'requests'), undefined);
      for (const { container, path, name } of runningContainersOf(workload)) {
        const writtenRequest = writtenMemory(container.resources, 'requests');
        const writtenLimit = writtenMemory(container.resources, 'limits');
        const request = effectiveMemory(writtenRequest, defaults.request);
        const limit = effectiveMemory(writtenLimit, defaults.limit);
        if ((request !== undefined || podRequest !== undefined) && limit !== undefined) continue;
        const where = describeContainer(workload, name);
        const finding: Report = { resource: workload, path: container.resources ? [...path, 'resources'] : [...path, 'name'], message: '' };
        if (podRequest !== undefined) {
          const none = writtenLimit === 'zero' ? "the pod sets no limit and the container's limit of 0 is none" : 'neither the pod nor the container sets a limit';
          finding.message = `${where}: no memory limit: it can exhaust its node. The pod requests ${shown(podRequest)} of memory for all its containers (spec.resources), which the scheduler counts, but ${none}: under a surge the pod grows past its request until the node runs short, then the kubelet evicts pods using more than they request and the kernel's OOM killer may take neighbours first. Set a limit near its peak, for the container or for the pod.`;
        } else if (request === undefined && limit === undefined) {
          const zero = writtenRequest === 'zero' || writtenLimit === 'zero' ? ' (a memory of 0 is none)' : '';
          finding.message = `${where}: no memory request/limit${zero}: it can exhaust its node. The scheduler counts it as using no memory, so under a surge the node runs out, the kubelet evicts it among the first, and the kernel's OOM killer may take neighbours down with it. Set a request near its usual use and a limit near its peak.`;
        } else if (limit === undefined) {
          const from = writtenRequest === undefined ? ` (the default of ${describeResource(defaults.limitRange!)})` : '';
          const none = writtenLimit === 'zero' ? 'sets a limit of 0, which is none' : 'sets no limit';
          finding.message = `${where}: no memory limit: it can exhaust its node. It requests ${shown(request)}${from} of memory and ${none}: under a surge it grows past its request until the node runs short, then the kubelet evicts pods using more than they request and the kernel's OOM killer may take neighbours first. Set a limit near its peak.`;
          if (writtenRequest !== undefined) finding.path = [...path, 'resources', 'requests', 'memory'];
        } else if (writtenRequest === 'zero') {
          // A 0 written stays 0: the API server copies the limit only into a request not written at all.
          finding.message = `${where}: no memory request: it requests 0, which is none, under a limit of ${shown(limit)}. The scheduler counts it as using no memory, so under a surge its node runs short and the kubelet evicts it among the first. Set a request near its usual use.`;
          finding.path = [...path, 'resources', 'requests', 'memory'];
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
