import { setField } from '../fixes/yaml-edit';
import { parseQuantity } from '../manifest/quantity';
import { describeContainer, valueAt } from '../manifest/workload';
import { gpuRequests } from './gpu-resources';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

export const gpuLimitMismatch: Rule = {
  meta: {
    id: 'gpu-limit-mismatch',
    severity: 'error',
    scenario: 'special-hardware',
    title: 'GPU requested without the same limit',
    description:
      'GPUs are extended resources, which cannot be overcommitted: a container that requests a GPU must set the same amount as its limit. The API server rejects a pod whose GPU request has no limit or a different one, so the workload creates no pods at all (a Deployment reports a ReplicaSet failure, a Job never starts).',
    fix: 'Sets the limit equal to the request.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders-ranker:1.4
          resources:
            requests:
              cpu: "2"
              nvidia.com/gpu: 1
`,
    ),
  },
  check({ resources, report }) {
    for (const resource of resources) {
      for (const request of gpuRequests(resource)) {
        if (request.field !== 'requests') continue;
        const containerPath = request.path.slice(0, -3);
        const limitPath = [...containerPath, 'resources', 'limits', request.resource];
        const limit = valueAt(resource.object, limitPath);
        const limitAmount = parseQuantity(limit);
        if (limitAmount === request.amount) continue;
        const stated = limit === undefined || limit === null ? 'no limit' : `a limit of ${limit}`;
        const edits = setField(resource, limitPath, request.raw);
        report({
          resource,
          path: request.path,
          message: `${describeContainer(resource, request.container)} requests ${request.amount} ${request.resource} with ${stated}: the API server rejects the pod. GPUs cannot be overcommitted, so request and limit must be equal, and until they are no pod is created.`,
          fixes: [edits && { title: `Set the ${request.resource} limit to ${request.amount}`, preferred: true, edits }],
        });
      }
    }
  },
};
