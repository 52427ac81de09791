import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etcdEvenMembers } from '../../server/src/rules/etcd-even-members';
import { cluster, clusterFindings, node } from '../cluster-fixtures';
import { ruleTester } from './rule-tester';

const kubeadm = (endpoints: string[]) => `apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
controlPlaneEndpoint: lb.example.com:6443
etcd:
  external:
    endpoints:
${endpoints.map((e) => `    - ${e}\n`).join('')}    caFile: /etc/kubernetes/pki/etcd/ca.crt
`;

ruleTester(etcdEvenMembers, {
  valid: [
    { name: 'three external members', code: kubeadm(['https://10.0.0.1:2379', 'https://10.0.0.2:2379', 'https://10.0.0.3:2379']) },
    { name: 'one external member (no redundancy, but not an even count)', code: kubeadm(['https://10.0.0.1:2379']) },
    { name: 'local etcd', code: 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\ncontrolPlaneEndpoint: lb:6443\netcd:\n  local:\n    dataDir: /var/lib/etcd\n' },
    { name: 'kind with three control planes', code: 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: control-plane\n- role: control-plane\n- role: worker\n' },
  ],
  invalid: [
    {
      name: 'four external endpoints: quorum 3, tolerates 1, like 3',
      code: kubeadm(['https://10.0.0.1:2379', 'https://10.0.0.2:2379', 'https://10.0.0.3:2379', 'https://10.0.0.4:2379']),
      findings: [
        {
          at: 'endpoints',
          message:
            'External etcd with 4 endpoints tolerates 1 failure, no more than 3 members would. Its quorum is 3: the extra member adds one more machine that can fail and one more vote every write waits for. Use an odd number (3 or 5).',
        },
      ],
      output: null,
    },
    {
      name: 'kind with two control planes: two stacked members tolerate no failure',
      code: 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: control-plane\n',
      findings: [{ at: 'nodes', message: /^kind Cluster with 2 control-plane nodes \(2 etcd members\) tolerates 0 failures, no more than 1 member would\. Its quorum is 2:/ }],
    },
  ],
});

describe('etcd-even-members on a live cluster', () => {
  it('reports the live member count with its endpoints', () => {
    const info = cluster([node('cp-1', { controlPlane: true })], { name: 'prod', topology: { etcd: { mode: 'external', members: 2, endpoints: ['https://e1:2379', 'https://e2:2379'] } } });
    assert.deepEqual(clusterFindings(etcdEvenMembers, info).map((f) => f.message), [
      'Cluster prod runs 2 external etcd members: it tolerates 0 failures, no more than 1 member would. Its quorum is 2: the extra member adds one more machine that can fail and one more vote every write waits for. Members: https://e1:2379, https://e2:2379.',
    ]);
  });

  it('says nothing for odd, unknown or managed etcd', () => {
    for (const etcd of [{ mode: 'stacked' as const, members: 3 }, { mode: 'unknown' as const, members: undefined }, { mode: 'managed' as const, members: undefined }]) {
      assert.deepEqual(clusterFindings(etcdEvenMembers, cluster([node('n')], { topology: { etcd } })), []);
    }
  });
});
