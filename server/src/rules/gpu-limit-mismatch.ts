import { setField } from '../fixes/yaml-edit';
import { parseQuantity } from '../manifest/quantity';
import { isObject } from '../is-object';
import { containersOf, describeContainer, valueAt } from '../manifest/workload';
import { isGpuResource } from './gpu-resources';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

export const gpuLimitMismatch: Rule = {
  meta: {
    id: 'gpu-limit-mismatch',
    severity: 'error',
    scenario: 'special-hardware',
    title: 'GPU requested without the same limit',
    description:
      'GPUs are extended resources, which cannot be overcommitted: a container that requests a GPU (even 0 of it) must set the same amount as its limit. The API server rejects a pod whose GPU request has no limit or a different one, so the workload creates no pods at all (a Deployment reports a ReplicaSet failure, a Job never starts). It rejects a GPU amount that is no whole number (`nvidia.com/gpu: 0.5`, `500m`) the same way, which is reported too: a GPU is shared by setting up the nodes (time-slicing, MIG), and still asked for in whole units.',
    fix: 'Sets the limit equal to the request.',
    unsafeFixes: 'Unsafe when a limit is written with another amount: which of the two was meant is not known, and the fix changes the GPUs the pod runs with (a request of 0 under a limit of 1 runs it without one; a request of 2 under a limit of 1 takes a second GPU). Safe when no limit is written: the request is the only amount stated.',
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
      for (const { container, path, name } of containersOf(resource, true)) {
        const requests = isObject(container.resources?.requests) ? container.resources.requests : {};
        const limits = isObject(container.resources?.limits) ? container.resources.limits : {};
        // A limit alone stands for the request: a fraction there is refused as one in requests is.
        const amounts = [...Object.entries(requests).map(([gpu, raw]) => ({ gpu, raw, field: 'requests' })), ...Object.entries(limits).filter(([gpu]) => !Object.hasOwn(requests, gpu)).map(([gpu, raw]) => ({ gpu, raw, field: 'limits' }))];
        for (const { gpu, raw, field } of amounts) {
          const amount = parseQuantity(raw);
          if (!isGpuResource(gpu) || amount === undefined || amount < 0) continue;
          if (!Number.isInteger(amount)) {
            report({
              resource,
              path: [...path, 'resources', field, gpu],
              target: 'value',
              message: `${describeContainer(resource, name)} ${field === 'requests' ? 'requests' : 'is limited to'} ${amount} ${gpu}, no whole number: the API server rejects the pod. A GPU is an extended resource, counted whole (it must be an integer), so until it is no pod is created.`,
            });
            continue;
          }
          if (field === 'limits') continue;
          // A request of 0 too: the API server wants a limit, and the same one, for any amount asked.
          const limitPath = [...path, 'resources', 'limits', gpu];
          const limit = valueAt(resource.object, limitPath);
          if (parseQuantity(limit) === amount) continue;
          const stated = limit === undefined || limit === null ? 'no limit' : `a limit of ${limit}`;
          const edits = setField(resource, limitPath, raw);
          report({
            resource,
            path: [...path, 'resources', 'requests', gpu],
            message: `${describeContainer(resource, name)} requests ${amount} ${gpu} with ${stated}: the API server rejects the pod. GPUs cannot be overcommitted, so request and limit must be equal, and until they are no pod is created.`,
            fixes: [
              edits && {
                title: `Set the ${gpu} limit to ${amount}`,
                preferred: true,
                // Which of the two the author meant is not known when both are written: the fix decides the GPUs the pod gets.
                unsafe: limit === undefined || limit === null ? undefined : amount === 0 ? `the request asks for no ${gpu} where the limit asks for ${limit}: a limit of 0 runs the pod without one` : `the limit asks for ${limit} ${gpu} where the request asks for ${amount}: which was meant is not known, and the pod would run with ${amount}`,
                edits,
              },
            ],
          });
        }
      }
    }
  },
};
