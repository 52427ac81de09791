import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeCluster, analyzeFile } from '../../server/src/rules/engine';
import { CLUSTER_AWARE_RULES as rules, cluster, fromObject, gpuNode, node } from '../cluster-fixtures';


const ODD_DOCUMENTS = [
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  template:\n    spec:\n      tolerations: yes\n      nodeSelector: [a, b]\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "x"}}}\n      containers:\n        - name: a\n          resources: {requests: {nvidia.com/gpu: lots, cpu: [1]}, limits: 7}\n',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  tolerations: [null, 3, {key: 5, operator: Weird}]\n  initContainers: {a: 1}\n  containers: [null, {resources: {limits: {nvidia.com/gpu: -1, amd.com/gpu: 1e2}}}]\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: g, operator: Gt, values: [a, b]}], matchFields: [{key: spec.x, operator: In}]}]}}}\n',
  'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes: "three"\n',
  'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes: [null, 1, {role: control-plane}]\n',
  'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrolPlaneEndpoint: 42\netcd: {external: {endpoints: {a: 1}}}\n',
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: coredns, namespace: kube-system}\nspec: {replicas: "two", template: []}\n',
  'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec: null\n',
];

const oddCluster = cluster([
  node('n1'),
  gpuNode('g1'),
  fromObject({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'broken' }, spec: { taints: 'none' }, status: { allocatable: 'lots' } }),
  fromObject({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'half' }, spec: { taints: [{ key: 'nvidia.com/gpu' }, null] }, status: { capacity: { 'nvidia.com/gpu': 'x', cpu: '2' } } }),
  fromObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } }, status: 'Running' }),
  fromObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'coredns', namespace: 'kube-system' }, spec: { replicas: 2, selector: { matchLabels: { 'k8s-app': 'kube-dns' } } } }),
]);

describe('cluster-aware rules on odd input', () => {
  for (const [i, text] of ODD_DOCUMENTS.entries()) {
    it(`document ${i + 1}: no rule trips, with and without a cluster`, () => {
      for (const info of [undefined, oddCluster]) {
        const inventory = new Inventory();
        if (info) inventory.setCluster(info.resources);
        const file = parseManifest('file:///odd.yaml', text);
        inventory.setFile(file);
        const internal = analyzeFile(file, inventory, { rules, cluster: info }).filter((f) => f.message.startsWith('Internal error'));
        assert.deepEqual(internal.map((f) => f.message), []);
      }
    });
  }

  it('odd nodes, pods and topology in the cluster itself', () => {
    const inventory = new Inventory();
    inventory.setCluster(oddCluster.resources);
    const findings = analyzeCluster(inventory, { cluster: { ...oddCluster, topology: { ...oddCluster.topology, controlPlaneCount: 1, etcd: { mode: 'stacked', members: 2 } } }, rules });
    assert.deepEqual(findings.filter((f) => f.message.startsWith('Internal error')).map((f) => f.message), []);
    assert.ok(findings.some((f) => f.ruleId === 'etcd-even-members'), 'the other rules still report');
  });
});
