import { nodeAllocatable, nodeTaints } from '../manifest/scheduling';
import { isGpuResource } from './gpu-resources';
import type { Rule } from './types';

export const gpuPoolUntainted: Rule = {
  meta: {
    id: 'gpu-pool-untainted',
    severity: 'warning',
    scenario: 'special-hardware',
    title: 'A GPU node without a NoSchedule taint',
    description:
      'A node with GPUs and no `NoSchedule` (or `NoExecute`) taint accepts any pod. Ordinary pods then fill its CPU and memory, GPU pods may find no room, and the cluster autoscaler cannot remove the expensive node while those pods run on it. Tainting the GPU pool (conventionally `nvidia.com/gpu=present:NoSchedule`) keeps it for pods that tolerate the taint. Needs a cluster: it reads the nodes.',
    needsCluster: true,
  },
  check({ resources, report }) {
    for (const node of resources) {
      if (node.kind !== 'Node') continue;
      const gpus = Object.entries(nodeAllocatable(node)).filter(([name, amount]) => isGpuResource(name) && amount > 0);
      if (!gpus.length) continue;
      if (nodeTaints(node).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')) continue;
      const preferOnly = nodeTaints(node).some((t) => t.effect === 'PreferNoSchedule');
      report({
        resource: node,
        path: ['spec'],
        message: `Node ${node.name ?? '(unnamed)'} has ${gpus.map(([name, amount]) => `${amount} ${name}`).join(' and ')} and no NoSchedule taint: ordinary pods land on it. ${preferOnly ? 'PreferNoSchedule only steers, it does not keep pods off. ' : ''}They take its CPU and memory from GPU work, and keep the expensive node from scaling down. Taint it, e.g. nvidia.com/gpu=present:NoSchedule.`,
      });
    }
  },
};
