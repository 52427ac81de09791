import { nodeAgentPriority } from '../../server/src/rules/node-agent-priority';
import { deployment } from './manifests';
import { ruleTester } from './rule-tester';

const daemonSet = (name: string, namespace: string, podSpec: string, image: string, container = '') => deployment({ kind: 'DaemonSet', name, namespace, podSpec, image, container });

const TAIL =
  'Under node memory pressure the kubelet evicts pods above their requests first, lowest priority first, so it can evict this agent before the app that causes the pressure, and the node runs without Service routing until its pod is back; on a full node the scheduler preempts nothing for it and the kubelet makes room only for critical pods, so that pod stays Pending while the node runs without it. Set priorityClassName: system-node-critical.';

ruleTester(nodeAgentPriority, {
  valid: [
    { name: 'kube-proxy at system-node-critical', code: daemonSet('kube-proxy', 'kube-system', '      priorityClassName: system-node-critical\n', 'registry.k8s.io/kube-proxy:v1.33.4') },
    { name: 'node-exporter at system-cluster-critical (critical too)', code: daemonSet('node-exporter', 'monitoring', '      priorityClassName: system-cluster-critical\n', 'quay.io/prometheus/node-exporter:v1.9.1') },
    { name: 'an application DaemonSet outside kube-system, off the host network, with an unknown image', code: daemonSet('cache-warmer', 'shop', '', 'example/cache-warmer:1.0') },
    {
      name: 'a Deployment in kube-system is not a node agent',
      code: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: metrics-server\n  namespace: kube-system\nspec:\n  template:\n    spec:\n      containers:\n        - name: m\n          image: registry.k8s.io/metrics-server/metrics-server:v0.7.2\n',
    },
  ],
  invalid: [
    {
      name: 'kube-proxy without a priority class and without a memory request: the field is added, comments kept',
      code: daemonSet('kube-proxy', 'kube-system', '      # kube-proxy keeps the host network\n      hostNetwork: true\n', 'registry.k8s.io/kube-proxy:v1.33.4'),
      findings: [
        {
          at: 'spec',
          line: 14,
          message: `DaemonSet kube-system/kube-proxy: memory pressure can evict it before the apps on its node. DaemonSet kube-system/kube-proxy has no priorityClassName, so its pods run at priority 0, like any app; it requests no memory, so all it uses counts as above its request. ${TAIL}`,
        },
      ],
      output: `${daemonSet('kube-proxy', 'kube-system', '      # kube-proxy keeps the host network\n      hostNetwork: true\n', 'registry.k8s.io/kube-proxy:v1.33.4')}      priorityClassName: system-node-critical\n`,
    },
    {
      name: 'a log agent in its own namespace with a class of its own, known from the workspace, and a memory request',
      code: daemonSet('collector', 'logging', '      priorityClassName: agents\n', 'cr.fluentbit.io/fluent/fluent-bit:3.2', '          resources:\n            requests:\n              memory: 64Mi\n'),
      files: { 'classes.yaml': 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: agents\nvalue: 100000\n' },
      findings: [
        {
          at: 'priorityClassName',
          message: /^DaemonSet logging\/collector: memory pressure can evict it before the apps on its node\. DaemonSet logging\/collector \(fluent-bit\) has priorityClassName agents \(value 100000\), below both system-critical classes; it requests 64Mi memory, and every byte above that counts against it\. .* the node runs without log collection until its pod is back;/,
        },
      ],
      output: daemonSet('collector', 'logging', '      priorityClassName: system-node-critical\n', 'cr.fluentbit.io/fluent/fluent-bit:3.2', '          resources:\n            requests:\n              memory: 64Mi\n'),
    },
    {
      name: 'a pod-level memory request (spec.resources) is the request the kubelet ranks it by',
      code: daemonSet('kube-proxy', 'kube-system', '      resources:\n        requests:\n          memory: 128Mi\n', 'registry.k8s.io/kube-proxy:v1.33.4'),
      findings: [{ message: /; it requests 128Mi memory, and every byte above that counts against it\./ }],
    },
    {
      name: 'an unknown DaemonSet on the host network, with the cluster\'s globalDefault class named',
      code: daemonSet('probe', 'ops', '      hostNetwork: true\n', 'example/probe:1'),
      files: { 'classes.yaml': 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: normal\nvalue: 1000\nglobalDefault: true\n' },
      findings: [{ message: /^DaemonSet ops\/probe: memory pressure can evict it before the apps on its node\. DaemonSet ops\/probe has no priorityClassName, so its pods run at the priority of normal \(globalDefault, value 1000\), like any app;.* the node runs without this agent until its pod is back;/ }],
    },
  ],
});
