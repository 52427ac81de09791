import type { Resource } from './parse';
import { parseQuantity } from './quantity';

/** The kubelet's own configuration file (`kubelet.config.k8s.io`), as kubeadm and node images write it. */
export function isKubeletConfiguration(resource: Resource): boolean {
  return resource.kind === 'KubeletConfiguration' && resource.apiVersion.startsWith('kubelet.config.k8s.io/');
}

/** The kubelet's pods-per-node limit: `maxPods`, 110 by default. */
export function kubeletMaxPods(resource: Resource): number {
  const maxPods = resource.object?.maxPods;
  return typeof maxPods === 'number' && maxPods > 0 ? maxPods : 110;
}

/** Bytes of memory a reservation map (`kubeReserved`, `systemReserved`) sets aside; 0 when it sets none. */
export function reservedMemory(resource: Resource, field: 'kubeReserved' | 'systemReserved'): number {
  const map = resource.object?.[field];
  if (!map || typeof map !== 'object') return 0;
  return parseQuantity(map.memory) ?? 0;
}

/**
 * The hard memory eviction threshold the kubelet runs with: what `evictionHard` says, or the default
 * `100Mi` when the field is absent. Once any hard threshold is written the others are not defaulted
 * but zero, unless `mergeDefaultEvictionSettings` is true.
 */
export function hardMemoryThreshold(resource: Resource): { value: string; source: 'default' | 'written' | 'zeroed' } {
  const evictionHard = resource.object?.evictionHard;
  if (!evictionHard || typeof evictionHard !== 'object' || Object.keys(evictionHard).length === 0) return { value: '100Mi', source: 'default' };
  const written = evictionHard['memory.available'];
  if (written === undefined || written === null) {
    return resource.object?.mergeDefaultEvictionSettings === true ? { value: '100Mi', source: 'default' } : { value: '0', source: 'zeroed' };
  }
  return { value: String(written), source: 'written' };
}

/** Whether a threshold (`"100Mi"`, `"5%"`) is zero: no eviction at all for that signal. */
export function isZeroThreshold(value: string): boolean {
  const percent = /^\s*([\d.]+)\s*%\s*$/.exec(value);
  if (percent) return Number(percent[1]) === 0;
  return (parseQuantity(value) ?? 0) === 0;
}
