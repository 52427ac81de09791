import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { parseQuantity } from '../manifest/quantity';
import { nodeAllocatable } from '../manifest/scheduling';
import { containersOf, runsThroughout } from '../manifest/workload';
import { factOf } from '../manifest/facts';

/** GPU resource names: NVIDIA (whole GPUs and MIG slices), AMD and Intel device plugins. */
export function isGpuResource(name: string): boolean {
  return name === 'nvidia.com/gpu' || name.startsWith('nvidia.com/mig-') || name === 'amd.com/gpu' || name.startsWith('gpu.intel.com/');
}

export interface GpuRequest {
  resource: string;
  amount: number;
  /** Path to the `requests` (or `limits`, when only limits say it) entry. */
  path: Path;
  /** Held for the pod's whole life: an app container's or a native sidecar's, not a plain init container's, which gives it back once it has run. */
  held: boolean;
}

/**
 * Every GPU a workload's containers ask for, by requests (or limits, which stand for requests): once per
 * parsed object, since three rules and a fix's safety check ask it of every workload. Not to be changed.
 */
export function gpuRequests(workload: Resource): readonly GpuRequest[] {
  return factOf(gpuRequestsOf, workload.object, () => readGpuRequests(workload));
}

const gpuRequestsOf = new WeakMap<object, GpuRequest[]>();

function readGpuRequests(workload: Resource): GpuRequest[] {
  const found: GpuRequest[] = [];
  for (const ref of containersOf(workload, true)) {
    const { container, path } = ref;
    const held = runsThroughout(ref);
    const resources = container.resources && typeof container.resources === 'object' ? container.resources : {};
    const seen = new Set<string>();
    for (const field of ['requests', 'limits'] as const) {
      const entries = resources[field] && typeof resources[field] === 'object' ? resources[field] : {};
      for (const [key, raw] of Object.entries(entries)) {
        if (!isGpuResource(key) || seen.has(key)) continue;
        const amount = parseQuantity(raw);
        // A fraction (0.5) is no GPU: the API server rejects the pod (gpu-limit-mismatch says so).
        if (amount === undefined || amount <= 0 || !Number.isInteger(amount)) continue;
        seen.add(key);
        found.push({ resource: key, amount, path: [...path, 'resources', field, key], held });
      }
    }
  }
  return found;
}

/** The nodes that offer the GPU resource. */
export function nodesWithGpu(nodes: readonly Resource[], resource?: string): Resource[] {
  return nodes.filter((node) => Object.entries(nodeAllocatable(node)).some(([name, amount]) => amount > 0 && (resource ? name === resource : isGpuResource(name))));
}

/** The taint a GPU node pool carries by convention when the cluster does not tell: the device's resource name (GKE's `nvidia.com/gpu`). */
export function conventionalGpuTaintKey(resource: string): string {
  if (resource.startsWith('nvidia.com/')) return 'nvidia.com/gpu';
  return resource;
}

/** What a pod of these requests asks for in all, "1 nvidia.com/gpu" / "2 amd.com/gpu", for messages. */
export function describeGpus(requests: readonly GpuRequest[]): string {
  return [...podGpus(requests)].map(([name, amount]) => `${amount} ${name}`).join(' and ');
}

/**
 * What a pod asks of each GPU resource, as the scheduler counts it: its app containers and native sidecars together,
 * or a plain init container with the sidecars started before it, when that is more (init containers run one at a
 * time, before the app containers, and give back what they held). Requests come in container order, init containers first.
 */
function podGpus(requests: readonly GpuRequest[]): Map<string, number> {
  const held = new Map<string, number>();
  const peak = new Map<string, number>();
  for (const { resource, amount, held: throughout } of requests) {
    if (throughout) held.set(resource, (held.get(resource) ?? 0) + amount);
    else peak.set(resource, Math.max(peak.get(resource) ?? 0, (held.get(resource) ?? 0) + amount));
  }
  for (const [resource, amount] of peak) held.set(resource, Math.max(held.get(resource) ?? 0, amount));
  return held;
}
