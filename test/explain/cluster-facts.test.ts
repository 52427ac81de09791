import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resilienceCard } from '../../server/src/explain/card';
import { liveLine } from '../../server/src/explain/cluster-facts';
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

function factsFor(text: string, info: ClusterInfo): { line: string; inventory: Inventory; workload: ReturnType<typeof parseManifest>['resources'][number] } {
  const inventory = new Inventory();
  inventory.setCluster(info.resources);
  const file = parseManifest('file:///web.yaml', text);
  inventory.setFile(file);
  return { line: liveLine(file.resources[0], inventory, info), inventory, workload: file.resources[0] };
}

const liveWeb = fromObject({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
  status: { replicas: 3, readyReplicas: 2 },
});

describe('liveLine', () => {
  const nodes = [node('cp-1', { controlPlane: true }), node('w-1'), node('w-2'), gpuNode('gpu-1')];

  it('ready replicas from the live Deployment, the nodes of its ready pods, and on how many nodes it could run', () => {
    const info = cluster([...nodes, liveWeb, pod('web-a', { labels: { app: 'web' }, nodeName: 'w-1' }), pod('web-b', { labels: { app: 'web' }, nodeName: 'w-1' }), pod('web-c', { labels: { app: 'web' }, nodeName: 'w-2', ready: false })], { name: 'prod' });
    assert.equal(factsFor(web, info).line, 'Live: 2/3 ready on w-1 — all on one node · fits on 2 of 4 nodes by capacity');
  });

  it('counts ready pods when there is no live workload, and marks control-plane nodes', () => {
    const info = cluster([...nodes, pod('web-a', { labels: { app: 'web' }, nodeName: 'cp-1' }), pod('web-b', { labels: { app: 'web' }, nodeName: 'w-2' })]);
    assert.equal(factsFor(web, info).line, 'Live: 2/2 pods ready on cp-1 (control plane), w-2 · fits on 2 of 4 nodes by capacity');
  });

  it('names three nodes and counts the others', () => {
    const many = ['w-1', 'w-2', 'w-3', 'w-4', 'w-5'];
    const info = cluster([...many.map((n) => node(n)), ...many.map((n, i) => pod(`web-${i}`, { labels: { app: 'web' }, nodeName: n }))]);
    assert.match(factsFor(web, info).line, /^Live: 5\/5 pods ready on w-1, w-2, w-3 \+2 more · /);
  });

  it('says when the workload does not run there, or when pods or nodes could not be read', () => {
    assert.equal(factsFor(web, cluster(nodes)).line, 'Live: not running, no pod matches its selector · fits on 2 of 4 nodes by capacity');
    const blind = cluster([], { name: 'locked', missing: [{ resource: 'pods', reason: 'forbidden' }, { resource: 'nodes', reason: 'forbidden' }] });
    assert.equal(factsFor(web, blind).line, 'Live: pods unreadable (forbidden) · nodes unreadable');
  });

  it('shows what the API answers as text: a ready count that is no number is none, a refusal\'s words no link (they planted a trusted command link)', () => {
    const planted = '[Click](command:kubeResilience.simulateWorkload?%5B%5D) ![px](https://attacker.example/p.png)';
    const odd = fromObject({ ...liveWeb.object, status: { replicas: 3, readyReplicas: planted } });
    assert.match(factsFor(web, cluster([...nodes, odd])).line, /^Live: 0\/3 ready · /);
    const refused = cluster([], { missing: [{ resource: 'pods', reason: `forbidden (403): ${planted}` }] });
    const line = factsFor(web, refused).line;
    assert.doesNotMatch(line, /(?<!\\)\]\(/, line);
    assert.match(line, /forbidden \\\(403\\\): \\\[Click\\\]/);
  });

  it('appears in the resilience card as one line, and not without a cluster', () => {
    const info = cluster([...nodes, liveWeb], { name: 'prod' });
    const { inventory, workload } = factsFor(web, info);
    assert.match(resilienceCard(workload, inventory, [], info), /\n\nLive: 2\/3 ready · fits on 2 of 4 nodes by capacity\n\n/);
    assert.doesNotMatch(resilienceCard(workload, inventory, []), /Live:/);
  });
});
