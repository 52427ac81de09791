import { toleratesEveryTaint } from '../../server/src/rules/tolerates-every-taint';
import { cluster, gpuNode, node } from '../cluster-fixtures';
import { deployment as workload } from './manifests';
import { ruleTester } from './rule-tester';

const byKey = (taint: string, seconds: number) => `        - key: node.kubernetes.io/${taint}\n          operator: Exists\n          effect: NoExecute\n          tolerationSeconds: ${seconds}\n`;
const GPU = '          resources:\n            limits:\n              nvidia.com/gpu: 1\n';
const deployment = (tolerations: string, container = '', namespace = 'shop') =>
  workload({ name: 'orders', namespace, spec: '  replicas: 3\n', podSpec: `      tolerations:\n${tolerations}`, image: 'example/orders:2.1', container });

const SCHEDULING =
  "the scheduler may put its pods on GPU nodes, control-plane nodes and dedicated pools, where they take room meant for those nodes' own pods; a pending one can make the cluster autoscaler add a node of a tainted pool for it, and while one runs on a GPU node the autoscaler removes that node only if the pod can move elsewhere, so the GPU pool may not scale to zero";
const FOREVER = 'it also tolerates node.kubernetes.io/unreachable and not-ready for ever, so when its node dies its pods are never evicted and never replaced';

