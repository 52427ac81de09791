import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controlPlaneSingle } from '../../server/src/rules/control-plane-single';
import { cluster, clusterFindings, node } from '../cluster-fixtures';
import { ruleTester } from './rule-tester';

const kind = (nodes: string) => `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
${nodes}`;

const kubeadm = (extra: string) => `apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.33.0
${extra}networking:
  podSubnet: 10.244.0.0/16
`;

ruleTester(controlPlaneSingle, {
  valid: [
    { name: 'kind with three control-plane nodes', code: kind('nodes:\n- role: control-plane\n- role: control-plane\n- role: control-plane\n- role: worker\n') },
    { name: 'kubeadm with a controlPlaneEndpoint', code: kubeadm('controlPlaneEndpoint: "cluster-endpoint:6443"\n') },
    { name: 'a Deployment is not a cluster definition', code: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cluster\nspec: {}\n' },
    { name: 'the live cluster is not judged per file', code: kubeadm('controlPlaneEndpoint: lb:6443\n'), cluster: cluster([node('cp-1', { controlPlane: true })]) },
  ],
  invalid: [
    {
      name: 'kind with one control-plane node and workers: two more control-plane nodes, comments kept',
      code: kind('nodes:\n# the only control plane\n- role: control-plane\n  extraPortMappings:\n  - containerPort: 80\n    hostPort: 80\n- role: worker\n'),
      findings: [{ at: 'nodes', line: 3, severity: 'info', message: /^kind Cluster has 1 control-plane node: when it stops, the whole control plane stops\. The API server, scheduler, controllers and the only etcd member stop with that node: nothing is scheduled/ }],
      output: kind('nodes:\n# the only control plane\n- role: control-plane\n  extraPortMappings:\n  - containerPort: 80\n    hostPort: 80\n- role: worker\n- role: control-plane\n- role: control-plane\n'),
    },
    {
      name: 'kind without nodes creates one control-plane node: the fix lists three',
      code: kind('name: dev\n'),
      findings: [{ at: 'kind: Cluster', message: /^kind Cluster dev has 1 control-plane node: when it stops, the whole control plane stops\. It has no nodes list, so kind creates one\./ }],
      output: kind('name: dev\nnodes:\n  - role: control-plane\n  - role: control-plane\n  - role: control-plane\n'),
    },
    {
      name: 'a node without a role is a control-plane node (kind\'s default)',
      code: kind('nodes:\n- {}\n- role: worker\n'),
      findings: [{ at: 'nodes' }],
    },
    {
      name: 'kind whose `nodes` is a mapping, not a list: reported, but no fix replaces the mapping (comments and port mappings in it)',
      code: kind('nodes:\n  # the only control plane\n  control-plane:\n    extraPortMappings:\n    - containerPort: 80\n      hostPort: 80\n'),
      findings: [{ at: 'kind: Cluster', message: /^kind Cluster has 1 control-plane node: when it stops, the whole control plane stops\. Its `nodes` is not a list, so kind runs one\./ }],
      output: null,
    },
    {
      name: 'kind with an empty `nodes:`: the fix lists three',
      code: kind('nodes:\n'),
      findings: [{ at: 'kind: Cluster' }],
      output: kind('nodes:\n  - role: control-plane\n  - role: control-plane\n  - role: control-plane\n'),
    },
    {
      name: 'kubeadm without controlPlaneEndpoint: no fix, the endpoint cannot be guessed',
      code: kubeadm(''),
      findings: [{ at: 'kind: ClusterConfiguration', severity: 'warning', message: /^kubeadm ClusterConfiguration has no controlPlaneEndpoint: its control plane can never become HA\. .*kubeadm cannot add control-plane nodes later/ }],
      output: null,
    },
  ],
});

describe('control-plane-single on a live cluster', () => {
  it('one control-plane node: named, with the evidence, attached to the node', () => {
    const evidence = ['1 node with the control-plane role label or taint (cp-1)', 'kubeadm-config has no controlPlaneEndpoint: kubeadm cannot turn this control plane into an HA one'];
    const info = cluster([node('cp-1', { controlPlane: true }), node('w-1')], { name: 'lab', topology: { distribution: 'kubeadm', evidence } });
    const findings = clusterFindings(controlPlaneSingle, info);
    assert.deepEqual(
      findings.map((f) => [f.message, f.resource?.name, f.uri]),
      [
        [
          'Cluster lab has a single control plane (node cp-1): its loss stops the control plane. When it fails or reboots, nothing is scheduled, scaled, healed or rolled out until it is back, and a pod that dies is not replaced (1 node with the control-plane role label or taint (cp-1); kubeadm-config has no controlPlaneEndpoint: kubeadm cannot turn this control plane into an HA one).',
          'cp-1',
          null,
        ],
      ],
    );
  });

  it('several control planes but one API server endpoint', () => {
    const info = cluster([node('cp-1', { controlPlane: true }), node('cp-2', { controlPlane: true }), node('cp-3', { controlPlane: true })], { topology: { apiServerEndpoints: ['10.0.0.1'] } });
    assert.match(clusterFindings(controlPlaneSingle, info)[0].message, /has 3 control-plane instances but only 1 API server serving\. default\/kubernetes lists 1 endpoint \(10\.0\.0\.1\)/);
  });

  it('says nothing about a managed control plane, an HA one, or one it cannot count', () => {
    assert.deepEqual(clusterFindings(controlPlaneSingle, cluster([node('n')], { topology: { managed: 'GKE', controlPlaneCount: undefined, apiServerEndpoints: ['34.1.2.3'] } })), []);
    assert.deepEqual(clusterFindings(controlPlaneSingle, cluster([1, 2, 3].map((i) => node(`cp-${i}`, { controlPlane: true })), { topology: { apiServerEndpoints: ['a', 'b', 'c'] } })), []);
    assert.deepEqual(clusterFindings(controlPlaneSingle, cluster([node('w-1')])), []);
  });
});
