import { nodeAgentUntolerated } from '../../server/src/rules/node-agent-untolerated';
import { cluster, gpuNode, node } from '../cluster-fixtures';
import { deployment } from './manifests';
import { ruleTester } from './rule-tester';

const daemonSet = (name: string, podSpec: string, image: string) =>
  deployment({ kind: 'DaemonSet', name, namespace: 'kube-system', podSpec: `      priorityClassName: system-node-critical\n${podSpec}`, image });

const PROXY = 'registry.k8s.io/kube-proxy:v1.33.4';
const POOLS = 'nodes of a tainted pool (GPU nodes tainted nvidia.com/gpu, control-plane nodes tainted node-role.kubernetes.io/control-plane, a dedicated pool) run without it';
const live = cluster([node('cp-1', { controlPlane: true }), node('w-1'), gpuNode('gpu-1'), node('win-1', { labels: { 'kubernetes.io/os': 'windows' }, taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] })], { name: 'lab' });

ruleTester(nodeAgentUntolerated, {
  valid: [
    { name: 'kube-proxy tolerating every taint', code: daemonSet('kube-proxy', '      tolerations:\n        - operator: Exists\n', PROXY) },
    { name: 'calico-node tolerating every NoSchedule and every NoExecute taint', code: daemonSet('calico-node', '      tolerations:\n        - operator: Exists\n          effect: NoSchedule\n        - operator: Exists\n          effect: NoExecute\n', 'docker.io/calico/node:v3.29.1') },
    { name: 'a device plugin is meant for its hardware only', code: daemonSet('nvidia-device-plugin', '      tolerations:\n        - key: nvidia.com/gpu\n          operator: Exists\n          effect: NoSchedule\n', 'nvcr.io/nvidia/k8s-device-plugin:v0.17.0') },
    { name: 'an agent that selects its pool (the control plane)', code: daemonSet('cloud-controller-manager', '      nodeSelector:\n        node-role.kubernetes.io/control-plane: ""\n', 'registry.k8s.io/cloud-controller-manager:v1.33.0') },
    { name: 'an application DaemonSet is not a node agent', code: daemonSet('cache', '', 'example/cache:1').replace('namespace: kube-system', 'namespace: shop') },
  ],
  invalid: [
    {
      name: 'node-local-dns tolerating one keyed taint: the catch-all is appended, comments kept',
      code: daemonSet('node-local-dns', '      tolerations:\n        # critical add-ons may be scheduled anywhere\n        - key: CriticalAddonsOnly\n          operator: Exists\n', 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1'),
      findings: [
        {
          at: 'tolerations',
          message: `DaemonSet kube-system/node-local-dns does not run on tainted nodes: they go without it. DaemonSet kube-system/node-local-dns tolerates only CriticalAddonsOnly: ${POOLS}, and pods there get no node-local DNS caching. Tolerate every taint with \`- operator: Exists\`.`,
        },
      ],
      output: daemonSet('node-local-dns', '      tolerations:\n        # critical add-ons may be scheduled anywhere\n        - key: CriticalAddonsOnly\n          operator: Exists\n        - operator: Exists\n', 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.1'),
    },
    {
      name: 'flannel tolerating every NoSchedule taint only',
      code: daemonSet('kube-flannel-ds', '      tolerations:\n        - operator: Exists\n          effect: NoSchedule\n', 'docker.io/flannel/flannel:v0.26.4'),
      findings: [{ at: 'tolerations', message: 'DaemonSet kube-system/kube-flannel-ds does not run on tainted nodes: they go without it. DaemonSet kube-system/kube-flannel-ds tolerates every NoSchedule taint but no NoExecute taint: a node tainted NoExecute (a dedicated pool, a node taken out of service) evicts it and runs without it, and pods there get no pod networking. Tolerate every taint with `- operator: Exists`.' }],
    },
    {
      name: 'an unknown kube-system DaemonSet without tolerations: the finding sits on the pod spec',
      code: daemonSet('node-tuner', '', 'example/tuner:1'),
      findings: [{ at: 'spec', line: 14, message: `DaemonSet kube-system/node-tuner does not run on tainted nodes: they go without it. DaemonSet kube-system/node-tuner tolerates no taint: ${POOLS}. Tolerate every taint with \`- operator: Exists\`.` }],
      output: daemonSet('node-tuner', '      tolerations:\n        - operator: Exists\n', 'example/tuner:1').replace('      tolerations:\n        - operator: Exists\n      containers:', '      containers:') + '      tolerations:\n        - operator: Exists\n',
    },
    {
      name: 'node affinity terms are ORed: one that admits every Linux node makes it an agent of every node, whatever the other picks',
      code: daemonSet(
        'node-tuner',
        '      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n              - matchExpressions: [{key: kubernetes.io/os, operator: In, values: [linux]}]\n              - matchExpressions: [{key: node-role.kubernetes.io/control-plane, operator: Exists}]\n',
        'example/tuner:1',
      ),
      findings: [{ message: /tolerates no taint:/ }],
    },
    {
      name: 'with a cluster: the live nodes it cannot run on, by name and taint (not the Windows node its OS keeps it off)',
      code: daemonSet('kube-proxy', '      nodeSelector:\n        kubernetes.io/os: linux\n', PROXY),
      cluster: live,
      findings: [
        {
          severity: 'warning',
          message:
            'DaemonSet kube-system/kube-proxy does not run on tainted nodes: they go without it. DaemonSet kube-system/kube-proxy tolerates no taint: in cluster lab, 2 nodes run without it: cp-1 (node-role.kubernetes.io/control-plane:NoSchedule) and gpu-1 (nvidia.com/gpu=present:NoSchedule), and pods there get no Service routing. Tolerate every taint with `- operator: Exists`.',
        },
      ],
    },
    {
      name: 'with a cluster whose nodes carry no taint: information',
      code: daemonSet('kube-proxy', '', PROXY),
      cluster: cluster([node('w-1')], { name: 'flat' }),
      findings: [{ severity: 'info', message: /tolerates no taint: no node of cluster flat keeps it off now, but nodes of a tainted pool/ }],
    },
  ],
});
