// Kustomize roots rendered by the real kubectl (Kustomize built in), findings placed on the base, patch or
// overlay line a person edits, and --fix writing files a second check finds clean.
import assert from 'node:assert/strict';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkUnits, fixUnits } from '../../server/src/commands/check-units';
import type { Io } from '../../server/src/commands/check';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { analyzeRenderedUnit, analyzeRenderedUnitInSteps, preferredSourceFix } from '../../server/src/render/analyze-unit';
import { patchedIn, renderKustomize, stripBuildMetadata } from '../../server/src/render/kustomize';
import { countingRunner } from './counting-runner';
import { renderTools } from './render-tools';
import { pausesOf } from '../steps';

const tools = renderTools();
const FIXTURE = join(__dirname, 'fixtures', 'kustomize-shop');
const PODINFO = ['../shared', '../../shared'].map((s) => join(s, 'corpus-rendered', 'podinfo', 'deploy')).find(existsSync);
const work = mkdtempSync(join(tmpdir(), 'kustomize-test-'));
const savedPath = process.env.PATH;
before(() => (process.env.PATH = [tools.folder, savedPath].filter(Boolean).join(delimiter)));
after(() => {
  process.env.PATH = savedPath;
  rmSync(work, { recursive: true, force: true });
});

const VALUES = { render: 'auto', values: [], set: [], release: 'release' };
const stderr: string[] = [];
const io: Io = { stdout: () => undefined, stderr: (t) => stderr.push(t), readStdin: () => Buffer.alloc(0), isTty: false, version: 'test' };

/** Writes `files` (paths relative to `tree`) with the folders they need. */
function writeTree(tree: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
}

/** Each finding as `file:line rule: message`, lines 1-based, files relative to the tree. */
/** The fixture's base Deployment as a base of its own (its files in a tree), and the name it carries. */
function fixtureBase(): { deployment: string; name: string; files: Record<string, string> } {
  const deployment = readFileSync(join(FIXTURE, 'base', 'deployment.yaml'), 'utf8');
  return { deployment, name: /^  name: (\S+)$/m.exec(deployment)![1], files: { 'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n', 'base/deployment.yaml': deployment } };
}

async function findingsOf(tree: string): Promise<string[]> {
  const { findings, plainPaths } = await checkUnits(findManifestFiles(tree), VALUES, io, {});
  return [
    ...findings.map((f) => `${relative(tree, f.uri!)}:${f.range!.start.line + 1} ${f.ruleId}: ${f.message}`),
    ...plainPaths.map((p) => `plain ${relative(tree, p)}`),
  ].sort();
}

describe('stripBuildMetadata', () => {
  it("takes kustomize's build annotations out of each document, as written otherwise, and says where each came from", () => {
    const stream = `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    alpha.config.kubernetes.io/transformations: |
      - configuredIn: ../shop/overlays/prod/kustomization.yaml
        configuredBy:
          apiVersion: builtin
          kind: PatchTransformer
      - configuredIn: ../shop/overlays/prod/kustomization.yaml
        configuredBy:
          apiVersion: builtin
          kind: NamespaceTransformer
    config.kubernetes.io/origin: |
      path: ../shop/base/deployment.yaml
  name: web
  namespace: prod
spec:
  replicas: 4
---
apiVersion: v1
kind: ConfigMap
metadata:
  annotations:
    config.kubernetes.io/origin: |
      configuredIn: ../shop/overlays/prod/kustomization.yaml
      configuredBy:
        apiVersion: builtin
        kind: ConfigMapGenerator
    team: payments
  name: settings
data:
  list: |
    - a
`;
    const wrapper = join(work, 'wrapper');
    const { text, origins } = stripBuildMetadata(stream, wrapper);
    assert.equal(
      text,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  replicas: 4\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    team: payments\n  name: settings\ndata:\n  list: |\n    - a\n',
    );
    assert.deepEqual(origins, [
      {
        kind: 'Deployment',
        name: 'web',
        path: join(work, 'shop', 'base', 'deployment.yaml'),
        configuredIn: undefined,
        transformations: [
          { kind: 'PatchTransformer', configuredIn: join(work, 'shop', 'overlays', 'prod', 'kustomization.yaml') },
          { kind: 'NamespaceTransformer', configuredIn: join(work, 'shop', 'overlays', 'prod', 'kustomization.yaml') },
        ],
      },
      { kind: 'ConfigMap', name: 'settings', path: undefined, configuredIn: join(work, 'shop', 'overlays', 'prod', 'kustomization.yaml'), transformations: [] },
    ]);
    assert.deepEqual(origins.map(patchedIn), [[join(work, 'shop', 'overlays', 'prod', 'kustomization.yaml')], []], 'the kustomizations whose patches changed each');
  });
});

