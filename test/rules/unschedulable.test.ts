import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest } from '../../server/src/manifest/parse';
import { unschedulable, workloadPlacement } from '../../server/src/rules/unschedulable';
import { cluster, fromObject, gpuNode, node, pod } from '../cluster-fixtures';
import { ruleTester } from './rule-tester';

const deployment = (podSpec: string, resources = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: train
spec:
  replicas: 2
  selector:
    matchLabels: {app: train}
  template:
    metadata:
      labels: {app: train}
    spec:
${podSpec}      containers:
        - name: main
          image: example
${resources}`;

const gpuLimit = '          resources:\n            limits:\n              nvidia.com/gpu: 1\n';
const twelve = cluster([...Array.from({ length: 9 }, (_, i) => node(`cpu-${i}`)), ...Array.from({ length: 3 }, (_, i) => gpuNode(`gpu-${i}`))], { name: 'prod' });

ruleTester(unschedulable, {
  valid: [
    { name: 'no cluster: nothing is known', code: deployment('', gpuLimit) },
    { name: 'nodes could not be read: unknown, no finding', code: deployment('', gpuLimit), cluster: cluster([], { missing: [{ resource: 'nodes', reason: 'forbidden' }] }) },
    { name: 'an ordinary pod fits the CPU nodes', code: deployment(''), cluster: twelve },
    { name: 'a GPU pod that tolerates the GPU taint fits the GPU nodes', code: deployment('      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n', gpuLimit), cluster: twelve },
    { name: 'GKE tolerates the GPU taint on admission', code: deployment('', gpuLimit), cluster: cluster([gpuNode('gpu-0')], { topology: { managed: 'GKE' } }) },
    {
      name: 'its pods already run ready in the cluster: the model trusts what it sees',
      code: deployment('', gpuLimit),
      cluster: cluster([node('cpu-0'), pod('train-abc', { labels: { app: 'train' }, nodeName: 'cpu-0' })]),
    },
    {
      name: 'a DaemonSet that matches no node yet waits for one (the NVIDIA device plugin on a cluster without GPUs)',
      code: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: gfd\nspec:\n  selector: {matchLabels: {app: gfd}}\n  template:\n    metadata: {labels: {app: gfd}}\n    spec:\n      nodeSelector: {nvidia.com/gpu.present: "true"}\n      containers: [{name: gfd, image: gfd}]\n',
      cluster: cluster([node('cpu-0')]),
    },
  ],
  invalid: [
    {
      name: 'a GPU pod without a toleration fits on none of 12 nodes',
      code: deployment('', gpuLimit),
      cluster: twelve,
      findings: [
        {
          at: 'containers',
          severity: 'error',
          message:
            'Deployment train fits on no node of cluster prod: its pods would stay Pending. It fits on 0 of 12 nodes: 9 without nvidia.com/gpu, 3 tainted nvidia.com/gpu=present:NoSchedule without a toleration, so its pods stay Pending (judged on allocatable capacity, not on the room left by running pods).',
        },
      ],
      output: null,
    },
    {
      name: 'a nodeSelector no node satisfies',
      code: deployment('      nodeSelector:\n        pool: highmem\n'),
      cluster: twelve,
      findings: [{ at: 'nodeSelector', message: /fits on 0 of 12 nodes: 9 without the label pool=highmem \(nodeSelector\), 3 tainted nvidia\.com\/gpu=present:NoSchedule without a toleration/ }],
    },
    {
      name: 'nodeName naming a node the cluster does not have',
      code: deployment('      nodeName: gpu-7\n'),
      cluster: twelve,
      findings: [{ at: 'nodeName', message: 'Deployment train is bound to node gpu-7, which cluster prod lacks: its pods never start. nodeName bypasses the scheduler, so none of the cluster\'s 12 nodes takes them.' }],
    },
    {
      name: 'a memory request larger than any node',
      code: deployment('', '          resources:\n            requests:\n              memory: 64Gi\n'),
      cluster: cluster([node('a'), node('b')]),
      findings: [{ at: 'containers', message: /fits on 0 of 2 nodes: 2 with less than 64Gi memory allocatable/ }],
    },
    {
      name: 'a pod-level memory request larger than any node, its containers requesting none',
      code: deployment('      resources: {requests: {memory: 4Gi}, limits: {memory: 4Gi}}\n'),
      cluster: cluster([node('a', { allocatable: { memory: '2Gi' } }), node('b', { allocatable: { memory: '2Gi' } })]),
      findings: [{ at: 'memory', message: /fits on 0 of 2 nodes: 2 with less than 4Gi memory allocatable/ }],
    },
    {
      name: 'a pod-level memory limit, taken for its request, larger than any node: the range is on the limit',
      code: deployment('      resources:\n        limits:\n          memory: 8Gi\n'),
      cluster: cluster([node('a', { allocatable: { memory: '2Gi' } })]),
      findings: [{ at: 'memory', message: /fits on 0 of 1 node: 1 with less than 8Gi memory allocatable/ }],
    },
    {
      name: 'a pod-level CPU request beside containers whose memory does not fit: the range is on the containers',
      code: deployment('      resources:\n        requests:\n          cpu: 100m\n', '          resources:\n            requests:\n              memory: 64Gi\n'),
      cluster: cluster([node('a')]),
      findings: [{ at: 'containers', message: /1 with less than 64Gi memory allocatable/ }],
    },
    {
      name: 'with a cluster autoscaler it is a warning that names it',
      code: deployment('', gpuLimit),
      cluster: cluster([node('cpu-0'), fromObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: {} })]),
      findings: [{ severity: 'warning', message: /^Deployment train fits on no node of cluster test: its pods would stay Pending\. It fits on 0 of 1 node: 1 without nvidia\.com\/gpu, so its pods stay Pending unless the cluster autoscaler can add a node that matches/ }],
    },
  ],
});

describe('workloadPlacement, for the hover card and the simulator', () => {
  it('gives the count, the fitting nodes and the reasons for any workload', () => {
    const [workload] = parseManifest('file:///w.yaml', deployment('      nodeSelector:\n        kubernetes.io/hostname: cpu-3\n')).resources;
    const placement = workloadPlacement(workload, twelve)!;
    assert.deepEqual(placement.fitting.map((n) => n.name), ['cpu-3']);
    assert.deepEqual(placement.reasons.map((r) => [r.count, r.kind]), [[8, 'node-selector'], [3, 'taint']]);
  });

  it('is undefined without nodes', () => {
    const [workload] = parseManifest('file:///w.yaml', deployment('')).resources;
    assert.equal(workloadPlacement(workload, undefined), undefined);
    assert.equal(workloadPlacement(workload, cluster([node('a')], { missing: [{ resource: 'Node', reason: 'timed out' }] })), undefined);
  });
});
