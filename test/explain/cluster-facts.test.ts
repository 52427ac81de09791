import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resilienceCard } from '../../server/src/explain/card';
import { clusterFacts } from '../../server/src/explain/cluster-facts';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import type { ClusterInfo } from '../../server/src/cluster/types';
import { cluster, fromObject, gpuNode, node, pod } from '../cluster-fixtures';

const web = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx
`;

function factsFor(text: string, info: ClusterInfo): { lines: string[]; inventory: Inventory; workload: ReturnType<typeof parseManifest>['resources'][number] } {
  const inventory = new Inventory();
  inventory.setCluster(info.resources);
  const file = parseManifest('file:///web.yaml', text);
  inventory.setFile(file);
  return { lines: clusterFacts(file.resources[0], inventory, info), inventory, workload: file.resources[0] };
}

const liveWeb = fromObject({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
  status: { replicas: 3, readyReplicas: 2 },
});

describe('clusterFacts', () => {
  const nodes = [node('cp-1', { controlPlane: true }), node('w-1'), node('w-2'), gpuNode('gpu-1')];

  it('ready replicas from the live Deployment, the nodes of its ready pods, and where it could run', () => {
    const info = cluster([...nodes, liveWeb, pod('web-a', { labels: { app: 'web' }, nodeName: 'w-1' }), pod('web-b', { labels: { app: 'web' }, nodeName: 'w-1' }), pod('web-c', { labels: { app: 'web' }, nodeName: 'w-2', ready: false })], { name: 'prod' });
    assert.deepEqual(factsFor(web, info).lines, [
      'Ready replicas: 2 of 3 in cluster prod',
      'Nodes of its ready pods: w-1: 2 pods — all on one node: it dies with that node',
      'Could run: fits on 2 of 4 nodes: 1 tainted node-role.kubernetes.io/control-plane:NoSchedule without a toleration, 1 tainted nvidia.com/gpu=present:NoSchedule without a toleration (by capacity, not free room)',
    ]);
  });

  it('marks control-plane nodes', () => {
    const info = cluster([...nodes, pod('web-a', { labels: { app: 'web' }, nodeName: 'cp-1' }), pod('web-b', { labels: { app: 'web' }, nodeName: 'w-2' })]);
    assert.equal(factsFor(web, info).lines[1], 'Nodes of its ready pods: cp-1 (control plane): 1 pod, w-2: 1 pod');
    assert.equal(factsFor(web, info).lines[0], 'Ready pods: 2 of 2 matching its selector in cluster test');
  });

  it('says when the workload does not run there, or when pods or nodes could not be read', () => {
    assert.equal(factsFor(web, cluster(nodes)).lines[0], 'Not running in cluster test: no pod matches its selector');
    const blind = cluster([], { name: 'locked', missing: [{ resource: 'pods', reason: 'forbidden' }, { resource: 'nodes', reason: 'forbidden' }] });
    assert.deepEqual(factsFor(web, blind).lines, ['Pods could not be read from cluster locked (forbidden)', 'Could run: unknown, the nodes of cluster locked could not be read']);
  });

  it('appears in the resilience card under its own heading, and not without a cluster', () => {
    const info = cluster([...nodes, liveWeb], { name: 'prod' });
    const { inventory, workload } = factsFor(web, info);
    assert.match(resilienceCard(workload, inventory, [], info), /\*\*Live cluster\*\*\n\n- Ready replicas: 2 of 3 in cluster prod\n- Could run: fits on 2 of 4 nodes/);
    assert.doesNotMatch(resilienceCard(workload, inventory, []), /Live cluster/);
  });
});
