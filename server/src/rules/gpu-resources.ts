import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { parseQuantity } from '../manifest/quantity';
import { nodeAllocatable } from '../manifest/scheduling';
import { containersOf } from '../manifest/workload';
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
  for (const { container, path } of containersOf(workload, true)) {
    const resources = container.resources && typeof container.resources === 'object' ? container.resources : {};
    const seen = new Set<string>();
    for (const field of ['requests', 'limits'] as const) {
      const entries = resources[field] && typeof resources[field] === 'object' ? resources[field] : {};
      for (const [key, raw] of Object.entries(entries)) {
        if (!isGpuResource(key) || seen.has(key)) continue;
        const amount = parseQuantity(raw);
        if (amount === undefined || amount <= 0) continue;
        seen.add(key);
        found.push({ resource: key, amount, path: [...path, 'resources', field, key] });
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

/** "1 nvidia.com/gpu" / "2 amd.com/gpu" for messages. */
export function describeGpus(requests: readonly GpuRequest[]): string {
  const totals = new Map<string, number>();
  for (const r of requests) totals.set(r.resource, (totals.get(r.resource) ?? 0) + r.amount);
  return [...totals].map(([name, amount]) => `${amount} ${name}`).join(' and ');
}
