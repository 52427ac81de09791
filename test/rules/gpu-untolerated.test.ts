import { gpuUntolerated } from '../../server/src/rules/gpu-untolerated';
import { cluster, gpuNode, node, pod } from '../cluster-fixtures';
import { ruleTester } from './rule-tester';

const job = (podSpec: string) => `apiVersion: batch/v1
kind: Job
metadata:
  name: train
spec:
  template:
    spec:
      restartPolicy: Never
${podSpec}      containers:
        - name: cuda
          image: nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04
          resources:
            limits:
              nvidia.com/gpu: 1 # one card is enough
`;

const tainted = cluster([node('cpu-1'), node('cpu-2'), gpuNode('gpu-1', { labels: { 'cloud.google.com/gke-nodepool': 'a100' } }), gpuNode('gpu-2', { labels: { 'cloud.google.com/gke-nodepool': 'a100' } })], { name: 'prod' });
const customTaint = cluster([node('cpu-1'), gpuNode('gpu-1', { taints: [{ key: 'dedicated', value: 'ml', effect: 'NoSchedule' }] })], { name: 'lab' });
const untaintedGpus = cluster([node('cpu-1'), gpuNode('gpu-1', { taints: [] })]);
const gke = cluster([gpuNode('gpu-1')], { topology: { managed: 'GKE' } });

ruleTester(gpuUntolerated, {
  valid: [
    { name: 'no GPU requested', code: job('').replace(/          resources:\n.*\n.*\n/, '') },
    { name: 'half a GPU is none: the API server rejects the pod (gpu-limit-mismatch says so), which no toleration helps', code: job('').replace('nvidia.com/gpu: 1 # one card is enough', 'nvidia.com/gpu: 0.5') },
    { name: 'tolerates nvidia.com/gpu with Exists (no cluster)', code: job('      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule\n') },
    { name: 'tolerates everything (empty key, Exists)', code: job('      tolerations:\n        - operator: Exists\n') },
    { name: 'tolerates the live taint exactly', code: job('      tolerations:\n        - key: nvidia.com/gpu\n          value: present\n          effect: NoSchedule\n'), cluster: tainted },
    { name: 'the live GPU nodes are not tainted', code: job(''), cluster: untaintedGpus },
    { name: 'GKE adds the toleration for the resource itself', code: job(''), cluster: gke },
    {
      name: 'its pods already run ready: something (a webhook) tolerates for it',
      code: job('').replace('  name: train\n', '  name: train\n').replace('    spec:\n      restartPolicy', '    metadata:\n      labels: {job: train}\n    spec:\n      restartPolicy').replace('spec:\n  template:', 'spec:\n  selector:\n    matchLabels: {job: train}\n  template:'),
      cluster: cluster([...tainted.resources, pod('train-x', { labels: { job: 'train' }, nodeName: 'gpu-1' })], { name: 'prod' }),
    },
    {
      name: 'the NVIDIA device plugin DaemonSet (tolerates, requests no GPU)',
      code: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: nvidia-device-plugin-daemonset\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels: {name: ds}\n  template:\n    metadata:\n      labels: {name: ds}\n    spec:\n      tolerations:\n      - key: nvidia.com/gpu\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: plugin\n        image: nvcr.io/nvidia/k8s-device-plugin:v0.20.0\n',
    },
  ],
  invalid: [
    {
      name: 'an init container and the app container asking for one GPU each: the pod asks for one, since init containers run first and give it back',
      code: job('      initContainers:\n        - name: warmup\n          image: example/warmup:1\n          resources:\n            limits:\n              nvidia.com/gpu: 1\n'),
      findings: [{ message: /It requests 1 nvidia\.com\/gpu but/ }],
    },
    {
      name: 'no cluster: info, naming the assumption; the fix adds the toleration',
      code: job(''),
      findings: [
        {
          at: 'nvidia.com/gpu',
          severity: 'info',
          message:
            'Job train tolerates no GPU taint: where GPU nodes are tainted, its pods stay Pending. It requests 1 nvidia.com/gpu but has no toleration for nvidia.com/gpu (assuming GPU nodes carry the nvidia.com/gpu taint: GKE adds that taint and the matching toleration itself, other clusters do not): no node both has the GPU and accepts its pods.',
        },
      ],
      output: job('').replace(
        '# one card is enough\n',
        '# one card is enough\n      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule\n',
      ),
    },
    {
      name: 'a live cluster: warning with its taint; the fix tolerates it and selects the pool label',
      code: job('      tolerations:\n        - key: example.com/spot\n          operator: Exists\n'),
      cluster: tainted,
      findings: [{ at: 'tolerations', severity: 'warning', message: /has no toleration for the GPU nodes' taint nvidia\.com\/gpu=present:NoSchedule in cluster prod/ }],
      output: job('      tolerations:\n        - key: example.com/spot\n          operator: Exists\n        - key: nvidia.com/gpu\n          operator: Equal\n          value: present\n          effect: NoSchedule\n').replace(
        '# one card is enough\n',
        '# one card is enough\n      nodeSelector:\n        nvidia.com/gpu.present: "true"\n',
      ),
    },
    {
      name: 'a cluster with its own GPU taint: that taint, not the convention',
      code: job('      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n'),
      cluster: customTaint,
      findings: [{ at: 'tolerations', message: /taint dedicated=ml:NoSchedule in cluster lab/ }],
    },
    {
      name: 'a toleration with the wrong value does not tolerate the live taint',
      code: job('      tolerations:\n        - key: nvidia.com/gpu\n          value: absent\n          effect: NoSchedule\n'),
      cluster: tainted,
      findings: [{ at: 'tolerations', message: /nvidia\.com\/gpu=present:NoSchedule/ }],
    },
    {
      name: 'a cluster without GPU nodes (a pool scaled to zero): the convention, at info, saying why',
      code: job(''),
      cluster: cluster([node('cpu-1')], { name: 'lab' }),
      findings: [{ severity: 'info', message: /has no toleration for nvidia\.com\/gpu \(cluster lab has no node offering nvidia\.com\/gpu now, so assuming GPU nodes carry the nvidia\.com\/gpu taint/ }],
    },
    {
      name: 'AMD GPUs: the taint keyed by their resource',
      code: job('').replace('nvidia.com/gpu: 1', 'amd.com/gpu: 2'),
      findings: [{ at: 'amd.com/gpu', message: /requests 2 amd\.com\/gpu but has no toleration for amd\.com\/gpu \(assuming GPU nodes carry the amd\.com\/gpu taint, named after the GPU they offer\)/ }],
    },
  ],
});
