import { setField } from '../fixes/yaml-edit';
import { hardMemoryThreshold, isKubeletConfiguration, isZeroThreshold } from '../manifest/kubelet-config';
import type { Rule } from './types';

const DISK_SIGNALS = ['nodefs.available', 'imagefs.available', 'nodefs.inodesFree'];

export const kubeletMemoryEvictionOff: Rule = {
  meta: {
    id: 'kubelet-memory-eviction-off',
    severity: 'warning',
    scenario: 'node-agents',
    title: 'A kubelet configuration without a hard memory eviction threshold',
    description:
      'The kubelet evicts pods when a node\'s available memory falls below its hard threshold (`evictionHard` `memory.available`, 100Mi by default), before the kernel has to. The default holds only while `evictionHard` is absent: once any hard threshold is written, the thresholds left out are not defaulted but set to zero (unless `mergeDefaultEvictionSettings: true`), and a `memory.available` of zero turns memory eviction off. The node then has no defence between pods exhausting its memory and the kernel\'s OOM killer, which can stall the kubelet and the container runtime until the node goes NotReady with every pod on it.',
    fix: 'Sets `evictionHard` `memory.available: 100Mi` (the kubelet\'s default).',
    example: `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
kubeReserved:
  memory: 1465Mi
evictionHard:
  nodefs.available: "10%"
`,
  },
  check({ resources, report }) {
    for (const resource of resources) {
      if (!isKubeletConfiguration(resource)) continue;
      const threshold = hardMemoryThreshold(resource);
      if (threshold.source === 'default' || (threshold.source === 'written' && !isZeroThreshold(threshold.value))) continue;
      const evictionHard = resource.object.evictionHard as Record<string, unknown>;
      const path = ['evictionHard', 'memory.available'];
      const zeroedDisk = DISK_SIGNALS.filter((s) => !(s in evictionHard));
      const why =
        threshold.source === 'zeroed'
          ? `sets evictionHard (${Object.keys(evictionHard).join(', ')}) without memory.available: once one hard threshold is written, the kubelet sets those left out to zero instead of their defaults (mergeDefaultEvictionSettings is not true), so memory.available is 0${zeroedDisk.length ? `, and so ${zeroedDisk.length === 1 ? 'is' : 'are'} ${zeroedDisk.join(' and ')}` : ''}`
          : `sets evictionHard memory.available to ${threshold.value}`;
      report({
        resource,
        path,
        message: `KubeletConfiguration turns memory eviction off: the kubelet never evicts pods for memory. It ${why}: when pods exhaust a node's memory only the kernel's OOM killer acts, which can stall the kubelet and the container runtime until the node goes NotReady with every pod on it. Set memory.available: 100Mi (the default) or more.`,
        fixes: () => [{ title: 'Evict pods below 100Mi of available memory (the default)', preferred: true, edits: setField(resource, path, '100Mi') ?? [] }],
      });
    }
  },
};
