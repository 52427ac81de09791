import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dnsSinglePoint } from '../../server/src/rules/dns-single-point';
import { cluster, clusterFindings, configMap, deploymentObject, fromObject, node, pod } from '../cluster-fixtures';
import { ruleTester } from './rule-tester';

const coredns = (spec: string, podSpec = '', namespace = 'kube-system') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: ${namespace}
spec:
${spec}  selector:
    matchLabels:
      k8s-app: kube-dns
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
${podSpec}      containers:
        - name: coredns
          image: registry.k8s.io/coredns/coredns:v1.12.0
`;

const antiAffinity = `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector:
                matchExpressions:
                  - {key: k8s-app, operator: In, values: ["kube-dns"]}
              topologyKey: kubernetes.io/hostname
`;

const heldTogether = `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector:
                matchLabels: {k8s-app: kube-dns}
              topologyKey: kubernetes.io/hostname
      topologySpreadConstraints:
        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {k8s-app: kube-dns}}}
`;

const looseSpread = '      topologySpreadConstraints:\n        - {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {k8s-app: kube-dns}}}\n';

const autoscaler = (params: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: kube-dns-autoscaler\n  namespace: kube-system\nspec:\n  selector: {matchLabels: {k8s-app: kube-dns-autoscaler}}\n  template:\n    metadata: {labels: {k8s-app: kube-dns-autoscaler}}\n    spec:\n      containers:\n      - name: autoscaler\n        image: registry.k8s.io/cpa/cluster-proportional-autoscaler:1.8.4\n        command:\n          - /cluster-proportional-autoscaler\n          - --namespace=kube-system\n          - --configmap=kube-dns-autoscaler\n          - --target=Deployment/coredns\n          - --default-params=${params}\n`;

