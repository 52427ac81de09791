import { describeResource } from '../manifest/workload';
import { describeGpus, gpuRequests } from './gpu-resources';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';
import { plural } from '../words';

export const gpuKeepsNodesUp: Rule = {
  meta: {
    id: 'gpu-keeps-nodes-up',
    severity: 'info',
    scenario: 'special-hardware',
    title: 'A long-running workload holds GPUs',
    description:
      'A Deployment or StatefulSet keeps its pods running until someone scales it down, so the GPU nodes they sit on can never be removed by the cluster autoscaler, even when the GPUs idle. That is right for an always-on inference service; for sporadic work (training, batch inference, notebooks) a Job (with `ttlSecondsAfterFinished`, so finished pods are cleaned up) on a node pool that scales to zero pays for GPUs only while work runs.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders-ranker:1.4
          resources:
            limits:
              nvidia.com/gpu: 1
`,
    ),
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      if (resource.kind !== 'Deployment' && resource.kind !== 'StatefulSet') continue;
      const requests = gpuRequests(resource).filter((r) => r.held);
      if (!requests.length) continue;
      const replicas = inventory.effectiveReplicas(resource).value;
      if (replicas < 1) continue;
      report({
        resource,
        path: requests[0].path,
        message: `${describeResource(resource)} holds ${describeGpus(requests)} while idle: its GPU node${replicas === 1 ? '' : 's'} never scale${replicas === 1 ? 's' : ''} down. It holds them per pod × ${plural(replicas, 'replica')} for as long as it runs, even while the GPUs idle. If the work is sporadic, run it as a Job with ttlSecondsAfterFinished on a GPU pool that scales to zero.`,
      });
    }
  },
};
