import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { collectGarbage } from '../collect-garbage';
import { parseManifest, resourceFromObject, type Resource } from '../../server/src/manifest/parse';

const deployment = (name: string, namespace = 'default', replicas: number | null = 3, labels = `app: ${name}`) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
${replicas === null ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels: {${labels}}
  template:
    metadata:
      labels: {${labels}}
    spec:
      containers: [{name: app, image: nginx}]
`;
const pdb = (name: string, namespace = 'default', selector = `app: ${name}`) =>
  `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}-pdb\n  namespace: ${namespace}\nspec:\n  maxUnavailable: 1\n  selector:\n    matchLabels: {${selector}}\n`;
const hpa = (name: string, target: string, min?: number, kind = 'Deployment') =>
  `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: ${name}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: ${kind}, name: ${target}}\n${min === undefined ? '' : `  minReplicas: ${min}\n`}  maxReplicas: 10\n`;
const scaledObject = (name: string, target: string, spec = '', annotations = '') =>
  `apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: ${name}\n${annotations ? `  annotations: {${annotations}}\n` : ''}spec:\n  scaleTargetRef: {name: ${target}}\n${spec}  triggers: [{type: cpu, metricType: Utilization, metadata: {value: "60"}}]\n`;
const service = (name: string, selector: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector: {${selector}}\n`;

function inventoryOf(files: Record<string, string>): Inventory {
  const inventory = new Inventory();
  for (const [uri, text] of Object.entries(files)) inventory.setFile(parseManifest(uri, text));
  return inventory;
}
const find = (inventory: Inventory, kind: string, name: string, namespace = 'default') => inventory.resources().find((r) => r.kind === kind && r.name === name && r.namespace === namespace)!;
const names = (resources: Resource[]) => resources.map((r) => r.name).sort();