ruleTester(toleratesEveryTaint, {
  valid: [
    { name: 'tolerations by key', code: deployment('        - key: dedicated\n          operator: Equal\n          value: orders\n          effect: NoSchedule\n') },
    { name: 'a DaemonSet tolerating every taint is a node agent\'s business', code: deployment('        - operator: Exists\n').replace('kind: Deployment', 'kind: DaemonSet').replace('  replicas: 3\n', '') },
    { name: 'an add-on in kube-system', code: deployment('        - operator: Exists\n', '', 'kube-system') },
    { name: 'a catch-all NoExecute toleration with tolerationSeconds', code: deployment('        - operator: Exists\n          effect: NoExecute\n          tolerationSeconds: 60\n') },
    {
      name: 'a GPU workload with a catch-all NoSchedule toleration (it needs the GPU pool)',
      code: deployment('        - operator: Exists\n          effect: NoSchedule\n', GPU),
    },
    {
      name: 'a GPU workload whose tolerations of unreachable and not-ready by key come before the catch-all: the taint manager takes their 30 s',
      code: deployment(`${byKey('unreachable', 30)}${byKey('not-ready', 30)}        - operator: Exists\n`, GPU),
    },
  ],
  invalid: [
    {
      name: 'operator Exists without key or effect: both stories, on the toleration itself; no automatic fix',
      code: deployment('        # copied from a DaemonSet\n        - operator: Exists\n'),
      findings: [{ at: 'operator: Exists', line: 18, message: `Deployment shop/orders tolerates every taint: it may run on tainted pools, and never leaves a dead node. It has \`operator: Exists\` without a key: ${SCHEDULING}; ${FOREVER}. Tolerate the taints it needs by key instead.` }],
      output: null,
    },
    {
      name: 'the second toleration is the catch-all, for NoSchedule only',
      code: deployment('        - key: dedicated\n          operator: Exists\n        - operator: Exists\n          effect: NoSchedule\n'),
      findings: [{ at: 'operator: Exists', line: 19, message: `Deployment shop/orders tolerates every taint for effect NoSchedule: it may run on tainted pools (GPU, control plane, dedicated). It has \`operator: Exists\` without a key: ${SCHEDULING}. Tolerate the taints it needs by key instead.` }],
    },
    {
      name: 'a catch-all for PreferNoSchedule first does not hide a bare one after it: both stories, on the bare one',
      code: deployment('        - operator: Exists\n          effect: PreferNoSchedule\n        - operator: Exists\n'),
      findings: [{ at: 'operator: Exists', line: 19, message: `Deployment shop/orders tolerates every taint: it may run on tainted pools, and never leaves a dead node. It has \`operator: Exists\` without a key: ${SCHEDULING}; ${FOREVER}. Tolerate the taints it needs by key instead.` }],
    },
    {
      name: 'a bounded NoExecute catch-all first does not hide a NoSchedule one after it: the pools story, on the NoSchedule one',
      code: deployment('        - operator: Exists\n          effect: NoExecute\n          tolerationSeconds: 60\n        - operator: Exists\n          effect: NoSchedule\n'),
      findings: [{ at: 'operator: Exists', line: 20, message: `Deployment shop/orders tolerates every taint: it may run on tainted pools (GPU, control plane, dedicated). It has \`operator: Exists\` without a key: ${SCHEDULING}. Tolerate the taints it needs by key instead.` }],
    },
    {
      name: 'a catch-all for NoSchedule and one for NoExecute are a bare `operator: Exists`: both stories, on the first, the second related',
      code: deployment('        # split by effect\n        - operator: Exists\n          effect: NoSchedule\n        - operator: Exists\n          effect: NoExecute\n'),
      findings: [
        {
          at: 'operator: Exists',
          line: 18,
          message: `Deployment shop/orders tolerates every taint: it may run on tainted pools, and never leaves a dead node. It has \`operator: Exists\` without a key: ${SCHEDULING}; ${FOREVER}. Tolerate the taints it needs by key instead.`,
          related: ['manifest.yaml: operator'],
        },
      ],
      output: null,
    },
    {
      name: 'tolerations of unreachable and not-ready by key before the catch-all: the pools story, and its pods still leave a dead node after their 30 s',
      code: deployment(`${byKey('unreachable', 30)}${byKey('not-ready', 30)}        - operator: Exists\n`),
      findings: [
        {
          at: 'operator: Exists',
          line: 25,
          message: `Deployment shop/orders tolerates every taint: it may run on tainted pools (GPU, control plane, dedicated). It has \`operator: Exists\` without a key: ${SCHEDULING}; its tolerations of node.kubernetes.io/unreachable and not-ready by key come first, so when its node dies its pods are still evicted 30 s after the node controller taints it. Tolerate the taints it needs by key instead.`,
        },
      ],
    },
    {
      name: 'tolerations by key with different seconds: each said, 0 as at once',
      code: deployment(`${byKey('unreachable', 30)}${byKey('not-ready', 0)}        - operator: Exists\n`),
      findings: [{ message: /; its tolerations of node\.kubernetes\.io\/unreachable and not-ready by key come first, so its pods are still evicted 30 s after the node controller taints their node unreachable and as soon as it taints it not-ready\. Tolerate/ }],
    },
    {
      name: 'a toleration of unreachable alone by key: the catch-all still keeps its pods on a node that reports NotReady for ever',
      code: deployment(`${byKey('unreachable', 30)}        - operator: Exists\n`),
      findings: [
        {
          at: 'operator: Exists',
          line: 21,
          message: `Deployment shop/orders tolerates every taint: it may run on tainted pools, and never leaves a node that reports NotReady. It has \`operator: Exists\` without a key: ${SCHEDULING}; it also tolerates node.kubernetes.io/not-ready for ever, so when its node reports NotReady its pods are never evicted and never replaced; its toleration of node.kubernetes.io/unreachable by key comes first, so when its node stops reporting its pods are still evicted 30 s after the node controller taints it. Tolerate the taints it needs by key instead.`,
        },
      ],
    },
    {
      name: 'with a cluster: the tainted nodes within reach, GPU nodes counted',
      code: deployment('        - operator: Exists\n          effect: NoSchedule\n'),
      cluster: cluster([node('cp-1', { controlPlane: true }), node('w-1'), gpuNode('gpu-1'), gpuNode('gpu-2')], { name: 'prod' }),
      findings: [{ message: /^Deployment shop\/orders tolerates every taint for effect NoSchedule: it may run on tainted pools \(GPU, control plane, dedicated\)\. It has `operator: Exists` without a key: the scheduler may put its pods on GPU nodes, control-plane nodes and dedicated pools \(in cluster prod: 3 tainted nodes, 2 with GPUs: cp-1, gpu-1, gpu-2\), where/ }],
    },
    {
      name: 'a GPU workload tolerating every taint still stays on dead nodes for ever',
      code: deployment('        - operator: Exists\n', GPU),
      findings: [{ message: `Deployment shop/orders tolerates every taint: its pods are never moved off a dead node. It has \`operator: Exists\` without a key: ${FOREVER}. Tolerate the taints it needs by key instead.` }],
    },
  ],
});
