import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { apiServerAddresses, detectTopology, topologyVerdict } from '../../server/src/cluster/topology-detect';
import { resourceFromObject, type Resource } from '../../server/src/manifest/parse';

function resources(objects: object[]): Resource[] {
  return objects.map((o) => resourceFromObject(o as Record<string, unknown>)!);
}

function node(name: string, labels: Record<string, string> = {}, extra: { taints?: object[]; providerID?: string; annotations?: Record<string, string>; kubeletVersion?: string } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels, annotations: extra.annotations ?? {} },
    spec: { taints: extra.taints, providerID: extra.providerID },
    status: { nodeInfo: { kubeletVersion: extra.kubeletVersion ?? 'v1.33.4' } },
  };
}

const controlPlaneLabel = { 'node-role.kubernetes.io/control-plane': '' };
const controlPlaneTaint = [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }];

function staticPod(component: string, nodeName: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${component}-${nodeName}`, namespace: 'kube-system', labels: { component, tier: 'control-plane' }, annotations: { 'kubernetes.io/config.mirror': 'abc', 'kubernetes.io/config.source': 'file' } },
    spec: { nodeName },
  };
}

function kubernetesSlice(addresses: string[], port = 6443) {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: addresses.map((a) => ({ addresses: [a] })),
    ports: [{ name: 'https', port }],
  };
}

function identityLease(host: string) {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: `apiserver-${host}`, namespace: 'kube-system', labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': host } } };
}

function kubeadmConfig(clusterConfiguration: string) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kubeadm-config', namespace: 'kube-system' }, data: { ClusterConfiguration: clusterConfiguration } };
}

describe('control-plane topology from what a reader can see', () => {
  it('kubeadm, single control plane with stacked etcd (the demo cluster)', () => {
    const { topology } = demoCluster();
    assert.equal(topology.controlPlaneCount, 1);
    assert.deepEqual(topology.controlPlaneNodes, ['cp-1']);
    assert.deepEqual(topology.etcd, { mode: 'stacked', members: 1, endpoints: ['https://10.0.0.10:2379'] });
    assert.deepEqual(topology.apiServerEndpoints, ['10.0.0.10:6443']);
    assert.equal(topology.distribution, 'kubeadm');
    assert.equal(topology.controlPlaneEndpoint, undefined);
    assert.ok(topology.evidence.some((e) => e.includes('kubeadm-config has no controlPlaneEndpoint')));
    assert.ok(topology.evidence.some((e) => e.includes('1 kube-apiserver static pod in kube-system (kube-apiserver-cp-1)')));
    assert.equal(topologyVerdict(topology), 'One control plane: while it is down there is no API, and nothing is rescheduled, replaced or scaled; running pods keep serving.');
    // Its controller manager runs v1.33.4 with no flag of its own, and holds both leases on cp-1.
    assert.deepEqual(topology.nodeMonitorGrace, { seconds: 50, how: 'no --node-monitor-grace-period flag; the image of kube-controller-manager-cp-1 is v1.33.4, whose default is 50 s' });
    assert.deepEqual(topology.leaders, { scheduler: 'cp-1', controllerManager: 'cp-1' });
  });

  it('kubeadm HA: three control-plane nodes, three stacked etcd members, three endpoints', () => {
    const names = ['cp-a', 'cp-b', 'cp-c'];
    const topology = detectTopology(
      resources([
        ...names.map((n) => node(n, controlPlaneLabel, { taints: controlPlaneTaint })),
        node('worker-1'),
        ...names.flatMap((n) => [staticPod('kube-apiserver', n), staticPod('etcd', n)]),
        kubernetesSlice(['10.0.0.1', '10.0.0.2', '10.0.0.3']),
        ...names.map(identityLease),
        kubeadmConfig('controlPlaneEndpoint: k8s-api.example.internal:6443\netcd:\n  local:\n    dataDir: /var/lib/etcd\n'),
      ]),
    );
    assert.equal(topology.controlPlaneCount, 3);
    assert.deepEqual(topology.controlPlaneNodes, names);
    assert.equal(topology.etcd.mode, 'stacked');
    assert.equal(topology.etcd.members, 3);
    assert.equal(topology.controlPlaneEndpoint, 'k8s-api.example.internal:6443');
    assert.ok(topology.evidence.includes('3 API server identity leases in kube-system'));
    assert.equal(topologyVerdict(topology), '3 control planes: etcd of 3 members survives the loss of 1.');
  });

  it('finds control-plane nodes by the legacy master taint alone', () => {
    const topology = detectTopology(resources([node('old-master', {}, { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] }), node('w')]));
    assert.deepEqual(topology.controlPlaneNodes, ['old-master']);
    assert.equal(topology.controlPlaneCount, 1);
  });

  it('external etcd from kubeadm-config, with an even member count flagged in the verdict', () => {
    const names = ['cp-a', 'cp-b', 'cp-c'];
    const topology = detectTopology(
      resources([
        ...names.map((n) => node(n, controlPlaneLabel)),
        ...names.map((n) => staticPod('kube-apiserver', n)),
        kubeadmConfig('controlPlaneEndpoint: lb.example:6443\netcd:\n  external:\n    endpoints:\n      - https://etcd-1:2379\n      - https://etcd-2:2379\n    caFile: /etc/kubernetes/pki/etcd/ca.crt\n'),
      ]),
    );
    assert.deepEqual(topology.etcd, { mode: 'external', members: 2, endpoints: ['https://etcd-1:2379', 'https://etcd-2:2379'] });
    assert.equal(topologyVerdict(topology), '3 control planes, but etcd of 2 members needs every one for a majority: losing any stops the API.');
  });

  it('leaves out a kubeadm-config far larger than kubeadm writes (parsing one of 40,000 keys held a 5 s read for 14 s)', () => {
    const padding = Array.from({ length: 6_000 }, (_, i) => `key${i}: value`).join('\n');
    const topology = detectTopology(resources([node('cp-a', controlPlaneLabel), kubeadmConfig(`controlPlaneEndpoint: lb.example:6443\n${padding}\n`)]));
    assert.ok(!topology.evidence.some((e) => e.includes('lb.example')), topology.evidence.join('\n'));
    const small = detectTopology(resources([node('cp-a', controlPlaneLabel), kubeadmConfig('controlPlaneEndpoint: lb.example:6443\n')]));
    assert.ok(small.evidence.some((e) => e.includes('lb.example')), small.evidence.join('\n'));
  });

  it('k3s: servers by role label, embedded etcd by the etcd role', () => {
    const server = (name: string) => node(name, { 'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true', 'node-role.kubernetes.io/etcd': 'true' }, { annotations: { 'k3s.io/node-args': '["server"]' }, kubeletVersion: 'v1.33.4+k3s1' });
    const topology = detectTopology(resources([server('k3s-1'), server('k3s-2'), server('k3s-3'), node('agent-1', {}, { annotations: { 'k3s.io/node-args': '["agent"]' } })]));
    assert.equal(topology.distribution, 'k3s');
    assert.equal(topology.controlPlaneCount, 3);
    assert.deepEqual(topology.etcd, { mode: 'stacked', members: 3 });

    const single = detectTopology(resources([node('k3s', { 'node-role.kubernetes.io/control-plane': 'true' }, { kubeletVersion: 'v1.33.4+k3s1' })]));
    assert.equal(single.etcd.mode, 'unknown');
    assert.ok(single.evidence.some((e) => e.includes('SQLite')));
  });

  it('kind: kubeadm inside docker, told by the kind:// provider ID', () => {
    const topology = detectTopology(
      resources([
        node('dev-control-plane', controlPlaneLabel, { taints: controlPlaneTaint, providerID: 'kind://docker/dev/dev-control-plane' }),
        node('dev-worker', {}, { providerID: 'kind://docker/dev/dev-worker' }),
        staticPod('kube-apiserver', 'dev-control-plane'),
        staticPod('etcd', 'dev-control-plane'),
      ]),
    );
    assert.equal(topology.distribution, 'kind');
    assert.equal(topology.controlPlaneCount, 1);
    assert.equal(topology.etcd.members, 1);
  });

  const managed: [string, 'GKE' | 'EKS' | 'AKS', object][] = [
    ['GKE', 'GKE', node('gke-pool-1-abc', { 'cloud.google.com/gke-nodepool': 'pool-1', 'cloud.google.com/gke-os-distribution': 'cos' }, { providerID: 'gce://proj/europe-west1-b/gke-pool-1-abc' })],
    ['EKS', 'EKS', node('ip-10-0-1-5.ec2.internal', { 'eks.amazonaws.com/nodegroup': 'ng-1', 'eks.amazonaws.com/capacityType': 'ON_DEMAND' }, { providerID: 'aws:///eu-west-1a/i-0abc' })],
    ['AKS', 'AKS', node('aks-nodepool1-123-vmss000000', { 'kubernetes.azure.com/cluster': 'MC_rg_aks_westeurope', 'kubernetes.azure.com/agentpool': 'nodepool1' }, { providerID: 'azure:///subscriptions/x/resourceGroups/y' })],
  ];
  for (const [title, provider, worker] of managed) {
    it(`${title}: a managed control plane, said so and not counted`, () => {
      const topology = detectTopology(resources([worker, kubernetesSlice(['34.1.2.3'], 443)]));
      assert.equal(topology.managed, provider);
      assert.equal(topology.etcd.mode, 'managed');
      assert.equal(topology.controlPlaneCount, undefined);
      assert.deepEqual(topology.controlPlaneNodes, []);
      assert.ok(topology.evidence.some((e) => e.startsWith(`managed control plane (${provider})`)));
      assert.equal(topologyVerdict(topology), `The control plane is managed by ${provider}: its redundancy is the provider's and cannot be seen from here.`);
    });
  }

  it('says the count is unknown when nothing shows the control plane', () => {
    const topology = detectTopology(resources([node('w1'), node('w2')]));
    assert.equal(topology.controlPlaneCount, undefined);
    assert.equal(topologyVerdict(topology), 'How many control planes there are cannot be told from what was read.');
    assert.ok(topology.evidence.some((e) => e.includes('unknown')));
  });

  it('says that an even etcd survives no more losses than one member fewer would', () => {
    const names = ['cp-a', 'cp-b', 'cp-c', 'cp-d'];
    const topology = detectTopology(
      resources([...names.map((n) => node(n, controlPlaneLabel)), ...names.flatMap((n) => [staticPod('kube-apiserver', n), staticPod('etcd', n)]), kubeadmConfig('etcd:\n  local:\n    dataDir: /var/lib/etcd\n')]),
    );
    assert.equal(topologyVerdict(topology), '4 control planes: etcd of 4 members survives the loss of 1, no more than 3 members would.');
  });

  it('writes an IPv6 API server endpoint in brackets before its port, and hands the addresses as they are listed', () => {
    const listed = resources([kubernetesSlice(['fd00::1', '10.0.0.2'])]);
    assert.deepEqual(detectTopology(listed).apiServerEndpoints, ['[fd00::1]:6443', '10.0.0.2:6443']);
    assert.deepEqual(apiServerAddresses(listed), ['fd00::1', '10.0.0.2']);
  });

  describe('the node-monitor grace period', () => {
    const controllerManager = (nodeName: string, container: object) => ({ ...staticPod('kube-controller-manager', nodeName), spec: { nodeName, containers: [{ name: 'kube-controller-manager', ...container }] } });
    const lease = (name: string, holderIdentity: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-system' }, spec: { holderIdentity } });
    const graceOf = (objects: object[]) => detectTopology(resources([node('cp-1', controlPlaneLabel), node('cp-2', controlPlaneLabel), ...objects])).nodeMonitorGrace;

    it('is read from the controller manager\'s flag, written with = or as the next word, the last one counting', () => {
      assert.deepEqual(graceOf([controllerManager('cp-1', { command: ['kube-controller-manager', '--node-monitor-grace-period=20s'], image: 'registry.k8s.io/kube-controller-manager:v1.30.1' })]), {
        seconds: 20,
        how: '--node-monitor-grace-period=20s in kube-controller-manager-cp-1',
      });
      assert.equal(graceOf([controllerManager('cp-1', { command: ['kube-controller-manager'], args: ['--node-monitor-grace-period', '1m30s', '--node-monitor-grace-period=45s'] })])?.seconds, 45);
      assert.equal(graceOf([controllerManager('cp-1', { command: ['kube-controller-manager', '--node-monitor-grace-period=1.5m'] })])?.seconds, 90);
    });

    it('takes the leader\'s flag where the instances disagree: its node controller is the one that acts', () => {
      const pods = [controllerManager('cp-1', { command: ['kube-controller-manager', '--node-monitor-grace-period=20s'] }), controllerManager('cp-2', { command: ['kube-controller-manager', '--node-monitor-grace-period=30s'] })];
      assert.equal(graceOf([...pods, lease('kube-controller-manager', 'cp-2_0b9e2d4f-8a61')])?.seconds, 30);
      assert.equal(graceOf(pods)?.seconds, 20);
    });

    it('is read from kubeadm\'s extraArgs, as a map (v1beta3) or a list (v1beta4), where no pod shows it', () => {
      assert.equal(graceOf([kubeadmConfig('controllerManager:\n  extraArgs:\n    node-monitor-grace-period: 25s\n')])?.seconds, 25);
      assert.equal(graceOf([kubeadmConfig('controllerManager:\n  extraArgs:\n  - name: node-monitor-grace-period\n    value: 35s\n')])?.seconds, 35);
    });

    it('is told by the version without a flag: 40 s before v1.32, 50 s since', () => {
      assert.deepEqual(graceOf([controllerManager('cp-1', { command: ['kube-controller-manager'], image: 'registry.k8s.io/kube-controller-manager:v1.31.4@sha256:0123' })]), {
        seconds: 40,
        how: 'no --node-monitor-grace-period flag; the image of kube-controller-manager-cp-1 is v1.31.4, whose default is 40 s',
      });
      assert.equal(graceOf([kubeadmConfig('kubernetesVersion: v1.32.0\n')])?.seconds, 50);
      // A value that is no duration is left for the version to tell.
      assert.equal(graceOf([controllerManager('cp-1', { command: ['kube-controller-manager', '--node-monitor-grace-period=soon'], image: 'kube-controller-manager:v1.29.0' })])?.seconds, 40);
    });

    it('is unknown where neither flags nor a version are seen', () => {
      assert.equal(graceOf([controllerManager('cp-1', { command: ['kube-controller-manager'], image: 'mirror.example/kcm:latest' })]), undefined);
      assert.equal(graceOf([]), undefined);
    });

    it('names the leaders from the leases\' holders, and none from a holder without a node', () => {
      const topology = detectTopology(resources([node('cp-1', controlPlaneLabel), lease('kube-scheduler', 'cp-1_1234'), lease('kube-controller-manager', 'no-underscore')]));
      assert.deepEqual(topology.leaders, { scheduler: 'cp-1', controllerManager: undefined });
    });
  });
});