describe('Inventory', () => {
  it('an open document replaces the same file read from disk', () => {
    const inventory = inventoryOf({ 'file:///w/app.yaml': deployment('old') });
    inventory.setFile(parseManifest('file:///w/app.yaml', deployment('new')));
    assert.deepEqual(names(inventory.ofKind('Deployment')), ['new']);
    inventory.removeFile('file:///w/app.yaml');
    assert.deepEqual(inventory.resources(), []);
  });

  it('cluster resources sit beneath manifests: the manifest wins for the same kind, namespace and name', () => {
    const inventory = inventoryOf({ 'file:///w/app.yaml': deployment('web', 'default', 5) });
    const fromCluster = (name: string, replicas: number) => resourceFromObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' }, spec: { replicas } })!;
    inventory.setCluster([fromCluster('web', 1), fromCluster('db', 1)]);
    assert.ok(inventory.hasCluster());
    assert.deepEqual(names(inventory.ofKind('Deployment')), ['db', 'web']);
    assert.equal(find(inventory, 'Deployment', 'web').object.spec.replicas, 5, 'the manifest, not the cluster copy');
    inventory.setCluster([]);
    assert.deepEqual(names(inventory.ofKind('Deployment')), ['web']);
  });

  it('pdbsSelecting: across files, only in the workload\'s namespace, by selector', () => {
    const inventory = inventoryOf({
      'file:///w/web.yaml': deployment('web') + '---\n' + deployment('web', 'shop'),
      'file:///w/pdbs.yaml': pdb('web') + '---\n' + pdb('other', 'default', 'app: other') + '---\n' + pdb('everything', 'default', ''),
      'file:///w/shop/pdb.yaml': pdb('shop-web', 'shop', 'app: web'),
    });
    assert.deepEqual(names(inventory.pdbsSelecting(find(inventory, 'Deployment', 'web'))), ['everything-pdb', 'web-pdb']);
    assert.deepEqual(names(inventory.pdbsSelecting(find(inventory, 'Deployment', 'web', 'shop'))), ['shop-web-pdb']);
    assert.deepEqual(names(inventory.workloadsSelectedBy(find(inventory, 'PodDisruptionBudget', 'web-pdb'))), ['web']);
  });

  describe('PDBs that pick pods of a StatefulSet out by the labels its controller gives them', () => {
    const db = deployment('db').replace('kind: Deployment', 'kind: StatefulSet');
    const byName = (pod: string) => pdb(pod, 'default', `statefulset.kubernetes.io/pod-name: ${pod}`);

    it('select that StatefulSet, and of its pods those they name: one of 3 for db-0, none for db-3', () => {
      const inventory = inventoryOf({ 'file:///w/db.yaml': db, 'file:///w/pdbs.yaml': [byName('db-0'), byName('db-3'), pdb('every', 'default', 'app: db')].join('---\n') });
      const dbZero = find(inventory, 'PodDisruptionBudget', 'db-0-pdb');
      assert.deepEqual(names(inventory.workloadsSelectedBy(dbZero)), ['db']);
      const { workloads, count, selected } = inventory.expectedPods(dbZero);
      assert.deepEqual({ workloads: workloads.map((w) => [w.workload.name, w.replicas.value, w.selected]), count, selected }, { workloads: [['db', 3, 1]], count: 3, selected: 1 });
      assert.deepEqual(names(inventory.workloadsSelectedBy(find(inventory, 'PodDisruptionBudget', 'db-3-pdb'))), []);
      assert.deepEqual(inventory.expectedPods(find(inventory, 'PodDisruptionBudget', 'every-pdb')).selected, 3);
      const statefulSet = find(inventory, 'StatefulSet', 'db');
      assert.deepEqual(names(inventory.pdbsSelecting(statefulSet)), ['every-pdb'], 'over every pod of it');
      assert.deepEqual(names(inventory.pdbsSelectingAnyPodOf(statefulSet)), ['db-0-pdb', 'every-pdb']);
    });

    it('a question about db-3 follows the HPA that sets the replica count: with minReplicas 4, db runs db-3', () => {
      const inventory = inventoryOf({ 'file:///w/db.yaml': db, 'file:///w/pdb.yaml': byName('db-3') });
      const guard = () => find(inventory, 'PodDisruptionBudget', 'db-3-pdb');
      assert.deepEqual(names(inventory.workloadsSelectedBy(guard())), []);
      const { reads } = inventory.recordReads(() => inventory.workloadsSelectedBy(guard()));
      inventory.setFile(parseManifest('file:///w/hpa.yaml', hpa('db', 'db', 4, 'StatefulSet')));
      assert.equal(inventory.unchangedSince(reads), false, 'the answer kept for the PDB was read again, and reads the HPAs too');
      assert.deepEqual(names(inventory.workloadsSelectedBy(guard())), ['db']);
    });
  });

  it('hpasTargeting: by kind and name in the same namespace', () => {
    const inventory = inventoryOf({
      'file:///w/web.yaml': deployment('web'),
      'file:///w/hpa.yaml': hpa('web-hpa', 'web', 2) + '---\n' + hpa('wrong-kind', 'web', 2, 'StatefulSet') + '---\n' + hpa('other', 'api', 2),
    });
    assert.deepEqual(names(inventory.hpasTargeting(find(inventory, 'Deployment', 'web'))), ['web-hpa']);
  });

  it('hpasTargeting: a KEDA ScaledObject counts as the HPA KEDA makes, its scaleTargetRef a Deployment of apps/v1 unless it says otherwise', () => {
    const inventory = inventoryOf({
      'file:///w/web.yaml': deployment('web'),
      'file:///w/keda.yaml': [
        scaledObject('web-keda', 'web', '  minReplicaCount: 3\n'),
        scaledObject('paused', 'web', '', '"autoscaling.keda.sh/paused": "true"'),
        scaledObject('refused', 'web', '  minReplicaCount: 5\n  maxReplicaCount: 3\n'),
        scaledObject('other', 'api'),
      ].join('---\n'),
    });
    const web = find(inventory, 'Deployment', 'web');
    assert.deepEqual(names(inventory.hpasTargeting(web)), ['web-keda'], 'not one paused, nor one KEDA refuses');
    assert.equal(inventory.scaleTargetOf(find(inventory, 'ScaledObject', 'web-keda')), web);
  });

  it('servicesFronting: a Service whose map selector matches the pod labels', () => {
    const inventory = inventoryOf({
      'file:///w/web.yaml': deployment('web', 'default', 3, 'app: web, tier: front'),
      'file:///w/svc.yaml': [service('web', 'app: web'), service('front', 'tier: front, app: web'), service('db', 'app: db'), service('manual', '')].join('---\n'),
    });
    assert.deepEqual(names(inventory.servicesFronting(find(inventory, 'Deployment', 'web'))), ['front', 'web']);
  });

  describe('effectiveReplicas', () => {
    const cases: { name: string; files: Record<string, string>; expected: { value: number; source: string; hpa?: string; heldBy?: string } }[] = [
      { name: 'spec.replicas', files: { 'a.yaml': deployment('web', 'default', 4) }, expected: { value: 4, source: 'spec' } },
      { name: 'replicas: 0 is a number, not the default', files: { 'a.yaml': deployment('web', 'default', 0) }, expected: { value: 0, source: 'spec' } },
      { name: 'no replicas field: the API default of 1', files: { 'a.yaml': deployment('web', 'default', null) }, expected: { value: 1, source: 'default' } },
      { name: 'an HPA in another file sets the floor', files: { 'a.yaml': deployment('web', 'default', 1), 'b.yaml': hpa('h', 'web', 3) }, expected: { value: 3, source: 'hpa', hpa: 'h' } },
      { name: 'an HPA without minReplicas: its default of 1', files: { 'a.yaml': deployment('web', 'default', 5), 'b.yaml': hpa('h', 'web') }, expected: { value: 1, source: 'hpa', hpa: 'h' } },
      { name: 'a KEDA ScaledObject sets the floor: its minReplicaCount', files: { 'a.yaml': deployment('web', 'default', null), 'b.yaml': scaledObject('k', 'web', '  minReplicaCount: 3\n  maxReplicaCount: 10\n') }, expected: { value: 3, source: 'hpa', hpa: 'k' } },
      { name: 'a ScaledObject without minReplicaCount: scaled to zero while idle', files: { 'a.yaml': deployment('web', 'default', 2), 'b.yaml': scaledObject('k', 'web') }, expected: { value: 0, source: 'hpa', hpa: 'k' } },
      { name: 'replicas: 0 under a ScaledObject: KEDA scales it back up to its minReplicaCount', files: { 'a.yaml': deployment('web', 'default', 0), 'b.yaml': scaledObject('k', 'web', '  minReplicaCount: 2\n') }, expected: { value: 2, source: 'hpa', hpa: 'k' } },
      { name: 'a paused ScaledObject scales nothing: spec.replicas counts', files: { 'a.yaml': deployment('web', 'default', 4), 'b.yaml': scaledObject('k', 'web', '  minReplicaCount: 2\n', '"autoscaling.keda.sh/paused": "true"') }, expected: { value: 4, source: 'spec' } },
      {
        name: "KEDA's paused-replicas holds it at its count, whatever its replicas and the ScaledObject's floor say",
        files: { 'a.yaml': deployment('web', 'default', 4), 'b.yaml': scaledObject('k', 'web', '  minReplicaCount: 3\n', '"autoscaling.keda.sh/paused-replicas": "2"') },
        expected: { value: 2, source: 'paused', heldBy: 'k' },
      },
      { name: 'paused-replicas holds a workload scaled to zero too', files: { 'a.yaml': deployment('web', 'default', 0), 'b.yaml': scaledObject('k', 'web', '', '"autoscaling.keda.sh/paused-replicas": "+3"') }, expected: { value: 3, source: 'paused', heldBy: 'k' } },
      { name: 'a paused-replicas of no count KEDA scales to ("-1") pauses it all the same: spec.replicas counts', files: { 'a.yaml': deployment('web', 'default', 4), 'b.yaml': scaledObject('k', 'web', '', '"autoscaling.keda.sh/paused-replicas": "-1"') }, expected: { value: 4, source: 'spec' } },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const inventory = inventoryOf(c.files);
        const replicas = inventory.effectiveReplicas(find(inventory, 'Deployment', 'web'));
        assert.deepEqual({ value: replicas.value, source: replicas.source, ...(replicas.hpa ? { hpa: replicas.hpa.name! } : {}), ...(replicas.heldBy ? { heldBy: replicas.heldBy.name! } : {}) }, c.expected);
      });
    }
    it('a DaemonSet has no replica count of its own', () => {
      const inventory = inventoryOf({ 'a.yaml': 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  replicas: 3\n' });
      assert.deepEqual(inventory.effectiveReplicas(find(inventory, 'DaemonSet', 'agent')), { value: 1, source: 'default' });
    });
  });

  it('workloadsSelectedBy skips cluster objects owned by a controller (counted through their owner)', () => {
    const inventory = new Inventory();
    const owned = resourceFromObject({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-abc', namespace: 'default', ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] }, spec: { template: { metadata: { labels: { app: 'web' } } } } })!;
    inventory.setCluster([owned]);
    inventory.setFile(parseManifest('a.yaml', `${deployment('web')}---\n${pdb('web')}`));
    assert.deepEqual(names(inventory.workloadsSelectedBy(find(inventory, 'PodDisruptionBudget', 'web-pdb'))), ['web']);
  });

  it('answers asked once per change follow the next change: a file set, a file removed, the cluster replaced', () => {
    const inventory = inventoryOf({ 'a.yaml': `${deployment('web')}---\n${pdb('web')}` });
    const guard = () => find(inventory, 'PodDisruptionBudget', 'web-pdb');
    assert.deepEqual(names(inventory.workloadsSelectedBy(guard())), ['web']);
    assert.deepEqual(names(inventory.podCarriersIn('default')), ['web']);
    inventory.setFile(parseManifest('b.yaml', deployment('web-canary', 'default', 1, 'app: web')));
    assert.deepEqual(names(inventory.workloadsSelectedBy(guard())), ['web', 'web-canary']);
    inventory.podCarriersIn('default').pop();
    assert.deepEqual(names(inventory.podCarriersIn('default')), ['web', 'web-canary'], 'a caller changing its copy changes nothing');
    inventory.removeFile('b.yaml');
    assert.deepEqual(names(inventory.podCarriersIn('default')), ['web']);
    assert.deepEqual(inventory.customResourcesIn('default'), []);
    inventory.setCluster([resourceFromObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'k8s', namespace: 'default' } })!]);
    assert.deepEqual(names(inventory.customResourcesIn('default')), ['k8s']);
  });

  it('podsOf: cluster pods matched by the workload selector', () => {
    const inventory = inventoryOf({ 'a.yaml': deployment('web') });
    const pod = (name: string, app: string) => resourceFromObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app } } })!;
    inventory.setCluster([pod('web-1', 'web'), pod('db-1', 'db')]);
    assert.deepEqual(names(inventory.podsOf(find(inventory, 'Deployment', 'web'))), ['web-1']);
  });
});

