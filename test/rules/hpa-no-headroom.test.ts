import { hpaNoHeadroom } from '../../server/src/rules/hpa-no-headroom';
import { deployment, documents, hpa, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(hpaNoHeadroom, {
  valid: [
    { name: 'room above the floor', code: hpa({ min: 2, max: 6 }) },
    { name: 'default floor of 1 under a max of 2', code: hpa({ max: 2 }) },
    { name: 'its target scaled to zero on purpose (replicas: 0): the HPA does not scale it at all', code: documents(hpa({ min: 3, max: 3 }), deployment({ spec: '  replicas: 0\n' })) },
    { name: 'a KEDA ScaledObject of the defaults: 0 to 100', code: scaledObject() },
    { name: 'a KEDA ScaledObject of 0 to 1: KEDA adds its one pod from zero', code: scaledObject({ spec: '  maxReplicaCount: 1\n' }) },
    { name: 'a paused KEDA ScaledObject: it scales nothing', code: scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 3\n', annotations: '    autoscaling.keda.sh/paused: "true"\n' }) },
  ],
  invalid: [
    {
      name: 'minReplicas written in quotes ("2") is no integer: the API server rejects the HPA; the fix writes the number',
      code: hpa({ max: 5 }).replace('  maxReplicas: 5\n', '  minReplicas: "2" # two at night\n  maxReplicas: 5\n'),
      findings: [{ at: '"2"', message: 'HorizontalPodAutoscaler web: minReplicas "2" is no integer: the API server rejects it, so it never scales anything, and its workload runs the replicas it states.' }],
      output: hpa({ max: 5 }).replace('  maxReplicas: 5\n', '  minReplicas: 2 # two at night\n  maxReplicas: 5\n'),
    },
    {
      name: 'a fraction of a KEDA ScaledObject is no integer either, and no number to write',
      code: scaledObject({ spec: '  maxReplicaCount: 2.5\n' }),
      findings: [{ at: '2.5', message: /^ScaledObject \S+ \(KEDA\): maxReplicaCount 2\.5 is no integer: the API server rejects it/ }],
      output: null,
    },
    {
      name: 'a KEDA ScaledObject whose maxReplicaCount equals its minReplicaCount: its own fields said',
      code: documents(scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 3\n' }), deployment()),
      findings: [{ at: 'maxReplicaCount', related: ['manifest.yaml: kind: Deployment'], message: 'ScaledObject web (KEDA): maxReplicaCount 3 ≤ minReplicaCount 3: it can never add a pod. A load surge or the loss of a node finds no headroom.' }],
      output: null,
    },
    {
      name: 'a KEDA ScaledObject idle at 0 (idleReplicaCount) whose maxReplicaCount equals its minReplicaCount: once active it can never add a pod, whatever it runs while idle',
      code: documents(scaledObject({ spec: '  idleReplicaCount: 0\n  minReplicaCount: 3\n  maxReplicaCount: 3\n' }), deployment()),
      findings: [{ at: 'maxReplicaCount', related: ['manifest.yaml: kind: Deployment'], message: 'ScaledObject web (KEDA): maxReplicaCount 3 ≤ minReplicaCount 3: it can never add a pod. A load surge or the loss of a node finds no headroom.' }],
      output: null,
    },
    {
      name: 'a KEDA ScaledObject whose maxReplicaCount is below its minReplicaCount: KEDA refuses it, said as such',
      code: documents(scaledObject({ spec: '  minReplicaCount: 5\n  maxReplicaCount: 3\n' }), deployment()),
      findings: [{ at: 'maxReplicaCount', related: [], message: 'ScaledObject web (KEDA): maxReplicaCount 3 is below minReplicaCount 5: KEDA refuses it, so it makes no HPA, and its workload runs the replicas it states.' }],
      output: null,
    },
    {
      name: 'max equals min',
      code: documents(hpa({ min: 3, max: 3 }), deployment()),
      findings: [{ at: 'maxReplicas', line: 11, related: ['manifest.yaml: kind: Deployment'], severity: 'info', message: 'HorizontalPodAutoscaler web: maxReplicas 3 ≤ minReplicas 3: it can never add a pod. A load surge or the loss of a node finds no headroom.' }],
      output: null,
    },
    {
      name: 'max below min: the API server rejects the HPA, said as such, with no workload it scales',
      code: documents(hpa({ min: 5, max: 3 }), deployment()),
      findings: [{ at: 'maxReplicas', related: [], message: 'HorizontalPodAutoscaler web: maxReplicas 3 is below minReplicas 5: the API server rejects it, so the HPA is never created, and its workload runs the replicas it states.' }],
      output: null,
    },
    {
      name: 'max 0 under a floor of 0: below 1, which the API server asks of maxReplicas',
      code: hpa({ min: 0, max: 0 }),
      findings: [{ at: 'maxReplicas', message: /^HorizontalPodAutoscaler web: maxReplicas 0 is below 1: the API server rejects it/ }],
      output: null,
    },
    {
      name: 'max 1 with the default floor',
      code: hpa({ max: 1 }),
      findings: [{ at: 'maxReplicas', message: /maxReplicas 1 ≤ minReplicas 1 \(the default\)/ }],
      output: null,
    },
  ],
});
