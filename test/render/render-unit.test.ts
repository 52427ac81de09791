// Renders of charts and Kustomize roots are cached by what shapes them: every file of a chart's folder, but not
// version control's own files, which change with every `git status` when the chart is a repository's root.
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { renderUnit, type RenderSettings } from '../../server/src/render/render-unit';
import { findUnits } from '../../server/src/units/find-units';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { writeChart } from './helm-charts';
import { renderTools } from './render-tools';

const tools = renderTools();

describe('the render cache of a chart', { skip: tools.skip }, () => {
  const chart = writeChart({
    'Chart.yaml': 'apiVersion: v2\nname: chart\nversion: 0.1.0\n',
    'values.yaml': 'replicaCount: 1\n',
    'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  n: "{{ .Values.replicaCount }}"\n',
    'notes.txt': 'first\n',
    '.git/index': 'one\n',
  });
  const settings: RenderSettings = { trusted: true, extraPath: [tools.folder ?? ''].filter(Boolean) };
  const render = async () => {
    const [unit] = findUnits(findManifestFiles(chart)).units;
    const rendered = await renderUnit(unit, settings);
    assert.equal(rendered.kind, 'rendered');
    return rendered.kind === 'rendered' ? rendered.unit : undefined;
  };

  it('serves the render again while nothing of the chart changed, git\'s own files aside', async () => {
    const first = await render();
    writeFileSync(join(chart, '.git', 'index'), 'two, after a git status\n');
    mkdirSync(join(chart, '.git', 'refs'), { recursive: true });
    writeFileSync(join(chart, '.git', 'refs', 'HEAD'), 'x\n');
    assert.equal(await render(), first);
  });

  it('renders again when any other file of the chart changes, manifest or not', async () => {
    const first = await render();
    writeFileSync(join(chart, 'notes.txt'), 'second, longer\n');
    assert.notEqual(await render(), first);
  });

  it('renders again when a values file given outside the chart changes (its fix was served the render before it, and taken back)', async () => {
    const prod = join(chart, '..', 'prod-values.yaml');
    writeFileSync(prod, 'replicaCount: 1 # pinned\n');
    const [unit] = findUnits(findManifestFiles(chart)).units;
    const withProd = { ...settings, valuesFiles: [prod] };
    const first = await renderUnit(unit, withProd);
    writeFileSync(prod, 'replicaCount: 2 # pinned\n');
    const second = await renderUnit(unit, withProd);
    assert.ok(first.kind === 'rendered' && second.kind === 'rendered');
    assert.match(second.unit.text, /n: "2"/);
  });

  it('a chart refused for a link out of it renders once the link is gone (the refusal was served from the cache)', { skip: process.platform === 'win32' && 'links' }, async () => {
    symlinkSync('/etc/hostname', join(chart, 'outside.txt'));
    assert.match(String((await render())?.problems[0]?.message), /outside\.txt is a link to .*, outside the chart/);
    unlinkSync(join(chart, 'outside.txt'));
    assert.deepEqual((await render())?.problems, []);
  });
});