describe('the groups the inventory files resources under, as names and labels are typed', () => {
  it('stay as many however many names and labels were typed: each kept its group for good (10,000 keystrokes in a name held 8 MB more)', () => {
    const inventory = new Inventory();
    const typed = (i: number) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-${i}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web-${i}}}\n  template:\n    metadata: {labels: {app: web-${i}}}\n    spec: {containers: [{name: a, image: x}]}\n`;
    // Each version parsed from the one before, as after a keystroke (a cold parse would fill the parse cache).
    let file = parseManifest('file:///web.yaml', typed(-1));
    const heapAfter = (keystrokes: number, from: number) => {
      for (let i = from; i < from + keystrokes; i++) {
        file = parseManifest('file:///web.yaml', typed(i), file);
        inventory.setFile(file);
        // Asked about its name and labels, as the rules ask.
        const [web] = inventory.getFile('file:///web.yaml')!.resources;
        inventory.recordReads(() => [inventory.namedIn(web.namespace, `${web.name}-pdb`), inventory.pdbsSelecting(web)]);
      }
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const warm = heapAfter(5_000, 0);
    const grown = heapAfter(20_000, 5_000) - warm;
    assert.ok(grown < 2e6, `${(grown / 1e6).toFixed(1)} MB more after 20,000 more names and labels`);
  });
});

describe('the read log of an inventory', () => {
  /** How many names typed into a ConfigMap of a file of its own (each a group of its own) the inventory takes before an unrelated read recorded at the start is analysed again: its read log started afresh. */
  const keystrokesKept = (inventory: Inventory) => {
    const typed = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed-${i}\n`;
    let file = parseManifest('file:///typed.yaml', typed(0));
    inventory.setFile(file);
    const { reads } = inventory.recordReads(() => inventory.namedIn('elsewhere', 'unrelated'));
    let keystrokes = 0;
    while (inventory.unchangedSince(reads) && keystrokes < 30_000) {
      file = parseManifest('file:///typed.yaml', typed(++keystrokes), file);
      inventory.setFile(file);
    }
    return keystrokes;
  };
  const configMaps = (count: number) => Array.from({ length: count }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: big\n`);

  it('keeps 8 groups more for each resource of its files or of the cluster: beside 1,000 more, 8,000 more names are typed before it starts afresh (less the groups of those in files)', () => {
    const alone = keystrokesKept(new Inventory());
    assert.ok(alone > 4_000 && alone < 4_096 + 8, `${alone} names typed into an inventory of one resource`);
    const inFiles = keystrokesKept(inventoryOf({ 'file:///big.yaml': configMaps(1_000).join('---\n') }));
    // Their names are 1,000 groups more, and their namespace 2.
    assert.equal(inFiles, alone + 8_000 - 1_002, `names typed beside 1,000 resources in files (${alone} alone)`);
    const inCluster = new Inventory();
    inCluster.setCluster(configMaps(1_000).map((text) => parseManifest('file:///cluster.yaml', text).resources[0]));
    // The cluster's resources keep no group: a new view of the cluster moves every group at once.
    assert.equal(keystrokesKept(inCluster), alone + 8_000, `names typed beside 1,000 resources in the cluster (${alone} alone)`);
  });
});
