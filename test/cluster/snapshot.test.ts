import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { ClusterError } from '../../server/src/cluster/errors';
import { loadSnapshot, snapshotChunks, snapshotFromValue } from '../../server/src/cluster/snapshot';
import { Inventory } from '../../server/src/inventory/inventory';
import { tempDir } from './kubeconfig-fixtures';

const dir = tempDir('kr-snapshot-');

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function loadError(path: string): string {
  try {
    loadSnapshot(path);
  } catch (error) {
    assert.ok(error instanceof ClusterError);
    assert.equal(error.kind, 'snapshot');
    return error.message;
  }
  assert.fail('expected the snapshot to be refused');
}

describe('snapshots', () => {
  it('writes a v1 List whose items carry apiVersion and kind, and reads it back', () => {
    const demo = demoCluster();
    const missing = [{ resource: 'jobs', reason: 'forbidden (403)' }];
    const text = [...snapshotChunks(demo, { context: 'demo', takenAt: '2026-12-02T12:00:00Z', missing })].join('');
    const list = JSON.parse(text);
    assert.equal(list.apiVersion, 'v1');
    assert.equal(list.kind, 'List');
    assert.equal(list.items.length, demo.resources.length);
    assert.ok(list.items.every((item: { apiVersion?: string; kind?: string }) => item.apiVersion && item.kind));
    const loaded = loadSnapshot(write('round-trip.json', text));
    assert.equal(loaded.source, 'snapshot');
    assert.equal(loaded.name, 'demo', 'named after the context it was taken from');
    assert.deepEqual(loaded.missing, missing);
    assert.deepEqual(loaded.resources.map((r) => `${r.kind}/${r.namespace}/${r.name}`), demo.resources.map((r) => `${r.kind}/${r.namespace}/${r.name}`));
    assert.deepEqual(loaded.topology, demo.topology);
    assert.equal(loaded.readAt, Date.parse('2026-12-02T12:00:00Z'), 'read when it was taken');
  });

  it('reads what kubectl get -A -o json prints, dropping managedFields', () => {
    const kubectl = {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: [
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/control-plane': '' }, managedFields: [{ manager: 'kubelet' }] }, status: { images: [{ names: ['big'], sizeBytes: 1 }] } },
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2 } },
      ],
    };
    const loaded = loadSnapshot(write('kubectl.json', JSON.stringify(kubectl)));
    assert.deepEqual(loaded.resources.map((r) => `${r.kind}/${r.namespace}/${r.name}`), ['Node//n1', 'Deployment/shop/web']);
    assert.equal(loaded.resources[0].object.metadata.managedFields, undefined);
    assert.equal(loaded.resources[0].object.status.images, undefined);
    assert.equal(loaded.topology.controlPlaneCount, 1);
    assert.deepEqual(loaded.missing, []);
    assert.equal(loaded.name, join(dir, 'kubectl.json'), 'named by its path when it does not say where it came from');
    assert.equal(loaded.readAt, undefined, 'nor when');
  });

  it('keeps KEDA ScaledObjects, slimmed as a live read slims them, and the workloads they scale are counted as scaled', () => {
    const kubectl = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'worker', namespace: 'shop' }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'w' }] } } } },
        {
          apiVersion: 'keda.sh/v1alpha1',
          kind: 'ScaledObject',
          metadata: { name: 'worker', namespace: 'shop', annotations: { 'autoscaling.keda.sh/paused-replicas': '4' } },
          spec: { scaleTargetRef: { name: 'worker' }, minReplicaCount: 2, triggers: [{ type: 'redis', metadata: { address: 'redis:6379', password: 'hunter2' } }] },
        },
      ],
    };
    const loaded = loadSnapshot(write('keda.json', JSON.stringify(kubectl)));
    const text = [...snapshotChunks(loaded, { context: 'keda', takenAt: '2026-12-02T12:00:00Z', missing: [] })].join('');
    assert.doesNotMatch(text, /hunter2|triggers/);
    const again = loadSnapshot(write('keda-again.json', text));
    const inventory = new Inventory();
    inventory.setCluster(again.resources);
    const replicas = inventory.effectiveReplicas(again.resources.find((r) => r.kind === 'Deployment')!);
    assert.deepEqual({ value: replicas.value, source: replicas.source, heldBy: replicas.heldBy?.name }, { value: 4, source: 'paused', heldBy: 'worker' });
  });

  it('reads the items of a List inside the List (two kubectl outputs joined), which it dropped', () => {
    const inner = (kind: string, name: string) => ({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: kind === 'Node' ? 'v1' : 'apps/v1', kind, metadata: { name, namespace: kind === 'Node' ? undefined : 'shop' } }] });
    const loaded = loadSnapshot(write('joined.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [inner('Node', 'n1'), inner('Deployment', 'web')] })));
    assert.deepEqual(loaded.resources.map((r) => `${r.kind}/${r.namespace}/${r.name}`), ['Node//n1', 'Deployment/shop/web']);
  });

  it('reads kubectl -o yaml output too', () => {
    const loaded = loadSnapshot(write('kubectl.yaml', 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n'));
    assert.equal(loaded.resources[0].name, 'n1');
  });

  it('reads a file that starts with a byte-order mark, JSON or YAML, UTF-8 or UTF-16 (PowerShell writes those)', () => {
    const json = '{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}]}';
    const yaml = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n';
    for (const [name, text] of [['bom.json', json], ['bom.yaml', yaml]]) {
      const utf8 = join(dir, `utf8-${name}`);
      writeFileSync(utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
      assert.equal(loadSnapshot(utf8).resources[0].name, 'n1', utf8);
      const utf16 = join(dir, `utf16-${name}`);
      writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
      assert.equal(loadSnapshot(utf16).resources[0].name, 'n1', utf16);
    }
  });

  it('refuses bad files with the reason', () => {
    assert.match(loadError(join(dir, 'absent.json')), /cannot read snapshot .*absent\.json: no such file/);
    assert.match(loadError(write('empty.json', '  \n')), /snapshot .*empty\.json is empty/);
    assert.match(loadError(write('truncated.json', '{"apiVersion": "v1", "kind": "List", "items": [')), /is neither JSON nor YAML/);
    assert.match(loadError(write('twice.yaml', 'apiVersion: v1\nkind: List\nitems: []\nitems: []\n')), /twice\.yaml is neither JSON nor YAML: Map keys must be unique at line 4, column 1/);
    assert.match(loadError(write('deep.yaml', `kind: List\nitems:\n- ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`)), /snapshot .*deep\.yaml is nested too deeply to read/, 'not in JavaScript\'s words ("Maximum call stack size exceeded")');
    assert.match(loadError(write('no-items.json', '{"apiVersion": "v1", "kind": "List"}')), /has no "items" array \(expected a v1 List/);
    assert.match(loadError(write('array.json', '[1, 2]')), /is not a Kubernetes List object/);
    assert.match(loadError(write('manifest.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n')), /snapshot .*manifest\.yaml is a Deployment, not a List \(make one with "kube-resilience snapshot"/);
    assert.match(loadError(write('kindless.json', '{"kind": "List", "items": [{"metadata": {"name": "x"}}]}')), /item 0 has no apiVersion and kind/);
  });

  it('keeps of a snapshot\'s missing types only those it can say (a reason that was an object printed "[object Object]")', () => {
    const cluster = snapshotFromValue({ apiVersion: 'v1', kind: 'List', items: [], kubeResilience: { missing: [{ resource: 'pods', reason: 'forbidden (403)' }, { resource: 'nodes', reason: { why: 1 } }] } }, 's.json');
    assert.deepEqual(cluster.missing, [{ resource: 'pods', reason: 'forbidden (403)' }]);
  });

  it('refuses a snapshot of more objects than a live read takes (1.7 million ran the process out of memory), before making any a resource', () => {
    const item = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'y' } };
    assert.throws(
      () => snapshotFromValue({ apiVersion: 'v1', kind: 'List', items: new Array(1_000_001).fill(item) }, 'huge.json'),
      (error: ClusterError) => error.kind === 'snapshot' && /snapshot huge\.json holds 1,000,001 objects, more than the 1,000,000 a cluster read takes/.test(error.message),
    );
  });
});