describe('Kustomize roots, rendered', { skip: tools.skip }, () => {
  it('strips the build metadata and keeps each overlay namespace and replica count', async () => {
    const unit = await renderKustomize(join(FIXTURE, 'overlays', 'prod'));
    assert.deepEqual(unit.problems, []);
    assert.doesNotMatch(unit.text, /config\.kubernetes\.io/);
    assert.match(unit.text, /namespace: prod\nspec:\n  replicas: 4\n/);
  });

  it('works on the rendered stream through the runner it is given (a server runs it in slices), pausing after each document', async () => {
    const { run, seen } = countingRunner();
    const unit = await renderKustomize(join(FIXTURE, 'overlays', 'prod'), { run });
    const documents = unit.text.split(/^---$/m).length;
    assert.equal(seen.calls, 1);
    assert.ok(seen.pauses >= documents, `${seen.pauses} pauses for ${documents} documents`);
    assert.equal(unit.text, (await renderKustomize(join(FIXTURE, 'overlays', 'prod'))).text);
  });

  it('is analysed in steps as at once, with the parse it was analysed on', async () => {
    const unit = await renderKustomize(join(FIXTURE, 'overlays', 'prod'));
    const {
      pauses,
      value: { findings, file },
    } = pausesOf(analyzeRenderedUnitInSteps(unit));
    const placed = (list: typeof findings) => list.map((f) => `${relative(FIXTURE, f.uri!)}:${f.range!.start.line} ${f.ruleId}: ${f.message}`);
    assert.deepEqual(placed(findings), placed(analyzeRenderedUnit(unit)));
    assert.ok(findings.length > 0);
    assert.ok(pauses >= file!.documents.length + findings.length, `${pauses} pauses`);
    assert.equal(file!.text, unit.text);
  });

  it('places findings on the patch that sets the field, the base line, or the overlay file; none on a patch as a resource', async () => {
    assert.deepEqual(await findingsOf(FIXTURE), [
      'base/deployment.yaml:3 pdb-missing: Deployment staging/web: 2 replicas and no PDB: a drain may evict both pods at once. Rendered in overlays/staging. A node drain or an autoscaler scale-down evicts without limit; a PDB makes them take the pods one at a time.',
      'overlays/prod/pdb.yaml:2 pdb-unhealthy-pods-block: PodDisruptionBudget prod/web: a node drain can hang on its pods that are not ready. Its budget is minAvailable 3, and it has no unhealthyPodEvictionPolicy (IfHealthyBudget): a pod that runs but is not ready may be evicted only while enough other pods are healthy to meet the budget, so when a bad rollout or an outage leaves fewer healthy than that, a node drain hangs on the very pods that serve nothing.',
      'overlays/prod/replicas.yaml:7 replicas-not-spread: Deployment prod/web: all 4 pods may run on one node and go down with it. It runs 4 replicas. Nothing spreads them across nodes: when that node dies the workload is down until they are rescheduled. (from patch replicas.yaml)',
      'overlays/staging/replicas.yaml:6 replicas-not-spread: Deployment staging/web: both pods may run on one node and go down with it. It runs 2 replicas. Nothing spreads them across nodes: when that node dies the workload is down until they are rescheduled. (from patch replicas.yaml)',
      'plain envs/dev/deployment.yaml',
      'plain envs/dev/pdb.yaml',
      'plain envs/prod/deployment.yaml',
      'plain envs/prod/pdb.yaml',
    ]);
  });

  it('--fix adds a PDB file to the overlay that lacks one and patches what the base shares; a second check is clean', async () => {
    const tree = join(work, 'shop');
    cpSync(FIXTURE, tree, { recursive: true });
    const fixed = await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(fixed.applied, 4);
    assert.equal(readFileSync(join(tree, 'base', 'deployment.yaml'), 'utf8'), readFileSync(join(FIXTURE, 'base', 'deployment.yaml'), 'utf8'), 'a base two overlays deploy is left alone');
    assert.equal(
      readFileSync(join(tree, 'overlays', 'staging', 'kustomization.yaml'), 'utf8'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: staging\nresources:\n  - ../../base\n  - web-pdb.yaml\npatches:\n  - path: replicas.yaml\n  - path: web-deployment-patch.yaml\n',
    );
    assert.equal(
      readFileSync(join(tree, 'overlays', 'staging', 'web-pdb.yaml'), 'utf8'),
      'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web-pdb\nspec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels:\n      app: web\n',
    );
    assert.match(readFileSync(join(tree, 'overlays', 'prod', 'pdb.yaml'), 'utf8'), /      app: web\n  unhealthyPodEvictionPolicy: AlwaysAllow\n$/);
    assert.match(readFileSync(join(tree, 'overlays', 'prod', 'web-deployment-patch.yaml'), 'utf8'), /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      topologySpreadConstraints:\n/);
    assert.deepEqual((await findingsOf(tree)).filter((f) => !f.startsWith('plain')), []);
  });

  it('--fix edits a shared base itself when every overlay that deploys it wants the same change; else each overlay gets a patch', async () => {
    const PDB = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app: web\n';
    const overlay = (ns: string, extra = '') => `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ${ns}\nresources:\n  - ../../base\n${extra}`;
    const write = (tree: string, files: Record<string, string>) => {
      writeTree(tree, files);
    };
    const base = { 'base/kustomization.yaml': 'resources:\n  - pdb.yaml\n', 'base/pdb.yaml': `# the budget every environment shares\n${PDB}` };

    const agreed = join(work, 'agreed');
    write(agreed, { ...base, 'overlays/a/kustomization.yaml': overlay('a'), 'overlays/b/kustomization.yaml': overlay('b') });
    assert.equal((await fixUnits([agreed], () => findManifestFiles(agreed), VALUES, io, {})).applied, 1);
    assert.equal(readFileSync(join(agreed, 'base', 'pdb.yaml'), 'utf8'), `# the budget every environment shares\n${PDB}  unhealthyPodEvictionPolicy: AlwaysAllow\n`);
    assert.deepEqual(findManifestFiles(agreed).map((f) => relative(agreed, f)).sort(), ['base/kustomization.yaml', 'base/pdb.yaml', 'overlays/a/kustomization.yaml', 'overlays/b/kustomization.yaml']);
    assert.deepEqual(await findingsOf(agreed), []);

    const split = join(work, 'split');
    const policy = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  unhealthyPodEvictionPolicy: IfHealthyBudget\n';
    write(split, { ...base, 'overlays/a/kustomization.yaml': overlay('a'), 'overlays/b/kustomization.yaml': overlay('b'), 'overlays/c/kustomization.yaml': overlay('c', 'patches:\n  - path: policy.yaml\n'), 'overlays/c/policy.yaml': policy });
    await fixUnits([split], () => findManifestFiles(split), VALUES, io, {});
    assert.equal(readFileSync(join(split, 'base', 'pdb.yaml'), 'utf8'), `# the budget every environment shares\n${PDB}`, 'overlay c chose its policy: the base stays');
    assert.deepEqual(await findingsOf(split), []);
  });

  it('a base in one root\'s folder that another root deploys too, and ignores the rule for: --fix leaves it, and says why (it set replicas: 2 there, which the other root then rendered)', async () => {
    const tree = join(work, 'nested-base');
    const { deployment, files: base } = fixtureBase();
    writeTree(tree, {
      'x/kustomization.yaml': 'resources:\n  - base\n',
      'x/base/kustomization.yaml': base['base/kustomization.yaml'],
      'x/base/deployment.yaml': deployment,
      'y/kustomization.yaml': 'resources:\n  - ../x/base\ncommonAnnotations:\n  kube-resilience/ignore: single-replica\n',
    });
    const [single] = (await checkUnits(findManifestFiles(tree), VALUES, io, {})).findings.filter((f) => f.ruleId === 'single-replica');
    assert.equal(preferredSourceFix(single), undefined);
    assert.match(single.unwrittenFixes.map((u) => u.reason).join('\n'), /^x\/base\/deployment\.yaml is deployed by y too, which has no such finding/m);
    await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(readFileSync(join(tree, 'x', 'base', 'deployment.yaml'), 'utf8'), deployment);
    assert.doesNotMatch((await renderKustomize(join(tree, 'y'))).text, /replicas: 2/);

    // A third root with the finding makes it one finding of two roots: its fix still leaves the base alone.
    writeTree(tree, { 'z/kustomization.yaml': 'resources:\n  - ../x/base\n' });
    const [shared] = (await checkUnits(findManifestFiles(tree), VALUES, io, {})).findings.filter((f) => f.ruleId === 'single-replica');
    assert.match(shared.message, /Rendered in x and z\./);
    assert.equal(preferredSourceFix(shared), undefined);
    await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(readFileSync(join(tree, 'x', 'base', 'deployment.yaml'), 'utf8'), deployment);
  });

  it('a patch --fix adds names the namespace the base file writes (kustomize matched no resource without it, and the fix was taken back)', async () => {
    const tree = join(work, 'namespaced');
    writeTree(tree, {
      'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'base/web.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - {name: web, image: nginx:1.27, readinessProbe: {tcpSocket: {port: 80}}, resources: {requests: {memory: 64Mi}, limits: {memory: 64Mi}}}\n',
      'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n',
      'elsewhere/kustomization.yaml': 'resources:\n  - ../base\n',
    });
    const fixed = await fixUnits([join(tree, 'overlays', 'prod')], () => findManifestFiles(join(tree, 'overlays', 'prod')), VALUES, io, {});
    assert.deepEqual(fixed.failed, []);
    assert.match(readFileSync(join(tree, 'overlays', 'prod', 'web-deployment-patch.yaml'), 'utf8'), /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 2\n/);
    assert.deepEqual((await findingsOf(join(tree, 'overlays', 'prod'))).filter((f) => / single-replica: /.test(f)), []);
  });

  it('with a namePrefix in the overlay and a nameSuffix in its base: findings on the patch that sets the field, and --fix names what it writes as kustomize finds it', async () => {
    const tree = join(work, 'renamed');
    const files: Record<string, string> = {
      'base/kustomization.yaml': 'nameSuffix: -v1\nresources:\n  - deployment.yaml\n',
      'base/deployment.yaml': readFileSync(join(FIXTURE, 'base', 'deployment.yaml'), 'utf8'),
      'overlays/p/kustomization.yaml': 'namePrefix: p-\nresources:\n  - ../../base\npatches:\n  - path: replicas.yaml\n',
      'overlays/p/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-v1\nspec:\n  replicas: 3\n',
    };
    writeTree(tree, files);
    const overlay = join(tree, 'overlays', 'p');
    const before = await findingsOf(overlay);
    assert.ok(before.some((f) => f.startsWith('replicas.yaml:6 replicas-not-spread: Deployment p-web-v1:')), before.join('\n'));
    assert.ok(before.some((f) => f.startsWith('../../base/deployment.yaml:3 pdb-missing:') && f.includes(' Rendered in p. ')), 'the root named is named by its own name');
    await fixUnits([overlay], () => findManifestFiles(overlay), VALUES, io, {});
    assert.match(readFileSync(join(overlay, 'web-v1-deployment-patch.yaml'), 'utf8'), /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: web-v1\n/);
    assert.match(readFileSync(join(overlay, 'web-v1-pdb.yaml'), 'utf8'), /\n  name: web-v1-pdb\n/);
    const unit = await renderKustomize(overlay);
    assert.deepEqual(unit.problems, [], 'the overlay still builds');
    assert.match(unit.text, /name: p-web-v1-pdb\n/);
    assert.deepEqual((await findingsOf(overlay)).filter((f) => /replicas-not-spread|pdb-missing/.test(f)), []);
  });

  it('with a namePrefix and a nameSuffix in the overlay: the PDB --fix adds is named so that kustomize adds both once', async () => {
    const tree = join(work, 'suffixed');
    const { files: base } = fixtureBase();
    writeTree(tree, { ...base, 'prod/kustomization.yaml': 'namePrefix: prod-\nnameSuffix: -v2\nresources:\n  - ../base\nreplicas:\n  - name: web\n    count: 3\n' });
    const overlay = join(tree, 'prod');
    await fixUnits([overlay], () => findManifestFiles(overlay), VALUES, io, {});
    assert.match(readFileSync(join(overlay, 'web-pdb.yaml'), 'utf8'), /\n  name: web-pdb\n/);
    const unit = await renderKustomize(overlay);
    assert.match(unit.text, /name: prod-web-pdb-v2\n/);
    assert.deepEqual((await findingsOf(overlay)).filter((f) => /pdb-missing/.test(f)), []);
  });

  it('a JSON 6902 operation of a patch file that sets the count: the finding there, left, and said as what it is (it was "an inline patch in ops.yaml: a block of text in the kustomization")', async () => {
    const tree = join(work, 'operations');
    const { name, files: base } = fixtureBase();
    writeTree(tree, {
      ...base,
      'ops/kustomization.yaml': `resources:\n  - ../base\npatches:\n  - path: ops.yaml\n    target: {kind: Deployment, name: ${name}}\n`,
      'ops/ops.yaml': '- op: replace\n  path: /spec/replicas\n  value: 1\n',
    });
    const { findings } = await checkUnits(findManifestFiles(join(tree, 'ops')), VALUES, io, {});
    const single = findings.find((f) => f.ruleId === 'single-replica')!;
    assert.equal(`${relative(tree, single.uri!)}:${single.range!.start.line + 1}`, 'ops/ops.yaml:3');
    assert.match(single.message, /\(from a JSON 6902 operation in ops\.yaml\)/);
    assert.deepEqual(single.unwrittenFixes, [{ title: 'Run 2 replicas', reason: 'a JSON 6902 operation in ops/ops.yaml sets it, which this edit does not change' }]);
  });

  it('a `replicas:` entry and an inline patch are where the count is set: findings there, the entry\'s count fixed, the inline patch and the shared base left alone (the base was edited, to no effect)', async () => {
    const tree = join(work, 'setters');
    const { deployment, name, files: base } = fixtureBase();
    const files: Record<string, string> = {
      ...base,
      'counted/kustomization.yaml': `resources:\n  - ../base\nreplicas:\n  - name: ${name}\n    count: 1\n`,
      'inline/kustomization.yaml': `resources:\n  - ../base\npatches:\n  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata:\n        name: ${name}\n      spec:\n        replicas: 1\n`,
      'json6902/kustomization.yaml': `resources:\n  - ../base\npatches:\n  - target: {kind: Deployment, name: ${name}}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 1\n`,
    };
    writeTree(tree, files);
    const found = (await findingsOf(tree)).filter((f) => / single-replica: /.test(f)).map((f) => f.split(' ')[0]);
    assert.deepEqual(found, ['counted/kustomization.yaml:5', 'inline/kustomization.yaml:4', 'json6902/kustomization.yaml:5']);
    await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(readFileSync(join(tree, 'base', 'deployment.yaml'), 'utf8'), deployment, 'the shared base is left as it is');
    assert.match(readFileSync(join(tree, 'counted', 'kustomization.yaml'), 'utf8'), new RegExp(`replicas:\\n  - name: ${name}\\n    count: 2\\n`));
    assert.equal(readFileSync(join(tree, 'inline', 'kustomization.yaml'), 'utf8').startsWith(files['inline/kustomization.yaml'].split('patches:')[0]), true);
    assert.match(readFileSync(join(tree, 'inline', 'kustomization.yaml'), 'utf8'), /spec:\n        replicas: 1\n/, 'the inline patch is not edited');
    assert.deepEqual((await findingsOf(tree)).filter((f) => / single-replica: /.test(f)).map((f) => f.split(' ')[0]), ['inline/kustomization.yaml:4', 'json6902/kustomization.yaml:5']);
    // Why the inline patch's count is left: said with the finding, for the report and the editor.
    const { findings } = await checkUnits(findManifestFiles(join(tree, 'inline')), VALUES, io, {});
    const inline = findings.find((f) => f.ruleId === 'single-replica')!;
    assert.deepEqual(inline.sourceFixes.filter((fix) => fix.preferred), []);
    assert.deepEqual(inline.unwrittenFixes, [{ title: 'Run 2 replicas', reason: 'an inline patch in inline/kustomization.yaml sets it: a block of text in the kustomization, which this edit does not change' }]);
  });

  it('a finding several overlays share says, for each overlay whose fix cannot be written, which one and why, and offers the fix of one that can', async () => {
    const tree = join(work, 'shared-unwritten');
    const { files: base } = fixtureBase();
    // An anchored `patches:` list takes no new entry; the other overlay's does.
    writeTree(tree, { ...base, 'a/kustomization.yaml': 'resources:\n  - ../base\npatches: &p []\n', 'b/kustomization.yaml': 'resources:\n  - ../base\n' });
    const { findings } = await checkUnits(findManifestFiles(tree), VALUES, io, {});
    const single = findings.find((f) => f.ruleId === 'single-replica')!;
    assert.match(single.message, / Rendered in a and b\. /);
    const reason = 'in a, the kustomization\'s `patches:` is written in a form this edit does not add to';
    assert.deepEqual(single.unwrittenFixes, [{ title: 'Run 2 replicas', reason }, { title: 'Ignore single-replica for Deployment web', reason }]);
    // The other overlay's fix is offered all the same (it was the first overlay's, none, whichever sorted first).
    const fix = preferredSourceFix(single);
    assert.ok(fix, 'b\'s fix is offered');
    assert.ok([...fix.edits.edits.map((e) => e.path), ...fix.edits.creates.map((c) => c.path)].every((p) => p.startsWith(join(tree, 'b'))), fix.title);
  });

  it('a PDB written for a root selects by the pod labels as Kubernetes reads them: a label Go would read as a number is quoted', async () => {
    const tree = join(work, 'quoted-labels');
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {app: web, build: "0o17"}\n  template:\n    metadata:\n      labels: {app: web, build: "0o17"}\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n';
    writeTree(tree, { 'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n', 'base/deployment.yaml': deployment, 'prod/kustomization.yaml': 'resources:\n  - ../base\n' });
    const { findings } = await checkUnits(findManifestFiles(join(tree, 'prod')), VALUES, io, {});
    const created = preferredSourceFix(findings.find((f) => f.ruleId === 'pdb-missing')!)!.edits.creates[0].text;
    assert.match(created, /\n {6}build: "0o17"\n/, created);
  });

  it('a JSON 6902 patch file and a replacement are where the count is set: findings on the operation and the replacement, and no patch written over them (a replacement runs after every patch)', async () => {
    const tree = join(work, 'json-and-replacements');
    const { deployment, name, files: base } = fixtureBase();
    const files: Record<string, string> = {
      ...base,
      'ops/kustomization.yaml': `resources:\n  - ../base\npatchesJson6902:\n  - target: {group: apps, version: v1, kind: Deployment, name: ${name}}\n    path: scale.yaml\n`,
      'ops/scale.yaml': '# one replica in this environment, for now\n- op: replace\n  path: /spec/replicas\n  value: 1\n',
      'replaced/kustomization.yaml': `resources:\n  - ../base\n  - settings.yaml\nreplacements:\n  - source: {kind: ConfigMap, name: settings, fieldPath: data.replicas}\n    targets:\n      - select: {kind: Deployment, name: ${name}}\n        fieldPaths: [spec.replicas]\n`,
      'replaced/settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  annotations: {config.kubernetes.io/local-config: "true"}\ndata:\n  replicas: "1"\n',
    };
    writeTree(tree, files);
    const found = (await findingsOf(tree)).filter((f) => / single-replica: /.test(f));
    assert.deepEqual(found.map((f) => f.split(' ')[0]), ['ops/scale.yaml:4', 'replaced/kustomization.yaml:5']);
    assert.match(found[1], /\(from a replacement in kustomization\.yaml\)$/);
    await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(readFileSync(join(tree, 'base', 'deployment.yaml'), 'utf8'), deployment);
    for (const file of ['ops/kustomization.yaml', 'ops/scale.yaml', 'replaced/kustomization.yaml']) assert.equal(readFileSync(join(tree, file), 'utf8'), files[file], file);
  });

  it('of patches and patchesJson6902 setting one field, the JSON 6902 one is where it is set: kustomize applies it after', async () => {
    const tree = join(work, 'both-patches');
    const { name, files: base } = fixtureBase();
    writeTree(tree, {
      ...base,
      'ov/kustomization.yaml': `resources:\n  - ../base\npatchesJson6902:\n  - target: {kind: Deployment, name: ${name}}\n    path: one.yaml\npatches:\n  - target: {kind: Deployment, name: ${name}}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 3\n`,
      'ov/one.yaml': '- op: replace\n  path: /spec/replicas\n  value: 1\n',
    });
    assert.match((await renderKustomize(join(tree, 'ov'))).text, /replicas: 1\n/);
    assert.deepEqual((await findingsOf(tree)).filter((f) => / single-replica: /.test(f)).map((f) => f.split(' ')[0]), ['ov/one.yaml:3']);
  });

  it('a strategic merge patch file with a target is where its field is set, whatever name it writes; --fix sets it there', async () => {
    const tree = join(work, 'targeted-file');
    const { files: base, deployment } = fixtureBase();
    const overlay = 'resources:\n  - ../base\npatches:\n  - path: one-replica.yaml\n    target: {kind: Deployment, name: web}\n';
    const patch = '# one pod is enough before a release\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: any\nspec:\n  replicas: 1\n';
    writeTree(tree, {
      ...base,
      'base/deployment.yaml': deployment.replace('replicas: 1', 'replicas: 3'),
      'dev/kustomization.yaml': overlay,
      'dev/one-replica.yaml': patch,
      'qa/kustomization.yaml': overlay,
      'qa/one-replica.yaml': patch,
    });
    const found = (await findingsOf(tree)).filter((f) => / single-replica: /.test(f)).map((f) => f.split(' ')[0]);
    assert.deepEqual(found, ['dev/one-replica.yaml:7', 'qa/one-replica.yaml:7']);
    const fixed = await fixUnits([join(tree, 'dev'), join(tree, 'qa')], () => findManifestFiles(tree), VALUES, io, {});
    assert.deepEqual(fixed.failed, []);
    for (const overlay of ['dev', 'qa']) assert.equal(readFileSync(join(tree, overlay, 'one-replica.yaml'), 'utf8'), patch.replace('replicas: 1', 'replicas: 2'), overlay);
    assert.match(readFileSync(join(tree, 'base', 'deployment.yaml'), 'utf8'), /replicas: 3/);
  });

  it("a base finding of two overlays that each fix in their own files: one fix writes both (the first overlay's alone fixed one of them)", async () => {
    const tree = join(work, 'each-root');
    const { files: base } = fixtureBase();
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels:\n      app: web\n';
    writeTree(tree, {
      ...base,
      'base/deployment.yaml': base['base/deployment.yaml'].replace('replicas: 1', 'replicas: 2'),
      'a/kustomization.yaml': 'namespace: a\nresources:\n  - ../base\n',
      'b/kustomization.yaml': 'namespace: b\nresources:\n  - ../base\n',
      'd/kustomization.yaml': 'namespace: d\nresources:\n  - ../base\n  - pdb.yaml\n',
      'd/pdb.yaml': pdb,
    });
    const { findings } = await checkUnits(findManifestFiles(tree), VALUES, io, {});
    const missing = findings.filter((f) => f.ruleId === 'pdb-missing');
    assert.equal(missing.length, 1, missing.map((f) => f.message).join('\n'));
    const fix = preferredSourceFix(missing[0]);
    assert.deepEqual(fix?.edits.creates.map((c) => relative(tree, c.path)).sort(), ['a/web-pdb.yaml', 'b/web-pdb.yaml']);
    assert.deepEqual(fix?.edits.edits.map((e) => relative(tree, e.path)).sort(), ['a/kustomization.yaml', 'b/kustomization.yaml']);
    assert.match(fix!.title, /a\/kustomization\.yaml.*; .*b\/kustomization\.yaml/);
  });

  it('two fixes of one resource in an overlay go into one patch file of it (each fix wrote a patch file of its own: -2, -3)', async () => {
    const tree = join(work, 'one-patch');
    const { files: base } = fixtureBase();
    writeTree(tree, {
      ...base,
      'a/kustomization.yaml': 'namespace: a\nresources:\n  - ../base\n',
      'c/kustomization.yaml': 'namespace: c\nresources:\n  - ../base\nreplicas:\n  - {name: web, count: 3}\n',
    });
    const fixed = await fixUnits([join(tree, 'a')], () => findManifestFiles(join(tree, 'a')), VALUES, io, {});
    assert.deepEqual(fixed.failed, []);
    assert.deepEqual(readdirSync(join(tree, 'a')).filter((f) => f.includes('patch')), ['web-deployment-patch.yaml']);
    assert.match(readFileSync(join(tree, 'a', 'web-deployment-patch.yaml'), 'utf8'), /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  template:\n    spec:\n      topologySpreadConstraints:\n/);
    assert.deepEqual((await findingsOf(join(tree, 'a'))).filter((f) => / (single-replica|replicas-not-spread): /.test(f)), []);
  });

  it('a patch file whose target selects two Deployments: a fix editing it is unsafe, naming the other (a safe --fix of the web server ran a second Redis)', async () => {
    const tree = join(work, 'targeted-two');
    const { files: base, deployment } = fixtureBase();
    writeTree(tree, {
      'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n  - cache.yaml\n',
      'base/deployment.yaml': base['base/deployment.yaml'].replace('replicas: 1', 'replicas: 2'),
      'base/cache.yaml': deployment.replace('replicas: 1', 'replicas: 2').replace(/\bweb\b/g, 'cache').replace(/image: \S+/, 'image: redis:7'),
      'overlay/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: one-replica.yaml\n    target: {kind: Deployment}\n',
      'overlay/one-replica.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: any\nspec:\n  replicas: 1 # cost saving\n',
    });
    const { findings } = await checkUnits(findManifestFiles(join(tree, 'overlay')), VALUES, io, {});
    const single = (name: string) => findings.find((f) => f.ruleId === 'single-replica' && f.message.startsWith(`Deployment ${name} `))!;
    assert.equal(preferredSourceFix(single('web')), undefined, 'not applied by --fix');
    assert.equal(preferredSourceFix(single('web'), true)?.unsafe, 'it also changes Deployment cache: the same patch sets it');
    const fixed = await fixUnits([join(tree, 'overlay')], () => findManifestFiles(join(tree, 'overlay')), VALUES, io, {});
    assert.equal(fixed.applied, 0);
    assert.match(readFileSync(join(tree, 'overlay', 'one-replica.yaml'), 'utf8'), /replicas: 1 # cost saving/);
  });

  it('a patch targeting resources by label is where their field is set, and only theirs', async () => {
    const tree = join(work, 'by-label');
    const { files: base } = fixtureBase();
    writeTree(tree, {
      ...base,
      'api/kustomization.yaml': `resources:\n  - ../base\npatches:\n  - target: {kind: Deployment, labelSelector: "app in (web, shop)"}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 1\n`,
      'other/kustomization.yaml': `resources:\n  - ../base\npatches:\n  - target: {kind: Deployment, labelSelector: "app=cart"}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 1\n`,
    });
    const found = (await findingsOf(tree)).filter((f) => / single-replica: /.test(f)).map((f) => f.split(' ')[0]);
    assert.deepEqual(found, ['api/kustomization.yaml:5', 'base/deployment.yaml:9'], 'the app=cart patch selects nothing here: the base sets the count');
  });

  it('a field a component sets (a patch outside the root, shared by other roots) is not fixed there', async () => {
    const tree = join(work, 'component');
    const { name, files: base } = fixtureBase();
    const files: Record<string, string> = {
      ...base,
      'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - path: small.yaml\n',
      'comp/small.yaml': `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: 1\n`,
      'a/kustomization.yaml': 'resources:\n  - ../base\ncomponents:\n  - ../comp\n',
      // b deploys one replica on purpose, and says so.
      'b/kustomization.yaml': 'resources:\n  - ../base\ncomponents:\n  - ../comp\npatches:\n  - path: one.yaml\n',
      'b/one.yaml': `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  annotations:\n    kube-resilience/ignore: single-replica\n`,
    };
    writeTree(tree, files);
    assert.deepEqual((await findingsOf(tree)).filter((f) => / single-replica: /.test(f)).map((f) => f.split(' ')[0]), ['comp/small.yaml:6']);
    await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(readFileSync(join(tree, 'comp', 'small.yaml'), 'utf8'), files['comp/small.yaml'], 'the component b uses too is left as it is (b got 2 replicas)');
  });

  it('a root that cannot be built (a ring of bases): the error names the root by its own path, not as the temporary wrapper sees it', async () => {
    const ring = join(work, 'ring');
    mkdirSync(join(ring, 'x'), { recursive: true });
    mkdirSync(join(ring, 'y'), { recursive: true });
    writeFileSync(join(ring, 'x', 'kustomization.yaml'), 'resources:\n  - ../y\n');
    writeFileSync(join(ring, 'y', 'kustomization.yaml'), 'resources:\n  - ../x\n');
    const unit = await renderKustomize(join(ring, 'x'));
    const [problem] = unit.problems;
    assert.match(problem.message, /^kustomize could not build x: .*cycle detected/);
    assert.ok(problem.message.includes(`'${join(ring, 'x')}'`), problem.message);
    assert.doesNotMatch(problem.message, /'(\.\.\/)+[^']*ring\/x'/);
  });

  it('a patch file that is not there: the error is placed on the entry that names it', async () => {
    const root = join(work, 'missing-patch');
    writeTree(root, { ...fixtureBase().files, 'ov/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  # the replica count of this environment\n  - path: missing-patch.yaml\n' });
    const [problem] = (await renderKustomize(join(root, 'ov'))).problems;
    assert.deepEqual(problem.location, { path: join(root, 'ov', 'kustomization.yaml'), line: 4, character: 10 });
    assert.match(problem.message, /^kustomize could not build ov: .*missing-patch\.yaml: no such file or directory$/);
    // In a folder that is not there either (kustomize names the folder), and in a base.
    writeTree(root, { 'deep/kustomization.yaml': 'resources:\n  - ../base\npatches:\n  - path: patches/replicas.yaml\n', 'based/kustomization.yaml': 'resources:\n  - ../ov\n' });
    assert.deepEqual((await renderKustomize(join(root, 'deep'))).problems[0].location, { path: join(root, 'deep', 'kustomization.yaml'), line: 3, character: 10 });
    assert.deepEqual((await renderKustomize(join(root, 'based'))).problems[0].location, { path: join(root, 'ov', 'kustomization.yaml'), line: 4, character: 10 });
  });

  it("a failure quoting a generator's configuration over several lines is said whole (its last three lines left out what failed)", async () => {
    const root = join(work, 'inflates');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'kustomization.yaml'), 'helmCharts:\n  - name: podinfo\n    repo: https://stefanprodan.github.io/podinfo\n    version: 6.0.0\n    releaseName: web\n');
    const [problem] = (await renderKustomize(root)).problems;
    assert.match(problem.message, /^kustomize could not build inflates: error: .*trouble configuring builtin HelmChartInflationGenerator with config: .*must specify --enable-helm$/);
  });

  it('--fix writes no file through a link that leads outside the folders named', async () => {
    const tree = join(work, 'linked');
    cpSync(FIXTURE, tree, { recursive: true });
    const outside = join(work, 'outside-pdb.yaml');
    writeFileSync(outside, readFileSync(join(tree, 'overlays', 'prod', 'pdb.yaml'), 'utf8'));
    rmSync(join(tree, 'overlays', 'prod', 'pdb.yaml'));
    symlinkSync(outside, join(tree, 'overlays', 'prod', 'pdb.yaml'));
    const before = readFileSync(outside, 'utf8');
    await fixUnits([tree], () => findManifestFiles(tree), VALUES, io, {});
    assert.equal(readFileSync(outside, 'utf8'), before, 'the file outside the tree is untouched');
    assert.ok(lstatSync(join(tree, 'overlays', 'prod', 'pdb.yaml')).isSymbolicLink(), 'the link is still a link');
  });

  it('on podinfo: the overlays speak of their namespaces, the bases name the overlays, no patch or transformer config is a resource', { skip: PODINFO ? false : 'the shared podinfo tree is absent' }, async () => {
    const found = await findingsOf(PODINFO!);
    const onBases = found.filter((f) => f.startsWith('bases/'));
    assert.ok(onBases.length > 0);
    for (const finding of onBases) assert.match(finding, /\. Rendered in overlays\/dev, overlays\/production and overlays\/staging\. /);
    assert.ok(found.includes('bases/cache/deployment.yaml:2 single-replica: Deployment cache runs 1 pod: one node drain or node failure takes it offline. Rendered in overlays/dev, overlays/production and overlays/staging. With no replicas field (the default is 1), a node drain or node failure takes it offline until a replacement is scheduled and ready, and while the control plane is down it is not replaced at all.'), found.join('\n'));
    assert.deepEqual(found.filter((f) => /overlays\/\w+\/(labels|kustomization)\.yaml/.test(f)), []);
    assert.ok(found.some((f) => f.startsWith('plain webapp/')), 'plain manifests beside the roots are analysed as they are');
  });
});
