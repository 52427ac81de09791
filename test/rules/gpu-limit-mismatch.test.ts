import { gpuLimitMismatch } from '../../server/src/rules/gpu-limit-mismatch';
import { ruleTester } from './rule-tester';

const deployment = (resources: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: infer
spec:
  replicas: 2
  selector:
    matchLabels: {app: infer}
  template:
    metadata:
      labels: {app: infer}
    spec:
      containers:
        - name: server
          image: vllm/vllm-openai:v0.11.0
          resources:
${resources}`;

ruleTester(gpuLimitMismatch, {
  valid: [
    { name: 'request and limit equal (as strings)', code: deployment('            requests:\n              nvidia.com/gpu: "1"\n            limits:\n              nvidia.com/gpu: "1"\n') },
    { name: 'request and limit equal (number and string)', code: deployment('            requests:\n              nvidia.com/gpu: 2\n            limits:\n              nvidia.com/gpu: "2"\n') },
    { name: 'only a limit (the request defaults to it)', code: deployment('            limits:\n              nvidia.com/gpu: 1\n') },
    { name: 'a request of 0 with a limit of 0: no GPU, and valid', code: deployment('            requests:\n              nvidia.com/gpu: 0\n            limits:\n              nvidia.com/gpu: 0\n') },
    { name: 'a whole GPU written in thousandths (1000m) is one GPU, and whole', code: deployment('            requests:\n              nvidia.com/gpu: 1000m\n            limits:\n              nvidia.com/gpu: 1000m\n') },
    { name: 'CPU request without a limit is fine', code: deployment('            requests:\n              cpu: 500m\n') },
  ],
  invalid: [
    {
      name: 'half a GPU, requested and limited alike: no whole number, so the API server rejects the pod; said once, at the request, with no amount to guess',
      code: deployment('            requests:\n              nvidia.com/gpu: 0.5\n            limits:\n              nvidia.com/gpu: 0.5\n'),
      findings: [{ at: '0.5', line: 18, message: 'Deployment infer requests 0.5 nvidia.com/gpu, no whole number: the API server rejects the pod. A GPU is an extended resource, counted whole (it must be an integer), so until it is no pod is created.' }],
      output: null,
    },
    {
      name: 'a fraction in a limit alone (500m), which stands for the request',
      code: deployment('            limits:\n              amd.com/gpu: 500m\n'),
      findings: [{ at: '500m', message: /^Deployment infer is limited to 0\.5 amd\.com\/gpu, no whole number: the API server rejects the pod\./ }],
      output: null,
    },
    {
      name: 'a request without a limit: the limit is added, the quoting kept',
      code: deployment('            requests:\n              cpu: "2"\n              nvidia.com/gpu: "1" # the L4\n'),
      findings: [
        {
          at: 'nvidia.com/gpu',
          line: 19,
          message: 'Deployment infer requests 1 nvidia.com/gpu with no limit: the API server rejects the pod. GPUs cannot be overcommitted, so request and limit must be equal, and until they are no pod is created.',
        },
      ],
      output: deployment('            requests:\n              cpu: "2"\n              nvidia.com/gpu: "1" # the L4\n            limits:\n              nvidia.com/gpu: "1"\n'),
    },
    {
      name: 'a request of 0 with a limit of 1: rejected all the same; setting the limit to 0 leaves the pod no GPU, so the fix is unsafe',
      code: deployment('            requests:\n              nvidia.com/gpu: 0\n            limits:\n              nvidia.com/gpu: 1\n'),
      findings: [{ at: 'nvidia.com/gpu', line: 18, message: /^Deployment infer requests 0 nvidia\.com\/gpu with a limit of 1: the API server rejects the pod\./ }],
      output: null,
      unsafeOutput: deployment('            requests:\n              nvidia.com/gpu: 0\n            limits:\n              nvidia.com/gpu: 0\n'),
    },
    {
      name: 'a request of 0 without a limit: a limit of 0 is the one valid fix, and a safe one',
      code: deployment('            requests:\n              nvidia.com/gpu: 0\n'),
      findings: [{ at: 'nvidia.com/gpu', message: /^Deployment infer requests 0 nvidia\.com\/gpu with no limit/ }],
      output: deployment('            requests:\n              nvidia.com/gpu: 0\n            limits:\n              nvidia.com/gpu: 0\n'),
    },
    {
      name: 'a native sidecar asking for a GPU without a limit',
      code: deployment('            limits:\n              nvidia.com/gpu: 1\n').replace('      containers:\n', '      initContainers:\n        - name: warm\n          image: warm:1\n          restartPolicy: Always\n          resources:\n            requests:\n              nvidia.com/gpu: 1\n      containers:\n'),
      findings: [{ at: 'nvidia.com/gpu', line: 19, message: /^Deployment infer, container warm requests 1 nvidia\.com\/gpu with no limit/ }],
    },
    {
      name: 'a limit of 1 under a request of 2: the request is written into the limit only as an unsafe fix, since it takes a second GPU and which was meant is not known (it was a safe fix)',
      code: deployment('            requests:\n              amd.com/gpu: 2\n            limits:\n              memory: 8Gi\n              amd.com/gpu: 1\n'),
      findings: [{ at: 'amd.com/gpu', line: 18, message: /requests 2 amd\.com\/gpu with a limit of 1:/ }],
      output: null,
      unsafeOutput: deployment('            requests:\n              amd.com/gpu: 2\n            limits:\n              memory: 8Gi\n              amd.com/gpu: 2\n'),
    },
    {
      name: 'a limit of 2 under a request of 1: lowering the limit to 1 is unsafe as well (it takes a GPU away)',
      code: deployment('            requests:\n              nvidia.com/gpu: 1\n            limits:\n              nvidia.com/gpu: 2\n'),
      findings: [{ at: 'nvidia.com/gpu', line: 18, message: /requests 1 nvidia\.com\/gpu with a limit of 2:/ }],
      output: null,
      unsafeOutput: deployment('            requests:\n              nvidia.com/gpu: 1\n            limits:\n              nvidia.com/gpu: 1\n'),
    },
  ],
});