ruleTester(dnsSinglePoint, {
  valid: [
    { name: 'two replicas kept apart by pod anti-affinity (kubeadm\'s default)', code: coredns('  replicas: 2\n', antiAffinity) },
    { name: 'a coredns Deployment outside kube-system is an application', code: coredns('  replicas: 1\n', '', 'dns-test') },
    { name: 'a DNS autoscaler that prevents a single point of failure', code: coredns(''), files: { 'autoscaler.yaml': autoscaler(`{"linear":{"coresPerReplica":256,"nodesPerReplica":16,"preventSinglePointFailure":true}}`) } },
  ],
  invalid: [
    {
      name: 'no replicas field: 2 replicas and a hostname spread constraint',
      code: coredns('  # replicas: not specified here\n'),
      findings: [
        {
          at: 'kind: Deployment',
          message:
            'Cluster DNS Deployment kube-system/coredns runs 1 pod: when it restarts, every DNS lookup fails. It runs 1 replica (the default): when that pod restarts, is evicted or its node dies, every DNS lookup in the cluster fails until a new one is ready; a running CoreDNS keeps answering during a control-plane outage from its informer cache, but one that restarts cannot sync with the API and answers SERVFAIL for cluster names, and one that dies is not replaced.',
        },
      ],
      output:
        coredns('  # replicas: not specified here\n  replicas: 2\n') +
        '      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              k8s-app: kube-dns\n',
    },
    {
      name: 'replicas: 1 with anti-affinity already: only the count changes',
      code: coredns('  replicas: 1 # small cluster\n', antiAffinity),
      findings: [{ at: 'replicas', message: /runs 1 replica:/ }],
      output: coredns('  replicas: 2 # small cluster\n', antiAffinity),
    },
    {
      name: 'two replicas that nothing spreads: a hostname spread constraint, the count kept',
      code: coredns('  replicas: 2\n'),
      findings: [
        {
          at: 'replicas',
          message:
            'Cluster DNS Deployment kube-system/coredns: both pods may share one node and fail with it. It runs 2 replicas and nothing spreads them across nodes (no topology spread constraint or pod anti-affinity on kubernetes.io/hostname that selects its own pods): they may run on one node, and when that node dies or reboots every DNS lookup in the cluster fails until they are rescheduled; a running CoreDNS keeps answering during a control-plane outage from its informer cache, but one that restarts cannot sync with the API and answers SERVFAIL for cluster names, and one that dies is not replaced.',
        },
      ],
      output:
        coredns('  replicas: 2\n') +
        '      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              k8s-app: kube-dns\n',
    },
    {
      name: 'two replicas a spread constraint lets share a node (maxSkew 2): said and fixed at the maxSkew',
      code: coredns('  replicas: 2\n', looseSpread),
      findings: [{ at: '2', message: /^Deployment kube-system\/coredns: both pods may run on one node .* has maxSkew 2, which lets both pods run on one node:/ }],
      output: coredns('  replicas: 2\n', looseSpread.replace('maxSkew: 2', 'maxSkew: 1')),
    },
    {
      // A second {kubernetes.io/hostname, ScheduleAnyway} constraint is a duplicate the API server refuses (ValidateSpreadConstraintNotRepeat).
      name: 'one replica under a spread constraint of maxSkew 2: at the 2 replicas written it spreads nothing, so its maxSkew is set, not a duplicate added',
      code: coredns('  replicas: 1\n', looseSpread),
      findings: [{ at: 'replicas', message: /runs 1 replica:/ }],
      output: coredns('  replicas: 2\n', looseSpread.replace('maxSkew: 2', 'maxSkew: 1')),
    },
    {
      name: 'one replica under a spread constraint whose maxSkew the API server refuses: the digits are written as the number, not a duplicate added',
      code: coredns('  replicas: 1\n', looseSpread.replace('maxSkew: 2', 'maxSkew: "1"')),
      findings: [{ at: 'replicas', message: /runs 1 replica:/ }],
      output: coredns('  replicas: 2\n', looseSpread.replace('maxSkew: 2', 'maxSkew: 1')),
    },
    {
      name: 'two replicas under a hostname ScheduleAnyway constraint that counts other pods: that one is pointed at the DNS pods, not a duplicate added',
      code: coredns('  replicas: 2\n', looseSpread.replace('maxSkew: 2', 'maxSkew: 1').replace('k8s-app: kube-dns', 'k8s-app: other')),
      findings: [{ at: 'replicas', message: /nothing spreads them across nodes/ }],
      // In a flow mapping the selector is written as JSON, which is YAML too.
      output: coredns('  replicas: 2\n', looseSpread.replace('maxSkew: 2', 'maxSkew: 1').replace('{matchLabels: {k8s-app: kube-dns}}', '{"matchLabels":{"k8s-app":"kube-dns"}}')),
    },
    {
      name: 'one replica under a DoNotSchedule constraint of maxSkew 2: a ScheduleAnyway one beside it is no duplicate, and added (lowering the DoNotSchedule one would be unsafe)',
      code: coredns('  replicas: 1\n', looseSpread.replace('ScheduleAnyway', 'DoNotSchedule')),
      findings: [{ at: 'replicas', message: /runs 1 replica:/ }],
      output: coredns(
        '  replicas: 2\n',
        looseSpread.replace('ScheduleAnyway', 'DoNotSchedule') + '        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              k8s-app: kube-dns\n',
      ),
    },
    {
      name: 'two replicas its own required affinity holds on one node, whatever spreads them: no spread fix, which could not help',
      code: coredns('  replicas: 2\n', heldTogether),
      findings: [
        {
          at: 'replicas',
          message: /^Cluster DNS Deployment kube-system\/coredns: both pods must share one node and fail with it\. It runs 2 replicas and its required pod affinity on kubernetes\.io\/hostname selects its own pods: they must run on one node, and when that node dies/,
        },
      ],
      output: null,
    },
    {
      name: 'one replica its own required affinity holds on one node: no fix that says it spreads them',
      code: coredns('  replicas: 1\n', heldTogether),
      findings: [{ at: 'replicas', message: /runs 1 replica:/ }],
      output: null,
    },
    {
      name: 'three replicas written, held at 1 by KEDA\'s paused-replicas: no fix that writes replicas, which KEDA overrides',
      code: `${coredns('  replicas: 3\n')}---\napiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: coredns\n  namespace: kube-system\n  annotations: {autoscaling.keda.sh/paused-replicas: "1"}\nspec:\n  scaleTargetRef: {name: coredns}\n  triggers: [{type: cpu, metricType: Utilization, metadata: {value: "60"}}]\n`,
      findings: [{ at: 'kind: Deployment', message: /runs 1 replica \(held by KEDA's paused-replicas\):/ }],
      output: null,
    },
    {
      name: 'a DNS autoscaler that may go down to 1',
      code: coredns(''),
      files: { 'autoscaler.yaml': autoscaler(`{"linear":{"coresPerReplica":256,"nodesPerReplica":16,"min":1}}`) },
      findings: [{ message: /runs 1 replica \(the default\) \(kube-dns-autoscaler sizes it, but its parameters let it go down to 1: set preventSinglePointFailure\)/ }],
    },
  ],
});

describe('dns-single-point on a live cluster', () => {
  const labels = { 'k8s-app': 'kube-dns' };
  const nodes = [node('cp-1', { controlPlane: true }), node('cp-2', { controlPlane: true }), node('w-1'), node('w-2')];
  const dnsPod = (name: string, nodeName: string, ready = true) => pod(name, { namespace: 'kube-system', labels, nodeName, ready });
  const live = (...resources: ReturnType<typeof pod>[]) => cluster([...nodes, deploymentObject('kube-system', 'coredns', 2, labels), ...resources], { name: 'lab' });

  it('reports ready pods all on one node', () => {
    const findings = clusterFindings(dnsSinglePoint, live(dnsPod('coredns-a', 'w-1'), dnsPod('coredns-b', 'w-1'), dnsPod('coredns-c', 'w-2', false)));
    assert.equal(findings.length, 1);
    assert.match(findings[0].message, /^Cluster DNS Deployment kube-system\/coredns in cluster lab has 2 ready pods, both on node w-1\. When that node dies or reboots, every DNS lookup in the cluster fails until they are rescheduled/);
    assert.equal(findings[0].uri, null);
  });

  it('one ready pod is said as one', () => {
    const [finding] = clusterFindings(dnsSinglePoint, live(dnsPod('coredns-a', 'w-1'), dnsPod('coredns-b', 'w-2', false)));
    assert.match(finding.message, /has 1 ready pod, on node w-1\. When that node dies or reboots, every DNS lookup in the cluster fails until it is rescheduled, and during a control-plane outage it is not rescheduled at all;/);
  });

  it('reports ready pods all on control-plane nodes', () => {
    const findings = clusterFindings(dnsSinglePoint, live(dnsPod('coredns-a', 'cp-1'), dnsPod('coredns-b', 'cp-2')));
    assert.match(findings[0].message, /runs only on control-plane nodes \(cp-1, cp-2\)\. Its 2 ready pods are there: when the control plane goes down with its nodes, cluster DNS goes with it/);
  });

  it('says nothing when ready pods are spread over workers, or when no DNS pod was read', () => {
    assert.deepEqual(clusterFindings(dnsSinglePoint, live(dnsPod('coredns-a', 'w-1'), dnsPod('coredns-b', 'cp-1'))), []);
    assert.deepEqual(clusterFindings(dnsSinglePoint, live()), []);
  });

  it('reports a live Deployment with one replica, unless its autoscaler keeps two', () => {
    const one = deploymentObject('kube-system', 'coredns', 1, labels);
    assert.match(clusterFindings(dnsSinglePoint, cluster([one], { name: 'lab' }))[0].message, /^Cluster DNS Deployment kube-system\/coredns in cluster lab runs 1 pod: when it restarts, every DNS lookup fails\. It runs 1 replica:/);
    const cpa = fromObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'kube-dns-autoscaler', namespace: 'kube-system' },
      spec: { template: { spec: { containers: [{ name: 'a', command: ['/cluster-proportional-autoscaler', '--configmap=kube-dns-autoscaler', '--target=deployment/coredns'] }] } } },
    });
    const params = configMap('kube-system', 'kube-dns-autoscaler', { linear: '{"coresPerReplica":256,"nodesPerReplica":16,"min":2}' });
    assert.deepEqual(clusterFindings(dnsSinglePoint, cluster([one, cpa, params])), []);
  });
});