describe('a chart whose helm did not finish in time', { skip: process.platform === 'win32' }, () => {
  it('is rendered again next time, not served the timeout (it stayed until a file changed)', async () => {
    const chart = writeChart({ 'Chart.yaml': 'apiVersion: v2\nname: slow\nversion: 0.1.0\n', 'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
    const helm = join(chart, '..', 'slow-helm');
    writeFileSync(helm, '#!/bin/sh\nsleep 5\n');
    chmodSync(helm, 0o755);
    const [unit] = findUnits(findManifestFiles(chart)).units;
    const render = async () => {
      const rendered = await renderUnit(unit, { trusted: true, extraPath: [], helmPath: helm, timeoutMs: 200 });
      assert.equal(rendered.kind, 'rendered');
      return rendered.kind === 'rendered' ? rendered.unit : undefined;
    };
    const first = await render();
    assert.match(String(first?.problems[0]?.message), /did not finish within/);
    assert.notEqual(await render(), first);
  });
});

describe('a Kustomize root that builds on a remote base', () => {
  it('is not rendered (kustomize would fetch it at every render): skipped, saying which base and where it is named', async () => {
    const root = writeChart(
      {
        'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n  - https://github.com/stefanprodan/podinfo//kustomize?ref=6.7.0\n',
        'base/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n',
        'overlay/kustomization.yaml': 'resources:\n  - ../base\n',
      },
      'tree',
    );
    const overlay = findUnits(findManifestFiles(root)).units.find((u) => u.root.endsWith('overlay'))!;
    // No tool is named: nothing would be run, however it is configured.
    const result = await renderUnit(overlay, { trusted: true, kustomizePath: '/nonexistent/kustomize' });
    assert.deepEqual(result, { kind: 'skipped', reason: 'it builds on a remote base, https://github.com/stefanprodan/podinfo//kustomize?ref=6.7.0 (named in ../base/kustomization.yaml), which is not fetched: its files are read one by one' });
  });

  const skippedFor = async (kustomization: string, extra: Record<string, string> = {}) => {
    const root = writeChart({ 'kustomization.yaml': kustomization, 'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', ...extra }, 'root');
    const result = await renderUnit(findUnits(findManifestFiles(root)).units.find((u) => u.tool === 'kustomize')!, { trusted: true, kustomizePath: '/nonexistent/kustomize' });
    return result.kind === 'skipped' ? result.reason : result.kind;
  };

  it("so is one naming a base the way go-getter or scp writes it (kustomize ran git fetch for them)", async () => {
    for (const base of [
      'git::https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v3.3.1',
      'org-123@github.com:kubernetes-sigs/kustomize//examples/helloWorld',
      // Spellings kustomize's repospec takes too, which were read as local folders and fetched.
      'github.com:org/repo',
      'GitHub.com/org/repo',
      'GITHUB.COM:org/repo//deploy?ref=main',
      'git@example.com/org/repo.git',
      'gh:org/repo',
    ]) {
      assert.equal(await skippedFor(`resources:\n  - deployment.yaml\n  - "${base}"\n`), `it builds on a remote base, ${base} (named in kustomization.yaml), which is not fetched: its files are read one by one`);
    }
  });

  it('is not one naming local files and folders with an @ in their names (only a user name before a host and a path is a remote)', async () => {
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n';
    const local = await skippedFor('resources:\n  - deployment.yaml\n  - api@v2.yaml\n  - base@2/\n', { 'api@v2.yaml': deployment, 'base@2/kustomization.yaml': 'resources: []\n' });
    assert.doesNotMatch(local, /remote|network/, local);
  });

  it('so is one reading a patch, a generator file, a configuration, its OpenAPI schema or an inflated chart from a URL (each was fetched at every render)', async () => {
    for (const field of ['patches:\n  - path: http://127.0.0.1:9/p.yaml', 'patchesStrategicMerge:\n  - http://127.0.0.1:9/p.yaml', 'configurations:\n  - http://127.0.0.1:9/p.yaml', 'configMapGenerator:\n  - name: c\n    files:\n      - http://127.0.0.1:9/p.yaml', 'openapi:\n  path: http://127.0.0.1:9/p.yaml', 'helmCharts:\n  - name: p\n    repo: http://127.0.0.1:9/p.yaml']) {
      assert.equal(await skippedFor(`resources:\n  - deployment.yaml\n${field}\n`), 'it reads http://127.0.0.1:9/p.yaml (named in kustomization.yaml) from the network, which is not fetched: its files are read one by one', field);
    }
  });

  it("so is one inflating a chart from a repository (`chartRepoUrl` in the older form), unless the chart is in its chart folder already (kustomize pulls only then)", async () => {
    const said = 'it reads https://charts.example.com (named in kustomization.yaml) from the network, which is not fetched: its files are read one by one';
    assert.equal(await skippedFor('resources:\n  - deployment.yaml\nhelmChartInflationGenerator:\n  - chartName: redis\n    chartRepoUrl: https://charts.example.com\n'), said);
    const pulled = 'resources:\n  - deployment.yaml\nhelmCharts:\n  - name: redis\n    version: 1.0.0\n    repo: https://charts.example.com\n';
    assert.equal(await skippedFor(pulled), said);
    const chart = 'apiVersion: v2\nname: redis\nversion: 1.0.0\n';
    assert.notEqual(await skippedFor(pulled, { 'charts/redis-1.0.0/redis/Chart.yaml': chart }), said);
    assert.equal(await skippedFor(pulled, { 'charts/redis/Chart.yaml': chart }), said, 'with a repository and a version kustomize looks in charts/redis-1.0.0/redis only');
    assert.notEqual(await skippedFor(pulled.replace('helmCharts:', 'helmGlobals:\n  chartHome: vendor\nhelmCharts:').replace('    version: 1.0.0\n', ''), { 'vendor/redis/Chart.yaml': chart }), said);
    assert.equal(
      await skippedFor('resources:\n  - deployment.yaml\nhelmCharts:\n  - name: redis\n    valuesFile: http://127.0.0.1:9/values.yaml\n'),
      'it reads http://127.0.0.1:9/values.yaml (named in kustomization.yaml) from the network, which is not fetched: its files are read one by one',
    );
  });

  it("with plugins on, one inflating a chart that would be read outside its folder (kustomize's own helm follows its links)", { skip: process.platform === 'win32' && 'links' }, async () => {
    const root = writeChart({ 'kustomization.yaml': 'helmCharts:\n  - name: shop\n    releaseName: r\n', 'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n', 'charts/shop/templates/cm.yaml': 'kind: ConfigMap\n' }, 'root');
    symlinkSync('/etc/hostname', join(root, 'charts', 'shop', 'leak'));
    const unit = findUnits(findManifestFiles(root)).units.find((u) => u.tool === 'kustomize')!;
    const result = await renderUnit(unit, { trusted: true, enablePlugins: true, kustomizePath: '/nonexistent/kustomize' });
    assert.deepEqual(result, { kind: 'skipped', reason: `the chart it inflates from ${join('charts', 'shop')} would be read outside its folder: leak is a link to ${realpathSync('/etc/hostname')}, outside the chart, which helm would read; its files are read one by one` });
    assert.equal((await renderUnit(unit, { trusted: true, kustomizePath: '/nonexistent/kustomize' })).kind, 'missing', 'with plugins off kustomize inflates nothing');
  });

  it('so is one whose kustomization is in UTF-16 and names a remote base (read as UTF-8 it named nothing, and kustomize fetched the base)', async () => {
    const kustomization = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('resources:\n  - deployment.yaml\n  - https://github.com/example/base?ref=v1\n', 'utf16le')]);
    const root = writeChart({ 'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' }, 'root');
    writeFileSync(join(root, 'kustomization.yaml'), kustomization);
    const result = await renderUnit({ tool: 'kustomize', root, files: [join(root, 'kustomization.yaml'), join(root, 'deployment.yaml')] }, { trusted: true, kustomizePath: '/nonexistent/kustomize' });
    assert.deepEqual(result, { kind: 'skipped', reason: 'it builds on a remote base, https://github.com/example/base?ref=v1 (named in kustomization.yaml), which is not fetched: its files are read one by one' });
  });

  it('so is one whose kustomization does not parse here (kustomize took the last of two `resources:` keys, a remote one, and fetched it)', async () => {
    assert.equal(
      await skippedFor('resources:\n  - deployment.yaml\nresources:\n  - https://github.com/example/base?ref=v1\n'),
      'kustomization.yaml cannot be read (Map keys must be unique at line 3, column 1), so what it would have kustomize read is not known: its files are read one by one',
    );
  });

  it('so is one a transformer folder of which names a FIFO or a remote base, or a base whose kustomization is a FIFO (they held the render, or were fetched)', { skip: process.platform === 'win32' && 'no FIFOs' }, async () => {
    const fifoIn = (extra: Record<string, string>, fifo: string) => {
      const root = writeChart({ 'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n', ...extra }, 'root');
      execFileSync('mkfifo', [join(root, fifo)]);
      return root;
    };
    const render = async (root: string) => {
      const result = await renderUnit({ tool: 'kustomize', root, files: [join(root, 'kustomization.yaml')] }, { trusted: true, kustomizePath: '/nonexistent/kustomize' });
      return result.kind === 'skipped' ? result.reason : result.kind;
    };
    const transformer = fifoIn({ 'kustomization.yaml': 'resources:\n  - deployment.yaml\ntransformers:\n  - t\n', 't/kustomization.yaml': 'resources:\n  - conf.yaml\n' }, join('t', 'conf.yaml'));
    assert.equal(await render(transformer), `${join('t', 'conf.yaml')} (named in ${join('t', 'kustomization.yaml')}) is not a regular file (a FIFO or a device would hold the render): its files are read one by one`);
    const base = fifoIn({ 'kustomization.yaml': 'resources:\n  - deployment.yaml\n  - base\n', 'base/deployment.yaml': 'kind: ConfigMap\n' }, join('base', 'kustomization.yaml'));
    assert.equal(await render(base), `${join('base', 'kustomization.yaml')} cannot be read (not a regular file (a FIFO)), so what it would have kustomize read is not known: its files are read one by one`);
  });

  it('so is one whose inline generator or transformer configuration names a FIFO (it held the render for its whole timeout)', { skip: process.platform === 'win32' && 'no FIFOs' }, async () => {
    for (const [config, fifo] of [
      ['generators:\n  - |-\n    apiVersion: builtin\n    kind: ConfigMapGenerator\n    metadata:\n      name: g\n    files:\n      - key=data.txt\n', 'data.txt'],
      ['transformers:\n  - |-\n    apiVersion: builtin\n    kind: PatchTransformer\n    metadata:\n      name: p\n    path: patch.yaml\n', 'patch.yaml'],
    ]) {
      const root = writeChart({ 'kustomization.yaml': `resources:\n  - deployment.yaml\n${config}`, 'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' }, 'root');
      execFileSync('mkfifo', [join(root, fifo)]);
      const result = await renderUnit(findUnits(findManifestFiles(root)).units[0], { trusted: true, kustomizePath: '/nonexistent/kustomize' });
      assert.deepEqual(result, { kind: 'skipped', reason: `${fifo} (named in kustomization.yaml) is not a regular file (a FIFO or a device would hold the render): its files are read one by one` }, config);
    }
  });

  it('so is one whose generator or transformer configuration file names a FIFO or a URL (only inline ones were read: the FIFO held the render, the URL was fetched)', { skip: process.platform === 'win32' && 'no FIFOs' }, async () => {
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';
    for (const [list, config, named] of [
      ['generators', 'apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n  - key=data.txt\n', 'data.txt'],
      ['transformers', '---\napiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: p\npath: patch.yaml\n', 'patch.yaml'],
    ]) {
      const root = writeChart({ 'kustomization.yaml': `resources:\n  - deployment.yaml\n${list}:\n  - config.yaml\n`, 'config.yaml': config, 'deployment.yaml': deployment }, 'root');
      execFileSync('mkfifo', [join(root, named)]);
      const result = await renderUnit(findUnits(findManifestFiles(root)).units[0], { trusted: true, kustomizePath: '/nonexistent/kustomize' });
      assert.deepEqual(result, { kind: 'skipped', reason: `${named} (named in kustomization.yaml) is not a regular file (a FIFO or a device would hold the render): its files are read one by one` }, list);
    }
    const remote = writeChart({ 'kustomization.yaml': 'resources:\n  - deployment.yaml\ngenerators:\n  - config.yaml\n', 'config.yaml': 'apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n  - https://example.com/config.txt\n', 'deployment.yaml': deployment }, 'root');
    const result = await renderUnit(findUnits(findManifestFiles(remote)).units[0], { trusted: true, kustomizePath: '/nonexistent/kustomize' });
    assert.deepEqual(result, { kind: 'skipped', reason: 'it reads https://example.com/config.txt (named in kustomization.yaml) from the network, which is not fetched: its files are read one by one' });
  });

  it('but one whose generator configuration file names a regular file of its folder is rendered, with what the file holds', { skip: tools.skip }, async () => {
    const root = writeChart(
      {
        'kustomization.yaml': 'resources:\n  - deployment.yaml\ngenerators:\n  - config.yaml\n',
        'config.yaml': 'apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n  - key=data.txt\n',
        'data.txt': 'read from the folder\n',
        'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n',
      },
      'root',
    );
    const result = await renderUnit(findUnits(findManifestFiles(root)).units[0], { trusted: true, extraPath: [tools.folder ?? ''] });
    assert.equal(result.kind, 'rendered');
    const text = result.kind === 'rendered' ? result.unit.text : '';
    assert.match(text, /kind: ConfigMap\n/);
    assert.match(text, /key: \|\n\s+read from the folder\n/);
    assert.match(text, /kind: Deployment\n/);
  });

  it('so is one naming a FIFO (a render waited on it for its whole timeout)', { skip: process.platform === 'win32' && 'no FIFOs' }, async () => {
    const root = writeChart({ 'kustomization.yaml': 'resources:\n  - deployment.yaml\n  - pipe.yaml\n', 'deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n' }, 'root');
    execFileSync('mkfifo', [join(root, 'pipe.yaml')]);
    const result = await renderUnit(findUnits(findManifestFiles(root)).units[0], { trusted: true, kustomizePath: '/nonexistent/kustomize' });
    assert.deepEqual(result, { kind: 'skipped', reason: 'pipe.yaml (named in kustomization.yaml) is not a regular file (a FIFO or a device would hold the render): its files are read one by one' });
  });
});
