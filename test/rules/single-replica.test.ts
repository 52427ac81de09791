import { singleReplica } from '../../server/src/rules/single-replica';
import { ruleTester } from './rule-tester';

const deployment = (spec: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
${spec}  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx
`;

ruleTester(singleReplica, {
  valid: [
    { name: 'two replicas', code: deployment('  replicas: 2\n') },
    { name: 'scaled to zero on purpose', code: deployment('  replicas: 0\n') },
    {
      name: 'an HPA owns the count',
      code: deployment('  replicas: 1\n'),
      files: { 'hpa.yaml': 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 2\n  maxReplicas: 5\n' },
    },
    { name: 'a DaemonSet has no replicas', code: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: a, image: a}]}\n' },
    { name: 'suppressed by a comment', code: deployment('  # kube-resilience-ignore single-replica -- a batch console nobody waits for\n  replicas: 1\n') },
  ],
  invalid: [
    {
      name: 'replicas: 1, fixed in place with its comment kept',
      code: deployment('  replicas: 1 # one is enough?\n'),
      findings: [{ at: 'replicas', line: 6, message: /runs 1 pod \(replicas: 1\)/ }],
      output: deployment('  replicas: 2 # one is enough?\n'),
    },
    {
      name: 'no replicas field: the default of 1, fixed by adding the field first in spec',
      code: deployment(''),
      findings: [{ at: 'kind: Deployment', message: /no replicas field \(defaults to 1\)/ }],
      output: deployment('').replace('spec:\n  selector', 'spec:\n  replicas: 2\n  selector'),
    },
  ],
});
