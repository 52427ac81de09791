import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { findUnits, findUnitsInSteps } from '../../server/src/units/find-units';
import { kustomizationsOf, readKustomization } from '../../server/src/units/kustomization';
import { pausesOf } from '../steps';

const dir = mkdtempSync(join(tmpdir(), 'find-units-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(dir, 'tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';

describe('findUnits', () => {
  const root = tree({
    'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
    'base/deployment.yaml': deployment,
    'overlays/prod/kustomization.yaml': 'namespace: prod\nresources:\n  - ../../base\n  - pdb.yaml\npatches:\n  - path: replicas.yaml\npatchesStrategicMerge:\n  - probes.yaml\ntransformers:\n  - labels.yaml\n',
    'overlays/prod/pdb.yaml': 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n',
    'overlays/prod/replicas.yaml': deployment + 'spec:\n  replicas: 4\n',
    'overlays/prod/probes.yaml': deployment,
    'overlays/prod/labels.yaml': 'apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: labels\n',
    'overlays/staging/Kustomization': 'resources:\n  - ../../base\n',
    'overlays/staging/notes.yaml': 'a: 1\n',
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 1.0.0\n',
    'charts/shop/values.yaml': 'replicaCount: 1\n',
    'charts/shop/templates/deployment.yaml': 'kind: Deployment\nreplicas: {{ .Values.replicaCount }}\n',
    'charts/shop/charts/redis/Chart.yaml': 'apiVersion: v2\nname: redis\nversion: 1.0.0\n',
    'charts/shop/charts/redis/values.yaml': 'x: 1\n',
    'plain/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n',
  });
  const units = findUnits(findManifestFiles(root));
  const rel = (p: string) => relative(root, p);

  it('follows a chain of 12,000 bases to its end, without overflowing the call stack (check crashed on it)', () => {
    const files: Record<string, string> = { 'chain/d12000/kustomization.yaml': 'resources:\n  - deployment.yaml\n', 'chain/d12000/deployment.yaml': deployment };
    for (let i = 0; i < 12_000; i++) files[`chain/d${i}/kustomization.yaml`] = `resources:\n  - ../d${i + 1}\n`;
    const chain = join(tree(files), 'chain');
    const { units } = findUnits(findManifestFiles(chain, 30_000));
    assert.deepEqual(units.map((u) => relative(chain, u.root)), ['d0']);
    assert.ok(units[0].files.includes(join(chain, 'd12000', 'deployment.yaml')), 'the last base\'s resource is among the root\'s files');
    assert.equal(kustomizationsOf(join(chain, 'd0')).length, 12_001);
  });

  it('in steps, pauses after each folder it looks into, and divides as at once', () => {
    const files = findManifestFiles(root);
    const { pauses, value } = pausesOf(findUnitsInSteps(files));
    const folders = new Set(files.map((f) => dirname(f))).size;
    assert.ok(pauses >= folders, `${pauses} pauses for ${folders} folders`);
    assert.deepEqual(value, units);
  });

  it('finds each chart (a subchart renders with its parent) and each Kustomize root (a base is none)', () => {
    assert.deepEqual(
      units.units.map((u) => [u.tool, rel(u.root)]),
      [
        ['helm', 'charts/shop'],
        ['kustomize', 'overlays/prod'],
        ['kustomize', 'overlays/staging'],
      ],
    );
  });

  it('renders the chart of a template named alone, or of its templates folder (it was a "not analysed" template)', () => {
    const template = join(root, 'charts', 'shop', 'templates', 'deployment.yaml');
    for (const files of [[template], findManifestFiles(join(root, 'charts', 'shop', 'templates'))]) {
      const alone = findUnits(files);
      assert.deepEqual(alone.units.map((u) => [u.tool, rel(u.root), u.files.map(rel)]), [['helm', 'charts/shop', ['charts/shop/templates/deployment.yaml']]]);
      assert.deepEqual(alone.plain, []);
    }
  });

  it('renders a vendored subchart named alone with the chart whose charts/ folder holds it (alone, it rendered without the values its parent gives it)', () => {
    const alone = findUnits([join(root, 'charts', 'shop', 'charts', 'redis', 'values.yaml')]);
    assert.deepEqual(alone.units.map((u) => [u.tool, rel(u.root), u.files.map(rel)]), [['helm', 'charts/shop', ['charts/shop/charts/redis/values.yaml']]]);
    assert.deepEqual(alone.plain, []);
    const nested = tree({ 'top/Chart.yaml': 'apiVersion: v2\nname: top\nversion: 1.0.0\n', 'top/charts/mid/Chart.yaml': 'apiVersion: v2\nname: mid\nversion: 1.0.0\n', 'top/charts/mid/charts/low/Chart.yaml': 'apiVersion: v2\nname: low\nversion: 1.0.0\n', 'top/charts/mid/charts/low/values.yaml': 'x: 1\n' });
    assert.deepEqual(findUnits([join(nested, 'top', 'charts', 'mid', 'charts', 'low', 'values.yaml')]).units.map((u) => relative(nested, u.root)), ['top'], "a subchart's subchart, with the top chart");
  });

  it('renders the root of a patch or resource named alone in a folder of its own below the root (the patch was fixed as a plain manifest)', () => {
    const nested = tree({
      'overlay/kustomization.yaml': 'resources:\n  - ../base\n  - extra/pdb.yaml\n  - inner/below/x.yaml\npatches:\n  - path: patches/replicas.yaml\n  - path: deep/er/replicas.yaml\nconfigMapGenerator:\n  - name: settings\n    files:\n      - generated/settings.yaml\n',
      'overlay/deep/er/replicas.yaml': deployment,
      'overlay/generated/settings.yaml': 'a: 1\n',
      'overlay/inner/kustomization.yaml': 'resources: []\n',
      'overlay/inner/below/x.yaml': deployment,
      'overlay/patches/replicas.yaml': deployment,
      'overlay/extra/pdb.yaml': 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n',
      'overlay/unlisted/notes.yaml': 'a: 1\n',
    });
    const patch = findUnits([join(nested, 'overlay', 'patches', 'replicas.yaml')]);
    assert.deepEqual(patch.units.map((u) => [u.tool, relative(nested, u.root)]), [['kustomize', 'overlay']]);
    assert.deepEqual(patch.plain, []);
    assert.ok(patch.neverResources.has(join(nested, 'overlay', 'patches', 'replicas.yaml')));
    assert.deepEqual(findUnits([join(nested, 'overlay', 'extra', 'pdb.yaml')]).units.map((u) => relative(nested, u.root)), ['overlay']);
    assert.deepEqual(findUnits([join(nested, 'overlay', 'deep', 'er', 'replicas.yaml')]).units.map((u) => relative(nested, u.root)), ['overlay'], 'two folders down');
    assert.deepEqual(findUnits([join(nested, 'overlay', 'generated', 'settings.yaml')]).units.map((u) => relative(nested, u.root)), ['overlay'], "a generator's input");
    const past = findUnits([join(nested, 'overlay', 'inner', 'below', 'x.yaml')]);
    assert.deepEqual([past.units.map((u) => relative(nested, u.root)), past.plain], [['overlay'], []], 'past a nearer kustomization that names it not');
    const unlisted = findUnits([join(nested, 'overlay', 'unlisted', 'notes.yaml')]);
    assert.deepEqual([unlisted.units, unlisted.plain], [[], [join(nested, 'overlay', 'unlisted', 'notes.yaml')]], 'a file the kustomization names not is no part of it');
  });

  it('gives a root the files of its bases and patches, and a chart its subcharts', () => {
    const prod = units.units.find((u) => rel(u.root) === 'overlays/prod')!;
    assert.deepEqual(prod.files.map(rel).sort(), ['base/deployment.yaml', 'base/kustomization.yaml', 'overlays/prod/kustomization.yaml', 'overlays/prod/labels.yaml', 'overlays/prod/pdb.yaml', 'overlays/prod/probes.yaml', 'overlays/prod/replicas.yaml']);
    const chart = units.units.find((u) => u.tool === 'helm')!;
    assert.ok(chart.files.map(rel).includes('charts/shop/charts/redis/values.yaml'));
    assert.deepEqual(units.owned.get(join(root, 'base/deployment.yaml'))!.map((u) => rel(u.root)), ['overlays/prod', 'overlays/staging']);
  });

  it('a chart in another chart\'s folder but not under its charts/ is a chart of its own, whose files are its own only', () => {
    const nested = tree({
      'outer/Chart.yaml': 'apiVersion: v2\nname: outer\nversion: 1.0.0\n',
      'outer/values.yaml': 'replicaCount: 1\n',
      'outer/extras/inner/Chart.yaml': 'apiVersion: v2\nname: inner\nversion: 1.0.0\n',
      'outer/extras/inner/values.yaml': 'replicaCount: 1\n',
    });
    const found = findUnits(findManifestFiles(nested));
    const relNested = (p: string) => relative(nested, p);
    assert.deepEqual(found.units.map((u) => [relNested(u.root), u.files.map(relNested).sort()]), [
      ['outer', ['outer/Chart.yaml', 'outer/values.yaml']],
      ['outer/extras/inner', ['outer/extras/inner/Chart.yaml', 'outer/extras/inner/values.yaml']],
    ]);
  });

  it('never takes patches, kustomizations or transformer configs for resources', () => {
    assert.deepEqual([...units.neverResources].map(rel).sort(), ['base/kustomization.yaml', 'overlays/prod/kustomization.yaml', 'overlays/prod/labels.yaml', 'overlays/prod/probes.yaml', 'overlays/prod/replicas.yaml', 'overlays/staging/Kustomization']);
  });

  it('leaves the rest as plain manifests', () => {
    assert.deepEqual(units.plain.map(rel), ['overlays/staging/notes.yaml', 'plain/service.yaml']);
  });

  it('reads a broken kustomization without failing, and a folder of plain files has no unit', () => {
    const broken = tree({ 'kustomization.yaml': 'resources: [\n', 'a.yaml': deployment });
    assert.deepEqual(findUnits(findManifestFiles(broken)).units.map((u) => u.tool), ['kustomize']);
    const plain = tree({ 'a.yaml': deployment });
    assert.deepEqual(findUnits(findManifestFiles(plain)), { units: [], plain: [join(plain, 'a.yaml')], neverResources: new Set(), owned: new Map() });
  });

  it('kustomizations that name each other in a ring (or themselves) are each a root, so their build says what is wrong', () => {
    const ring = tree({ 'x/kustomization.yaml': 'resources:\n  - ../y\n  - a.yaml\n', 'x/a.yaml': deployment, 'y/kustomization.yaml': 'resources:\n  - ../x\n', 'self/kustomization.yaml': 'resources:\n  - .\n' });
    const found = findUnits(findManifestFiles(ring));
    assert.deepEqual(found.units.map((u) => [u.tool, relative(ring, u.root)]), [['kustomize', 'self'], ['kustomize', 'x']], 'x reaches y: one build of the ring tells');
    assert.deepEqual(found.plain, [], 'x/a.yaml is its root\'s, not a plain manifest');
  });

  it('reads no kustomization that is a FIFO (it would never end): it is an error, not a hang', { skip: process.platform === 'win32' }, () => {
    const fifo = tree({ 'a.yaml': deployment });
    execFileSync('mkfifo', [join(fifo, 'kustomization.yaml')]);
    assert.match(String(readKustomization(join(fifo, 'kustomization.yaml')).error), /not a regular file/);
    assert.deepEqual(findUnits(findManifestFiles(fifo)).units, []);
  });
});
