import { gpuKeepsNodesUp } from '../../server/src/rules/gpu-keeps-nodes-up';
import { ruleTester } from './rule-tester';

const workload = (kind: string, spec: string, gpus = '1') => `apiVersion: ${kind === 'Job' ? 'batch/v1' : 'apps/v1'}
kind: ${kind}
metadata:
  name: infer
spec:
${spec}  template:
    spec:
      containers:
        - name: server
          image: vllm/vllm-openai:v0.11.0
          resources:
            limits:
              nvidia.com/gpu: ${gpus}
`;

/** The GPU container made an init container (`restartPolicy` written into it), beside an app container with none. */
const moveToInit = (code: string, restartPolicy: string) =>
  code.replace('      containers:\n        - name: server\n', `      initContainers:\n        - name: server\n${restartPolicy}`) + '      containers:\n        - name: app\n          image: example/app:1\n';

ruleTester(gpuKeepsNodesUp, {
  valid: [
    { name: 'a Job finishes and lets the node go', code: workload('Job', '  ttlSecondsAfterFinished: 600\n') },
    { name: 'scaled to zero', code: workload('Deployment', '  replicas: 0\n') },
    { name: 'no GPU', code: workload('Deployment', '  replicas: 3\n').replace(/ {10}resources:\n.*\n.*\n/, '') },
    { name: 'only a plain init container holds a GPU, and gives it back once it has run', code: moveToInit(workload('Deployment', '  replicas: 3\n'), '') },
  ],
  invalid: [
    {
      name: 'a native sidecar (an init container that always restarts) holds its GPU for the pod\'s whole life',
      code: moveToInit(workload('Deployment', '  replicas: 2\n'), '          restartPolicy: Always\n'),
      findings: [{ at: 'nvidia.com/gpu', message: /^Deployment infer holds 1 nvidia\.com\/gpu while idle: .* × 2 replicas/ }],
      output: null,
    },
    {
      name: 'a Deployment holding one GPU per replica',
      code: workload('Deployment', '  replicas: 3\n'),
      findings: [
        {
          at: 'nvidia.com/gpu',
          severity: 'info',
          message: 'Deployment infer holds 1 nvidia.com/gpu while idle: its GPU nodes never scale down. It holds them per pod × 3 replicas for as long as it runs, even while the GPUs idle. If the work is sporadic, run it as a Job with ttlSecondsAfterFinished on a GPU pool that scales to zero.',
        },
      ],
      output: null,
    },
    {
      name: 'a StatefulSet with the default of one replica',
      code: workload('StatefulSet', '', '4'),
      findings: [{ at: 'nvidia.com/gpu', message: /^StatefulSet infer holds 4 nvidia\.com\/gpu while idle: its GPU node never scales down\. It holds them per pod × 1 replica for as long as it runs/ }],
    },
  ],
});
