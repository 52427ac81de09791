import { setField } from '../fixes/yaml-edit';
import { hardMemoryThreshold, isKubeletConfiguration, kubeletMaxPods, reservedMemory } from '../manifest/kubelet-config';
import type { Resource } from '../manifest/parse';
import type { Rule } from './types';

/** What Amazon's EKS node images reserve for the kubelet and the runtime: 255Mi plus 11Mi per pod the node may run. */
export function kubeReservedMemoryMi(resource: Resource): number {
  return 255 + 11 * kubeletMaxPods(resource);
}

export const kubeletMemoryUnreserved: Rule = {
  meta: {
    id: 'kubelet-memory-unreserved',
    severity: 'warning',
    scenario: 'node-agents',
    title: 'A kubelet configuration that reserves no memory for the kubelet, the runtime and the OS',
    description:
      'Without `kubeReserved` or `systemReserved` memory, a node\'s allocatable memory is its capacity minus only the hard eviction threshold (100Mi by default), so the scheduler fills the node with pod requests up to there, and pods that use what they request leave the kubelet, the container runtime and the system daemons to compete with them for the rest. The kubelet checks for memory pressure every 10 s; memory that runs out faster than that is left to the kernel\'s OOM killer, and node-level OOM "affects the entire node and all pods running on it: nodes can go offline temporarily" (Kubernetes documentation): the kubelet stalls, misses its heartbeats and the node goes NotReady, taking every pod on it along. How much to reserve depends on pod density: Amazon\'s EKS node images reserve 255Mi + 11Mi per pod (`maxPods`, 110 by default) for the kubelet and the runtime; GKE reserves a share of the node\'s memory (25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% of the next 112, 2% above).',
    fix: 'Sets `kubeReserved.memory` to 255Mi + 11Mi × `maxPods` (1465Mi for 110 pods).',
    unsafeFixes: 'Unsafe: the reservation lowers every node\'s allocatable memory by as much, so pods that fit on a node before may not fit after, and a kubelet restarted with it may refuse pods already there.',
    example: `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
maxPods: 110
`,
  },
  check({ resources, report }) {
    for (const resource of resources) {
      if (!isKubeletConfiguration(resource)) continue;
      if (reservedMemory(resource, 'kubeReserved') + reservedMemory(resource, 'systemReserved') > 0) continue;
      const threshold = hardMemoryThreshold(resource);
      const maxPods = kubeletMaxPods(resource);
      const reserve = `${kubeReservedMemoryMi(resource)}Mi`;
      const path = resource.object?.kubeReserved && typeof resource.object.kubeReserved === 'object' ? ['kubeReserved'] : [];
      report({
        resource,
        path,
        message: `KubeletConfiguration reserves no memory for the kubelet and runtime: pods can starve them. It sets no kubeReserved or systemReserved memory: a node's allocatable memory is its capacity minus only the hard eviction threshold (${threshold.source === 'zeroed' ? 'none here: evictionHard leaves memory.available out' : `${threshold.value}${threshold.source === 'default' ? ', the default' : ''}`}), so the scheduler fills it with pod requests up to there, and the kubelet, the runtime and system daemons compete with those pods for the rest. Memory that runs out between two 10 s eviction checks is left to the kernel's OOM killer: the kubelet stalls, misses its heartbeats and the node goes NotReady with every pod on it. Reserve memory, e.g. kubeReserved memory ${reserve} (255Mi + 11Mi × maxPods ${maxPods}, as EKS node images do).`,
        fixes: () => [
          {
            title: `Reserve ${reserve} for the kubelet and runtime (kubeReserved.memory)`,
            preferred: true,
            unsafe: `every node's allocatable memory drops by ${reserve}, so pods that fit before may not`,
            edits: setField(resource, ['kubeReserved', 'memory'], reserve) ?? [],
          },
        ],
      });
    }
  },
};
