import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { loadSnapshot, snapshotChunks } from '../../server/src/cluster/snapshot';
import { isClusterSnapshot } from '../../server/src/manifest/cluster-snapshot';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { tempDir } from '../cluster/kubeconfig-fixtures';
import * as manifests from '../rules/manifests';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `kubectl get deploy,rs,pods -o json` prints: live objects with uid, resourceVersion and status. */
const KUBECTL_LIST = JSON.stringify({
  apiVersion: 'v1',
  kind: 'List',
  metadata: { resourceVersion: '' },
  items: [
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid: '1b6c', resourceVersion: '812', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } }, status: { replicas: 1, readyReplicas: 1 } },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-5d9f', namespace: 'shop', uid: '2c7d', resourceVersion: '813' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1' }] } } }, status: { replicas: 1 } },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-5d9f-x2k', namespace: 'shop', uid: '3d8e', resourceVersion: '820' }, spec: { containers: [{ name: 'web', image: 'web:1' }] }, status: { phase: 'Running' } },
  ],
}, null, 2);

/** A List written by hand to be applied: kubectl accepts it, and it is a manifest like any other. */
const HAND_WRITTEN_LIST = `apiVersion: v1\nkind: List\nitems:\n${manifests.deployment({ spec: '  replicas: 1\n' }).replace(/^(.)/gm, '    $1').replace(/^    /, '  - ')}`;

function ownSnapshotText(): string {
  return [...snapshotChunks(demoCluster(), { context: 'demo', takenAt: '2026-01-01T00:00:00Z', missing: [] })].join('');
}

describe('cluster snapshots among manifests', () => {
  it('recognises what kube-resilience snapshot writes and what kubectl get -o json prints', () => {
    assert.equal(isClusterSnapshot(JSON.parse(ownSnapshotText())), true);
    assert.equal(isClusterSnapshot(JSON.parse(KUBECTL_LIST)), true);
  });

  it('a List written by hand, a single live object, and non-objects are not snapshots', () => {
    const handWritten = parseManifest('file:///ws/list.yaml', HAND_WRITTEN_LIST);
    assert.equal(isClusterSnapshot(handWritten.documents[0].parsed.value), false);
    assert.equal(handWritten.clusterSnapshot, undefined);
    assert.deepEqual(handWritten.resources.map((r) => `${r.kind}/${r.name}`), ['Deployment/web']);
    assert.ok(analyzeFile(handWritten, new Inventory()).some((f) => f.ruleId === 'single-replica'), 'still analysed as manifests');
    const oneLiveObject = JSON.parse(KUBECTL_LIST).items[0];
    assert.equal(isClusterSnapshot(oneLiveObject), false, 'kubectl get deploy web -o yaml is edited and applied back');
    assert.equal(isClusterSnapshot({ kind: 'List', items: [] }), false, 'an empty List written by hand');
    for (const odd of [null, 3, 'List', [], { kind: 'List' }, { kind: 'List', items: 'x' }]) assert.equal(isClusterSnapshot(odd), false);
  });

  it('a snapshot file has no resources, no findings, and puts nothing in the inventory', () => {
    for (const [uri, text] of [['file:///ws/cluster.json', ownSnapshotText()], ['file:///ws/live.json', KUBECTL_LIST], ['file:///ws/live.yaml', KUBECTL_LIST]]) {
      const file = parseManifest(uri, text);
      assert.equal(file.clusterSnapshot, true, uri);
      assert.deepEqual(file.resources, []);
      const inventory = new Inventory();
      inventory.setFile(file);
      assert.deepEqual(analyzeFile(file, inventory), [], `${uri}: no findings about live pods and ReplicaSets`);
    }
  });

  it('the same file still loads as a cluster with --snapshot', () => {
    const path = join(tempDir('kr-snapshot-file-'), 'live.json');
    writeFileSync(path, KUBECTL_LIST);
    assert.deepEqual(loadSnapshot(path).resources.map((r) => r.kind), ['Deployment', 'ReplicaSet', 'Pod']);
  });
});
