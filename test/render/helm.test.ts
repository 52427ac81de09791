import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseManifest } from '../../server/src/manifest/parse';
import { workloadSelector } from '../../server/src/manifest/workload';
import { pdbFor } from '../../server/src/rules/pdb-missing';
import { analyzeRenderedUnit, preferredSourceFix } from '../../server/src/render/analyze-unit';
import { renderHelmChart, type HelmRenderOptions } from '../../server/src/render/helm';
import { MAX_RENDERED_DOCUMENTS } from '../../server/src/render/render-bounds';
import {
  applySourceEdits,
  autoscaledChart,
  sharedReplicasChart,
  conditionalPdbChart,
  copyChart,
  hooksChart,
  missingDependencyChart,
  placedFindings,
  renderErrorChart,
  requiredChart,
  rangeChart,
  subchartChart,
  aliasedSubchartChart,
  twoDocumentChart,
  commentedLiteralsChart,
  deploymentAboveServiceChart,
  valuesLimitChart,
  writeChart,
  type PlacedFinding,
} from './helm-charts';
import { countingRunner } from './counting-runner';
import { renderTools } from './render-tools';

const tools = renderTools();
// The real chart beside the project (or beside the folder of its worktrees).
const PODINFO = resolve([join('..', 'shared'), join('..', '..', 'shared')].map((dir) => join(dir, 'corpus-rendered', 'podinfo', 'charts', 'podinfo')).find((dir) => existsSync(dir)) ?? 'no-podinfo-chart');
const render = (chart: string, options: Partial<HelmRenderOptions> = {}) => renderHelmChart(chart, { helm: tools.helm, ...options });
const table = (findings: PlacedFinding[]) => findings.map((f) => [f.rule, f.at, f.values ?? '-'].join(' '));
const only = (findings: PlacedFinding[], rule: string) => findings.filter((f) => f.rule === rule);
/** A chart of one Deployment (`web`, its replicas from `replicaCount`) and the files given. */
const webChart = (files: Record<string, string>) => writeChart({ 'Chart.yaml': autoscaledChart['Chart.yaml'], 'templates/web.yaml': autoscaledChart['templates/web.yaml'], ...files });

describe('Helm charts rendered with the real helm', { skip: tools.skip }, () => {
  describe('podinfo (a real chart)', { skip: !existsSync(PODINFO) && 'the podinfo chart is not present' }, () => {
    it('with its values.yaml: findings on the template and values lines that wrote them', async () => {
      const unit = await render(PODINFO);
      assert.deepEqual(unit.problems, []);
      const findings = placedFindings(unit);
      assert.deepEqual(table(findings.filter((f) => !f.at.startsWith('templates/tests/'))), [
        'single-replica templates/deployment.yaml:10 values.yaml:3',
        'memory-unbounded templates/deployment.yaml:202 values.yaml:269',
      ]);
      const single = only(findings, 'single-replica')[0];
      assert.equal(single.origin, 'values key replicaCount in values.yaml');
      assert.match(single.message, /^Deployment release-podinfo runs 1 pod: one node drain or node failure takes it offline\. With replicas: 1,/);
    });

    it('with values-prod.yaml, a namespace and a release name: the prod file is the values file in use', async () => {
      const unit = await render(PODINFO, { valuesFiles: [join(PODINFO, 'values-prod.yaml')], namespace: 'shop', release: 'web' });
      const findings = placedFindings(unit);
      assert.deepEqual(table(findings.filter((f) => f.rule !== 'memory-unbounded')), [
        'single-replica templates/redis/deployment.yaml:3 -',
        'hpa-min-one templates/hpa.yaml:14 values-prod.yaml:4',
      ]);
      assert.match(only(findings, 'hpa-min-one')[0].message, /HorizontalPodAutoscaler shop\/web-podinfo scales to 1 pod: .* With minReplicas 1,/);
    });

    it('--set wins over the files: the finding stays on the template, with no values line to edit', async () => {
      const unit = await render(PODINFO, { set: ['replicaCount=1'] });
      const single = only(placedFindings(unit), 'single-replica')[0];
      assert.equal(single.at, 'templates/deployment.yaml:10');
      assert.equal(single.values, undefined);
      const reasons: string[] = [];
      assert.equal(unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }], (reason) => reasons.push(reason)), undefined);
      assert.deepEqual(reasons, ['values key replicaCount is set with --set: change it where --set is given']);
    });

    it('a fix no edit of the template carries out says why: a line inside a `block`, a key written on one line as `{}`, a line holding another action', async () => {
      const chart = copyChart(PODINFO);
      const path = join(chart, 'templates', 'deployment.yaml');
      const template = readFileSync(path, 'utf8');
      writeFileSync(path, template.replace('  {{- if not .Values.hpa.enabled }}', '  {{- block "podinfo.replicas" . }}').replace('metadata:\n', 'metadata:\n  annotations: {}\n'));
      const unit = await render(chart, { set: ['hpa.enabled=true'] });
      const conflict = only(placedFindings(unit), 'hpa-replicas-conflict')[0];
      const reasons: string[] = [];
      const tell = (reason: string) => reasons.push(reason);
      assert.equal(unit.mapper.translateFix(conflict.document, [{ kind: 'remove', path: ['spec', 'replicas'] }], tell), undefined);
      assert.equal(unit.mapper.translateFix(conflict.document, [{ kind: 'set', path: ['metadata', 'annotations', 'note'], value: 'x' }], tell), undefined);
      // A line holding an action more than its field's: no values key is traced through it.
      const other = copyChart(PODINFO);
      const otherPath = join(other, 'templates', 'deployment.yaml');
      writeFileSync(otherPath, readFileSync(otherPath, 'utf8').replace('  {{- if not .Values.hpa.enabled }}\n  replicas: {{ .Values.replicaCount }}\n  {{- end }}', '  replicas: {{ .Values.replicaCount }} {{/* counted */}}'));
      const otherUnit = await render(other, { set: ['hpa.enabled=true'] });
      assert.equal(otherUnit.mapper.translateFix(only(placedFindings(otherUnit), 'hpa-replicas-conflict')[0].document, [{ kind: 'remove', path: ['spec', 'replicas'] }], tell), undefined);
      assert.deepEqual(reasons, [
        'templates/deployment.yaml writes it inside a `define` or `block`, where the condition to keep it could not name the chart\'s values',
        'templates/deployment.yaml writes annotations on one line (`{}`), below which no key can be added',
        'templates/deployment.yaml writes replicas from no values key this can trace (a line of one action does), and no other template line is removed',
      ]);
    });

    it('test pods and hooks are not asked for replicas, probes or budgets', async () => {
      const findings = placedFindings(await render(PODINFO));
      const aboutTests = findings.filter((f) => f.at.startsWith('templates/tests/'));
      assert.ok(aboutTests.length > 0, 'the test pods are analysed');
      assert.deepEqual([...new Set(aboutTests.map((f) => f.rule))], ['memory-unbounded']);
    });

    it('fixes: replicas in values.yaml (comments kept), then a PDB template using the chart\'s selector helper that steps aside once the chart\'s own budget is turned on; a re-render finds neither', async () => {
      const chart = copyChart(PODINFO);
      const first = placedFindings(await render(chart));
      const single = only(first, 'single-replica')[0];
      const replicasFix = (await render(chart)).mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(replicasFix?.title, 'set replicaCount: 2 in values.yaml');
      applySourceEdits(replicasFix!);
      assert.match(readFileSync(join(chart, 'values.yaml'), 'utf8'), /^# Default values for podinfo\.\n\nreplicaCount: 2\nlogLevel: info\nhost: #0\.0\.0\.0\n/);

      const second = await render(chart);
      const secondFindings = placedFindings(second);
      assert.deepEqual(only(secondFindings, 'single-replica'), []);
      const missing = only(secondFindings, 'pdb-missing');
      assert.deepEqual(table(missing), ['pdb-missing templates/deployment.yaml:2 -']);
      const deployment = parseManifest('file:///r.yaml', second.text).documents[missing[0].document].resources[0];
      const pdbFix = second.mapper.translateFix(missing[0].document, [{ kind: 'add-resource', object: pdbFor(deployment, `${deployment.name}-pdb`, workloadSelector(deployment)) }]);
      assert.equal(pdbFix?.title, 'write templates/podinfo-pdb.yaml');
      applySourceEdits(pdbFix!);
      assert.equal(
        readFileSync(join(chart, 'templates', 'podinfo-pdb.yaml'), 'utf8'),
        `{{- if not (and .Values.podDisruptionBudget (gt (int .Values.replicaCount) 1)) }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ template "podinfo.fullname" . }}-pdb
  namespace: {{ include "podinfo.namespace" . }}
spec:
  maxUnavailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      {{- include "podinfo.selectorLabels" . | nindent 6 }}
{{- end }}
`,
      );
      // The chart's own switch (templates/pdb.yaml), turned on later: one budget, not two that fail every eviction.
      const switched = await render(chart, { set: ['podDisruptionBudget.maxUnavailable=1'] });
      assert.deepEqual(switched.problems, []);
      assert.deepEqual(only(placedFindings(switched), 'pdb-multiple'), []);
      assert.deepEqual(only(placedFindings(switched), 'pdb-missing'), []);
      assert.equal(switched.text.match(/kind: PodDisruptionBudget/g)?.length, 1);
      const third = await render(chart, { release: 'other' });
      assert.deepEqual(third.problems, []);
      const thirdFindings = placedFindings(third);
      assert.deepEqual(only(thirdFindings, 'pdb-missing'), []);
      assert.deepEqual(only(thirdFindings, 'single-replica'), []);
      assert.match(third.text, /kind: PodDisruptionBudget\nmetadata:\n  name: other-podinfo-pdb/);
    });

    it('a fix whose value names the release (a spread constraint selecting release-podinfo) is not written: under another release it would select nothing', async () => {
      const chart = copyChart(PODINFO);
      const unit = await render(chart);
      const spread = only(placedFindings(unit), 'replicas-not-spread')[0] ?? only(placedFindings(unit), 'single-replica')[0];
      const constraint = (app: string) => ({ kind: 'set' as const, path: ['spec', 'template', 'spec', 'topologySpreadConstraints'], value: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { 'app.kubernetes.io/name': app } } }] });
      const reasons: string[] = [];
      assert.equal(unit.mapper.translateFix(spread.document, [constraint('release-podinfo')], (reason) => reasons.push(reason)), undefined);
      assert.deepEqual(reasons, ['the value names this release (release): written into the chart, it would match nothing under another release name']);
      assert.ok(unit.mapper.translateFix(spread.document, [constraint('podinfo')]), 'a value of its own is written');
    });

    it('a memory limit fix sets the key inside the values map that toYaml prints', async () => {
      const chart = copyChart(PODINFO);
      const unit = await render(chart);
      const memory = only(placedFindings(unit), 'memory-unbounded').find((f) => f.at === 'templates/deployment.yaml:202')!;
      const fix = unit.mapper.translateFix(memory.document, [{ kind: 'set', path: ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'memory'], value: '64Mi' }]);
      assert.equal(fix?.title, 'set resources.limits.memory: 64Mi in values.yaml');
      applySourceEdits(fix!);
      assert.match(readFileSync(join(chart, 'values.yaml'), 'utf8'), /\nresources:\n  limits:\n    memory: 64Mi\n  requests:\n    cpu: 1m\n/);
      const after = placedFindings(await render(chart));
      assert.deepEqual(after.filter((f) => f.rule === 'memory-unbounded' && f.at === 'templates/deployment.yaml:202'), []);
    });
  });

  describe("helm create's starter chart", () => {
    const starter = () => {
      const dir = mkdtempSync(join(tmpdir(), 'kube-resilience-starter-'));
      const home = mkdtempSync(join(tmpdir(), 'kube-resilience-helm-home-'));
      const env = { ...process.env, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home };
      const created = spawnSync(tools.helm, ['create', 'starter'], { cwd: dir, env, encoding: 'utf8' });
      assert.equal(created.status, 0, created.stderr);
      return join(dir, 'starter');
    };

    it('findings on the template lines and the values keys behind them', async () => {
      const findings = placedFindings(await render(starter()));
      assert.deepEqual(table(findings), [
        'single-replica templates/deployment.yaml:9 values.yaml:6',
        'memory-unbounded templates/deployment.yaml:36 -',
        'probe-liveness-equals-readiness templates/deployment.yaml:48 values.yaml:127',
        'memory-unbounded templates/tests/test-connection.yaml:11 -',
      ]);
      assert.equal(findings[2].origin, 'values key livenessProbe in values.yaml');
    });

    it('works on the rendered stream through the runner it is given (a server runs it in slices), pausing after each document', async () => {
      const chart = starter();
      const { run, seen } = countingRunner();
      const unit = await render(chart, { run });
      assert.equal(seen.calls, 1);
      assert.ok(seen.pauses >= unit.text.split(/^---$/m).length - 1, `${seen.pauses} pauses`);
      assert.deepEqual(table(placedFindings(unit)), table(placedFindings(await render(chart))));
    });

    it('a missing memory limit is set in the empty `resources: {}` of values.yaml, and a re-render finds it no more', async () => {
      const chart = starter();
      const unit = await render(chart);
      const memory = placedFindings(unit).find((f) => f.rule === 'memory-unbounded' && f.at === 'templates/deployment.yaml:36')!;
      const fix = unit.mapper.translateFix(memory.document, [{ kind: 'set', path: ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'memory'], value: '128Mi' }]);
      assert.equal(fix?.title, 'set resources.limits.memory: 128Mi in values.yaml');
      applySourceEdits(fix!);
      const after = placedFindings(await render(chart));
      assert.deepEqual(after.filter((f) => f.rule === 'memory-unbounded' && f.at === 'templates/deployment.yaml:36'), []);
      assert.match(readFileSync(join(chart, 'values.yaml'), 'utf8'), /\nresources:\n  limits:\n    memory: 128Mi\n/);
    });
  });

  describe('charts written for the edge cases', () => {
    it('an ingress-nginx-like chart: the replicas fix in values.yaml is what makes the chart\'s own PDB render', async () => {
      const chart = writeChart(conditionalPdbChart);
      const unit = await render(chart);
      const findings = placedFindings(unit);
      assert.deepEqual(table(findings), ['single-replica templates/deployment.yaml:8 values.yaml:3']);
      assert.doesNotMatch(unit.text, /PodDisruptionBudget/);
      const fix = unit.mapper.translateFix(findings[0].document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set controller.replicaCount: 2 in values.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), conditionalPdbChart['values.yaml'].replace('replicaCount: 1', 'replicaCount: 2'));
      const after = await render(chart);
      assert.match(after.text, /# Source: gateway\/templates\/pdb.yaml\napiVersion: policy\/v1\nkind: PodDisruptionBudget/);
      assert.deepEqual(table(placedFindings(after)), []);
    });

    it('a template of two documents: each one\'s findings on its own lines, and a fix of the second never touches the first (its 4 replicas were lowered to 2)', async () => {
      const chart = writeChart(twoDocumentChart);
      const unit = await render(chart);
      const findings = placedFindings(unit);
      // The second document starts at line 24 of the template (its kind on 25, its replicas on 29).
      assert.deepEqual(table(only(findings, 'single-replica')), ['single-replica templates/two.yaml:29 values.yaml:2']);
      assert.deepEqual(table(only(findings, 'pdb-missing')), ['pdb-missing templates/two.yaml:2 -']);
      const second = only(findings, 'single-replica')[0];
      const fix = unit.mapper.translateFix(second.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set second.replicas: 2 in values.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'templates', 'two.yaml'), 'utf8'), twoDocumentChart['templates/two.yaml']);
      const after = await render(chart);
      assert.match(after.text, /name: first\nspec:\n  replicas: 4\n/);
      assert.deepEqual(only(placedFindings(after), 'single-replica'), []);
    });

    it('a Deployment written above a Service in one template, which helm prints after it: its finding on its own replicas line, and the fix writes there (it wrote `replicas: 2` under the Service)', async () => {
      const chart = writeChart(deploymentAboveServiceChart);
      const unit = await render(chart);
      assert.match(unit.text, /kind: Service[\s\S]*kind: Deployment/);
      const [single] = only(placedFindings(unit), 'single-replica');
      assert.equal(single?.at, 'templates/app.yaml:6');
      const fix = unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set replicas: 2 in templates/app.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'templates', 'app.yaml'), 'utf8'), deploymentAboveServiceChart['templates/app.yaml'].replace('replicas: 1 # one for now', 'replicas: 2 # one for now'));
      assert.deepEqual(only(placedFindings(await render(chart)), 'single-replica'), []);
    });

    it('a field added to a template written with CRLF line breaks is written with CRLF too (its lines ended in LF alone)', async () => {
      const crlf = Object.fromEntries(Object.entries(commentedLiteralsChart).map(([file, text]) => [file, text.replace(/\n/g, '\r\n')]));
      const chart = writeChart(crlf);
      const unit = await render(chart);
      const [single] = only(placedFindings(unit), 'single-replica');
      const fix = unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['metadata', 'annotations', 'kube-resilience/ignore'], value: 'single-replica' }]);
      assert.ok(fix, 'a fix is written');
      applySourceEdits(fix!);
      const written = readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8');
      assert.match(written, /kube-resilience\/ignore: single-replica\r\n/);
      assert.doesNotMatch(written, /[^\r]\n/, 'every line ends in CRLF');
    });

    it('a field added to an LF template that has one CRLF line elsewhere (a header pasted in) is written with LF, as the lines around it', async () => {
      const mixed = Object.fromEntries(Object.entries(commentedLiteralsChart).map(([file, text]) => [file, file.startsWith('templates/') ? text.replace('\n', '\r\n') : text]));
      const chart = writeChart(mixed);
      const unit = await render(chart);
      const [single] = only(placedFindings(unit), 'single-replica');
      applySourceEdits(unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['metadata', 'annotations', 'kube-resilience/ignore'], value: 'single-replica' }])!);
      const written = readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8');
      assert.match(written, /[^\r]\n {4}kube-resilience\/ignore: single-replica\n/);
    });

    it('a literal field of the template with a comment after it is set in place, the comment kept; a re-render finds it no more', async () => {
      const chart = writeChart(commentedLiteralsChart);
      const unit = await render(chart);
      const [single] = only(placedFindings(unit), 'single-replica');
      const fix = unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set replicas: 2 in templates/web.yaml');
      applySourceEdits(fix!);
      assert.match(readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8'), /\n {2}replicas: 2 # one until the cache is shared\n/);
      assert.deepEqual(only(placedFindings(await render(chart)), 'single-replica'), []);
    });

    it('replicas an autoscaler owns, printed from values.yaml: the fix takes the template\'s line out (without the key it rendered `replicas:`, empty), the values file as it was', async () => {
      const chart = writeChart(autoscaledChart);
      const unit = await render(chart);
      const [conflict] = only(placedFindings(unit), 'hpa-replicas-conflict');
      assert.equal(conflict?.at, 'templates/web.yaml:6');
      const fix = unit.mapper.translateFix(conflict.document, [{ kind: 'remove', path: ['spec', 'replicas'] }]);
      assert.equal(fix?.title, 'remove replicas from templates/web.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), autoscaledChart['values.yaml']);
      assert.equal(readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8'), autoscaledChart['templates/web.yaml'].replace('  replicas: {{ .Values.replicaCount }} # the HPA owns it once running\n', ''));
      const after = await render(chart);
      assert.doesNotMatch(after.text, /replicas:/);
      assert.deepEqual(only(placedFindings(after), 'hpa-replicas-conflict'), []);
    });

    it('a key an override sets to null (Helm takes its value away) is set in that override, where values.yaml\'s value was edited for nothing', async () => {
      const chart = webChart({
        'values.yaml': 'replicaCount: 2\npdb:\n  maxUnavailable: 1\n',
        'prod.yaml': 'pdb:\n  maxUnavailable: null\n  minAvailable: 2\n',
        'templates/pdb.yaml': 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  {{- toYaml .Values.pdb | nindent 2 }}\n',
      });
      const prod = { valuesFiles: [join(chart, 'prod.yaml')] };
      const unit = await render(chart, prod);
      const [blocking] = only(placedFindings(unit), 'pdb-blocks-eviction');
      const fix = unit.mapper.translateFix(blocking.document, [{ kind: 'set', path: ['spec', 'maxUnavailable'], value: 1 }, { kind: 'remove', path: ['spec', 'minAvailable'] }]);
      assert.equal(fix?.title, 'set pdb.maxUnavailable: 1 in prod.yaml, remove pdb.minAvailable from prod.yaml');
      applySourceEdits(fix!);
      assert.match((await render(chart, prod)).text, /\n {2}maxUnavailable: 1\n/);
    });

    it('a key an override sets to null is set there even where no file below gives it a value (values.yaml was edited, under the null)', async () => {
      const chart = webChart({ 'values.yaml': 'replicaCount: null\n', 'prod.yaml': 'replicaCount: null\n' });
      writeFileSync(join(chart, 'templates', 'web.yaml'), readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8').replace('{{ .Values.replicaCount }}', '{{ .Values.replicaCount | default 1 }}'));
      const unit = await render(chart, { valuesFiles: [join(chart, 'prod.yaml')] });
      const [single] = only(placedFindings(unit), 'single-replica').filter((f) => f.at.startsWith('templates/'));
      assert.equal(unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }])?.title, 'set replicaCount: 2 in prod.yaml');
    });

    it('a key to take out that only files given to the install set is left (set to null there, Helm would render the null: no chart default holds it)', async () => {
      const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  {{- toYaml .Values.pdb | nindent 2 }}\n';
      const chart = webChart({ 'values.yaml': 'replicaCount: 2\npdb: {}\n', 'a.yaml': 'pdb:\n  minAvailable: 2\n', 'b.yaml': 'pdb:\n  minAvailable: 2\n', 'templates/pdb.yaml': pdb });
      const unit = await render(chart, { valuesFiles: [join(chart, 'a.yaml'), join(chart, 'b.yaml')] });
      const [blocking] = only(placedFindings(unit), 'pdb-blocks-eviction');
      const reasons: string[] = [];
      assert.equal(unit.mapper.translateFix(blocking.document, [{ kind: 'set', path: ['spec', 'maxUnavailable'], value: 1 }, { kind: 'remove', path: ['spec', 'minAvailable'] }], (reason) => reasons.push(reason)), undefined);
      assert.deepEqual(reasons, ['values key pdb.minAvailable is set in a.yaml too: taken out of b.yaml, it would render with that value']);
    });

    it('a key no values file sets, inside a map one does: written into the file that fills the map (in values.yaml, beside `pdb: {}`, it switched the budget on for every install)', async () => {
      const chart = webChart({
        'values.yaml': 'replicaCount: 1\n# a budget only when one is set\npdb: {}\n',
        'env.yaml': 'replicaCount: 3\npdb:\n  maxUnavailable: 1\n',
        'templates/pdb.yaml': '{{- if .Values.pdb }}\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  {{- toYaml .Values.pdb | nindent 2 }}\n{{- end }}\n',
      });
      const unit = await render(chart, { valuesFiles: [join(chart, 'env.yaml')] });
      const [unhealthy] = only(placedFindings(unit), 'pdb-unhealthy-pods-block');
      const fix = unit.mapper.translateFix(unhealthy.document, [{ kind: 'set', path: ['spec', 'unhealthyPodEvictionPolicy'], value: 'AlwaysAllow' }]);
      assert.equal(fix?.title, 'set pdb.unhealthyPodEvictionPolicy: AlwaysAllow in env.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), 'replicaCount: 1\n# a budget only when one is set\npdb: {}\n');
      assert.doesNotMatch((await render(chart)).text, /PodDisruptionBudget/, 'an install without env.yaml has no budget, as before');
      assert.deepEqual(only(placedFindings(await render(chart, { valuesFiles: [join(chart, 'env.yaml')] })), 'pdb-unhealthy-pods-block'), []);
    });

    it('a field whose line renders only when its own values key is set: the key is taken out, the line kept (taken out, the key went dead for every install that sets it)', async () => {
      const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  {{- if .Values.pdb.minAvailable }}\n  minAvailable: {{ .Values.pdb.minAvailable }}\n  {{- end }}\n  {{- if .Values.pdb.maxUnavailable }}\n  maxUnavailable: {{ .Values.pdb.maxUnavailable }}\n  {{- end }}\n  selector:\n    matchLabels: {app: web}\n';
      const chart = webChart({ 'values.yaml': 'replicaCount: 2\npdb:\n  minAvailable: 2 # all of them\n', 'templates/pdb.yaml': pdb });
      const unit = await render(chart);
      const [blocking] = only(placedFindings(unit), 'pdb-blocks-eviction');
      const fix = unit.mapper.translateFix(blocking.document, [{ kind: 'set', path: ['spec', 'maxUnavailable'], value: 1 }, { kind: 'remove', path: ['spec', 'minAvailable'] }]);
      assert.equal(fix?.title, 'set pdb.maxUnavailable: 1 in values.yaml, remove pdb.minAvailable from values.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'templates', 'pdb.yaml'), 'utf8'), pdb);
      assert.deepEqual(only(placedFindings(await render(chart)), 'pdb-blocks-eviction'), []);
      assert.match((await render(chart, { set: ['pdb.minAvailable=1', 'pdb.maxUnavailable=null'] })).text, /\n {2}minAvailable: 1\n/, 'an install that sets it gets it');
      // Guarded by another key, or by its own without the `end` right below it: the line goes, as for any line.
      for (const other of [pdb.replace('{{- if .Values.pdb.minAvailable }}', '{{- if .Values.pdb.enabled }}'), pdb.replace('  minAvailable: {{ .Values.pdb.minAvailable }}\n  {{- end }}\n', '  minAvailable: {{ .Values.pdb.minAvailable }}\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  {{- end }}\n')]) {
        const otherChart = webChart({ 'values.yaml': 'replicaCount: 2\npdb:\n  enabled: true\n  minAvailable: 2\n', 'templates/pdb.yaml': other });
        const otherUnit = await render(otherChart);
        const [otherBlocking] = only(placedFindings(otherUnit), 'pdb-blocks-eviction');
        assert.match(otherUnit.mapper.translateFix(otherBlocking.document, [{ kind: 'remove', path: ['spec', 'minAvailable'] }])?.title ?? '', /^remove minAvailable from templates\/pdb\.yaml$/);
      }
    });

    it('a values key to take out that a values file below the winning one sets too is set to null in the winning one (taken out there, the lower value rendered: a budget with both a minimum and a maximum)', async () => {
      const pdbTemplate = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  {{- toYaml .Values.pdb | nindent 2 }}\n';
      const guardedTemplate = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  {{- if .Values.pdb.minAvailable }}\n  minAvailable: {{ .Values.pdb.minAvailable }}\n  {{- end }}\n  {{- if .Values.pdb.maxUnavailable }}\n  maxUnavailable: {{ .Values.pdb.maxUnavailable }}\n  {{- end }}\n';
      for (const template of [pdbTemplate, guardedTemplate]) {
        const values = 'replicaCount: 3\npdb:\n  minAvailable: 2\n';
        const chart = webChart({ 'values.yaml': values, 'prod.yaml': 'replicaCount: 2\npdb:\n  minAvailable: 2 # prod keeps two\n', 'templates/pdb.yaml': template });
        const prod = { valuesFiles: [join(chart, 'prod.yaml')] };
        const unit = await render(chart, prod);
        const [blocking] = only(placedFindings(unit), 'pdb-blocks-eviction');
        const change = [{ kind: 'set' as const, path: ['spec', 'maxUnavailable'], value: 1 }, { kind: 'remove' as const, path: ['spec', 'minAvailable'] }];
        const fix = unit.mapper.translateFix(blocking.document, change);
        assert.equal(fix?.title, 'set pdb.maxUnavailable: 1 in prod.yaml, set pdb.minAvailable: null in prod.yaml');
        applySourceEdits(fix!);
        assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), values, 'the default install as it was');
        const after = await render(chart, prod);
        assert.match(after.text, /\n {2}maxUnavailable: 1\n/);
        assert.doesNotMatch(after.text, /minAvailable/);
        assert.deepEqual(only(placedFindings(after), 'pdb-blocks-eviction'), []);
      }
      const alone = await render(webChart({ 'values.yaml': 'replicaCount: 2\npdb:\n  minAvailable: 2\n', 'templates/pdb.yaml': pdbTemplate }));
      const change = [{ kind: 'set' as const, path: ['spec', 'maxUnavailable'], value: 1 }, { kind: 'remove' as const, path: ['spec', 'minAvailable'] }];
      assert.match(alone.mapper.translateFix(only(placedFindings(alone), 'pdb-blocks-eviction')[0].document, change)?.title ?? '', /remove pdb\.minAvailable from values\.yaml/, 'where one file sets it, it is taken out there');
    });

    it('replicas under an autoscaler a values switch turns on: the line is written only with the switch off (helm create\'s idiom), so the count holds without the autoscaler', async () => {
      const chart = writeChart({
        ...autoscaledChart,
        'values.yaml': `${autoscaledChart['values.yaml']}autoscaling:\n  enabled: true\n`,
        'templates/hpa.yaml': `{{- if .Values.autoscaling.enabled }}\n${autoscaledChart['templates/hpa.yaml']}{{- end }}\n`,
      });
      const unit = await render(chart);
      const [conflict] = only(placedFindings(unit), 'hpa-replicas-conflict');
      const fix = unit.mapper.translateFix(conflict.document, [{ kind: 'remove', path: ['spec', 'replicas'] }]);
      assert.equal(fix?.title, 'write replicas only if not .Values.autoscaling.enabled in templates/web.yaml');
      applySourceEdits(fix!);
      assert.match(readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8'), /\nspec:\n {2}\{\{- if not \(\.Values\.autoscaling\.enabled\) \}\}\n {2}replicas: \{\{ \.Values\.replicaCount \}\} # the HPA owns it once running\n {2}\{\{- end \}\}\n {2}selector:\n/);
      const after = await render(chart);
      assert.doesNotMatch(after.text, /replicas:/);
      assert.deepEqual(only(placedFindings(after), 'hpa-replicas-conflict'), []);
      assert.match((await render(chart, { set: ['autoscaling.enabled=false'] })).text, /\nspec:\n {2}replicas: 3 # the HPA owns it once running\n {2}selector:\n/);
    });

    it('replicas under a switched autoscaler, written inside a `with`: the condition reads the root as `$` there (`.Values` inside the `with` broke the render)', async () => {
      const chart = writeChart({
        ...autoscaledChart,
        'values.yaml': 'web:\n  replicaCount: 3\nautoscaling:\n  enabled: true\n',
        'templates/web.yaml': autoscaledChart['templates/web.yaml'].replace('  replicas: {{ .Values.replicaCount }} # the HPA owns it once running\n', '  {{- with .Values.web }}\n  replicas: {{ .replicaCount }}\n  {{- end }}\n'),
        'templates/hpa.yaml': `{{- if .Values.autoscaling.enabled }}\n${autoscaledChart['templates/hpa.yaml']}{{- end }}\n`,
      });
      const unit = await render(chart);
      const [conflict] = only(placedFindings(unit), 'hpa-replicas-conflict');
      const fix = unit.mapper.translateFix(conflict.document, [{ kind: 'remove', path: ['spec', 'replicas'] }]);
      applySourceEdits(fix!);
      assert.match(readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8'), /\{\{- if not \(\$\.Values\.autoscaling\.enabled\) \}\}\n {2}replicas: \{\{ \.replicaCount \}\}\n/);
      const after = await render(chart);
      assert.deepEqual(after.problems, []);
      assert.doesNotMatch(after.text, /replicas:/);
      assert.match((await render(chart, { set: ['autoscaling.enabled=false'] })).text, /\n {2}replicas: 3\n/);
    });

    it('a values key the same document prints for another field too (one probe map for liveness and readiness) is not edited: the fix would slow readiness down and leave the finding', async () => {
      const probe = '  {{- toYaml .Values.probe | nindent 12 }}\n';
      const template = autoscaledChart['templates/web.yaml'].replace('          readinessProbe:\n            httpGet: {path: /, port: 80}\n', `          livenessProbe:\n          ${probe}          readinessProbe:\n          ${probe}`);
      const chart = writeChart({ 'Chart.yaml': autoscaledChart['Chart.yaml'], 'values.yaml': 'replicaCount: 2\nprobe:\n  httpGet: {path: /healthz, port: 8080}\n', 'templates/web.yaml': template });
      const unit = await render(chart);
      assert.deepEqual(unit.problems, []);
      const [same] = only(placedFindings(unit), 'probe-liveness-equals-readiness');
      assert.ok(same, unit.text);
      const reasons: string[] = [];
      const path = ['spec', 'template', 'spec', 'containers', 0, 'livenessProbe', 'failureThreshold'];
      assert.equal(unit.mapper.translateFix(same.document, [{ kind: 'set', path, value: 9 }], (reason) => reasons.push(reason)), undefined);
      assert.match(reasons[0], /^templates\/web\.yaml prints values key probe on line \d+ too: probe\.failureThreshold set for this field would be that one's as well$/);
    });

    it('the two branches of an `if` writing one field from one values key are one field, not two: the fix is written', async () => {
      const branches = '          {{- if .Values.tls.enabled }}\n          livenessProbe:\n            httpGet: {path: /, port: 443, scheme: HTTPS}\n            failureThreshold: {{ .Values.liveness.failureThreshold }}\n          {{- else }}\n          livenessProbe:\n            httpGet: {path: /, port: 80}\n            failureThreshold: {{ .Values.liveness.failureThreshold }}\n          {{- end }}\n          readinessProbe:\n            httpGet: {path: /, port: 80}\n';
      const template = autoscaledChart['templates/web.yaml'].replace('          readinessProbe:\n            httpGet: {path: /, port: 80}\n', branches);
      const unit = await render(webChart({ 'values.yaml': 'replicaCount: 2\ntls:\n  enabled: false\nliveness:\n  failureThreshold: 3\n', 'templates/web.yaml': template }));
      const [same] = only(placedFindings(unit), 'probe-liveness-equals-readiness');
      const path = ['spec', 'template', 'spec', 'containers', 0, 'livenessProbe', 'failureThreshold'];
      assert.equal(unit.mapper.translateFix(same.document, [{ kind: 'set', path, value: 9 }])?.title, 'set liveness.failureThreshold: 9 in values.yaml');
    });

    it("a subchart's line held back by another key than the global it prints changes nothing of it: the top chart's fix of that global is safe", async () => {
      const worker = autoscaledChart['templates/web.yaml'].replace(/\bweb\b/g, 'worker').replace('  replicas: {{ .Values.replicaCount }} # the HPA owns it once running\n', '  replicas: 2\n  {{- if .Values.slow }}\n  minReadySeconds: {{ .Values.global.replicas }}\n  {{- end }}\n');
      const chart = webChart({ 'values.yaml': 'global:\n  replicas: 1\n', 'charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n', 'charts/sub/values.yaml': 'slow: false\n', 'charts/sub/templates/worker.yaml': worker });
      writeFileSync(join(chart, 'templates', 'web.yaml'), readFileSync(join(chart, 'templates', 'web.yaml'), 'utf8').replace('{{ .Values.replicaCount }}', '{{ .Values.global.replicas }}'));
      const unit = await render(chart);
      const single = only(placedFindings(unit), 'single-replica').find((f) => f.at.startsWith('templates/'))!;
      const fix = unit.mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set global.replicas: 2 in values.yaml');
      assert.equal(fix?.alsoChanges, undefined);
    });

    it('a values key another workload prints only on a line that did not render (`replicas:` under `if not .Values.hpa.enabled`) changes nothing of it: the fix is safe', async () => {
      // The Deployment writes replicas under `guard`; the autoscaler's minimum comes from the same key.
      const guarded = (values: string, guard: string) =>
        render(
          writeChart({
            ...autoscaledChart,
            'values.yaml': values,
            'templates/web.yaml': autoscaledChart['templates/web.yaml'].replace('  replicas: {{ .Values.replicaCount }} # the HPA owns it once running\n', `  {{- if ${guard} }}\n  replicas: {{ .Values.replicaCount }}\n  {{- end }}\n`),
            'templates/hpa.yaml': autoscaledChart['templates/hpa.yaml'].replace('minReplicas: 3', 'minReplicas: {{ .Values.replicaCount }}'),
          }),
        );
      const minOneFix = (unit: Awaited<ReturnType<typeof render>>) => unit.mapper.translateFix(only(placedFindings(unit), 'hpa-min-one')[0].document, [{ kind: 'set', path: ['spec', 'minReplicas'], value: 2 }]);
      const unit = await guarded('replicaCount: 1\nhpa:\n  enabled: true\n', 'not .Values.hpa.enabled');
      const fix = minOneFix(unit);
      assert.equal(fix?.title, 'set replicaCount: 2 in values.yaml');
      assert.equal(fix?.alsoChanges, undefined);
      assert.doesNotMatch(unit.text, /\n {2}replicas:/, 'the Deployment printed no replicas');
      // Held back by the very key the fix sets (unset), the line would print it once set: that changes the Deployment.
      assert.deepEqual(minOneFix(await guarded('replicaCount: null\n', '.Values.replicaCount'))?.alsoChanges, { resources: ['Deployment web'], count: 1, by: 'values key' });
    });

    it('a values key another workload prints too: its fix is unsafe, naming that one (one replicaCount made a safe fix of web run a second Redis)', async () => {
      const unit = await render(writeChart(sharedReplicasChart));
      const singles = only(placedFindings(unit), 'single-replica').filter((f) => f.at.startsWith('templates/'));
      const fixOf = (name: string) => {
        const finding = singles.find((f) => f.message.includes(`Deployment ${name} `))!;
        const changes = [{ kind: 'set' as const, path: ['spec', 'replicas'], value: 2 }];
        return unit.mapper.translateFix(finding.document, changes);
      };
      assert.deepEqual(fixOf('web')?.alsoChanges, { resources: ['Deployment cache'], count: 1, by: 'values key' });
      assert.deepEqual(fixOf('cache')?.alsoChanges, { resources: ['Deployment web'], count: 1, by: 'values key' });
      assert.equal(fixOf('api')?.alsoChanges, undefined, 'its key is its own');
      const [web] = analyzeRenderedUnit(unit).filter((f) => f.ruleId === 'single-replica' && f.message.startsWith('Deployment web '));
      assert.equal(preferredSourceFix(web), undefined, '--fix leaves it for --unsafe-fixes');
      assert.equal(preferredSourceFix(web, true)?.unsafe, 'it also changes Deployment cache: the same values key sets it');
    });

    it('a values key a `range` of five Deployments prints: each fix names three others and counts the rest (it named every one, for every fix)', async () => {
      const chart = writeChart({
        'Chart.yaml': 'apiVersion: v2\nname: workers\nversion: 0.1.0\n',
        'values.yaml': 'replicaCount: 1\nworkers: [a, b, c, d, e]\n',
        'templates/w.yaml': `{{- range .Values.workers }}\n---\n${autoscaledChart['templates/web.yaml'].replace(/\bweb\b/g, '{{ . }}').replace('{{ .Values.replicaCount }} # the HPA owns it once running', '{{ $.Values.replicaCount }}')}{{- end }}\n`,
      }, 'workers');
      const unit = await render(chart);
      const [first] = analyzeRenderedUnit(unit).filter((f) => f.ruleId === 'single-replica' && f.message.startsWith('Deployment a '));
      assert.equal(preferredSourceFix(first, true)?.unsafe, 'it also changes Deployment b, Deployment c, Deployment d and 1 more: the same values key sets them');
    });

    it('renders as against a current cluster: `.Capabilities.APIVersions.Has` of a kind it serves is true (the policy/v1beta1 branch was taken)', async () => {
      const chart = writeChart({
        'Chart.yaml': 'apiVersion: v2\nname: caps\nversion: 0.1.0\n',
        'templates/pdb.yaml': 'apiVersion: {{ if .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}policy/v1{{ else }}policy/v1beta1{{ end }}\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels: {app: web}\n',
      });
      assert.match((await render(chart)).text, /^apiVersion: policy\/v1\nkind: PodDisruptionBudget/m);
    });

    it('a `range` of Deployments: each item\'s finding on the template, and no fix written literally into the loop or a PDB template for one item (they were every item\'s)', async () => {
      const chart = writeChart(rangeChart);
      const unit = await render(chart);
      const findings = placedFindings(unit);
      assert.deepEqual(only(findings, 'single-replica').map((f) => f.finding.resource?.name), ['worker-alpha']);
      const beta = only(findings, 'replicas-not-spread').find((f) => f.finding.resource?.name === 'worker-beta')!;
      const spread = { kind: 'set' as const, path: ['spec', 'template', 'spec', 'topologySpreadConstraints'], value: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'worker-beta' } } }] };
      assert.equal(unit.mapper.translateFix(beta.document, [spread]), undefined);
      const pdb = only(findings, 'pdb-missing').find((f) => f.finding.resource?.name === 'worker-beta')!;
      const object = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'worker-beta-pdb' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'worker-beta' } } } };
      assert.equal(unit.mapper.translateFix(pdb.document, [{ kind: 'add-resource', object }]), undefined);
    });

    it('a value copied from a field values.yaml decides (a memory request equal to its limit) is not written literally: under other values the request would exceed the limit', async () => {
      const chart = writeChart(valuesLimitChart);
      const unit = await render(chart);
      const request = (memory: string) => [{ kind: 'set' as const, path: ['spec', 'template', 'spec', 'containers', 0, 'resources', 'requests', 'memory'], value: memory }];
      assert.match(unit.text, /limits:\n\s+memory: 128Mi/);
      const reasons: string[] = [];
      assert.equal(unit.mapper.translateFix(0, request('128Mi'), (reason) => reasons.push(reason)), undefined);
      assert.deepEqual(reasons, ['the value copies a field the values decide: written literally, it would part from that field under other values']);
      assert.equal(unit.mapper.translateFix(0, request('64Mi'))?.title, 'set memory: 64Mi in templates/web.yaml', 'a value of its own is');
    });

    it('a subchart renders with its parent; its values key is found in the parent\'s values.yaml under the subchart\'s name', async () => {
      const chart = writeChart(subchartChart);
      const unit = await render(chart);
      assert.deepEqual(unit.problems, []);
      const findings = placedFindings(unit);
      assert.deepEqual(table(findings), ['single-replica charts/cart/templates/deployment.yaml:8 values.yaml:12']);
      assert.equal(findings[0].origin, 'values key cart.replicaCount in values.yaml');
      const fix = unit.mapper.translateFix(findings[0].document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), subchartChart['values.yaml'].replace('cart:\n  # The cart service, deployed with the shop.\n  replicaCount: 1', 'cart:\n  # The cart service, deployed with the shop.\n  replicaCount: 2'));
      const after = placedFindings(await render(chart));
      assert.deepEqual(table(after), ['pdb-missing charts/cart/templates/deployment.yaml:2 -']);
    });

    it("a key a vendored subchart's own values.yaml sets is fixed in the top chart's values.yaml, under the subchart's key (an edit of the vendored chart is lost to `helm dependency update`)", async () => {
      const subchartValues = subchartChart['charts/cart/values.yaml'].replace('replicaCount: 2', 'replicaCount: 1');
      const files = { ...subchartChart, 'values.yaml': subchartChart['values.yaml'].replace(/cart:\n[\s\S]*$/, ''), 'charts/cart/values.yaml': subchartValues };
      const chart = writeChart(files);
      const findings = only(placedFindings(await render(chart)), 'single-replica');
      assert.deepEqual(table(findings), ['single-replica charts/cart/templates/deployment.yaml:8 charts/cart/values.yaml:2']);
      const fix = (await render(chart)).mapper.translateFix(findings[0].document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set cart.replicaCount: 2 in values.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'charts', 'cart', 'values.yaml'), 'utf8'), subchartValues);
      assert.deepEqual(only(placedFindings(await render(chart)), 'single-replica'), []);
    });

    it("a global only a vendored subchart's values.yaml sets is fixed at the top of the top chart's values.yaml, which overrides it", async () => {
      const subchartValues = `${subchartChart['charts/cart/values.yaml']}global:\n  cartReplicas: 1\n`;
      const files = { ...subchartChart, 'charts/cart/values.yaml': subchartValues, 'charts/cart/templates/deployment.yaml': subchartChart['charts/cart/templates/deployment.yaml'].replace('{{ .Values.replicaCount }}', '{{ .Values.global.cartReplicas }}') };
      const chart = writeChart(files);
      const [single] = only(placedFindings(await render(chart)), 'single-replica');
      const fix = (await render(chart)).mapper.translateFix(single.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set global.cartReplicas: 2 in values.yaml');
      applySourceEdits(fix!);
      assert.equal(readFileSync(join(chart, 'charts', 'cart', 'values.yaml'), 'utf8'), subchartValues);
      assert.deepEqual(only(placedFindings(await render(chart)), 'single-replica'), []);
    });

    it("a subchart reading a global: the parent's values.yaml sets it at its top, where the fix goes (the subchart's own values were given a global the parent's overrides)", async () => {
      const files = { ...subchartChart, 'values.yaml': `${subchartChart['values.yaml']}global:\n  # every worker of the platform\n  cartReplicas: 1\n`, 'charts/cart/templates/deployment.yaml': subchartChart['charts/cart/templates/deployment.yaml'].replace('{{ .Values.replicaCount }}', '{{ .Values.global.cartReplicas }}') };
      const chart = writeChart(files);
      const findings = only(placedFindings(await render(chart)), 'single-replica');
      assert.deepEqual(table(findings), ['single-replica charts/cart/templates/deployment.yaml:8 values.yaml:15']);
      assert.equal(findings[0].origin, 'values key global.cartReplicas in values.yaml');
      const fix = (await render(chart)).mapper.translateFix(findings[0].document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]);
      assert.equal(fix?.title, 'set global.cartReplicas: 2 in values.yaml');
      applySourceEdits(fix!);
      assert.deepEqual(only(placedFindings(await render(chart)), 'single-replica'), []);
    });

    it('a subchart aliased twice, in a folder named otherwise: each alias\'s findings on its template, its values under the alias\'s key, and no literal edit of the template both render', async () => {
      const chart = writeChart(aliasedSubchartChart);
      const unit = await render(chart);
      assert.deepEqual(unit.problems, []);
      const findings = only(placedFindings(unit), 'single-replica');
      assert.deepEqual(table(findings), ['single-replica charts/cart-0.1.0/templates/deployment.yaml:8 values.yaml:2', 'single-replica charts/cart-0.1.0/templates/deployment.yaml:8 values.yaml:5']);
      assert.deepEqual(findings.map((f) => f.origin), ['values key basket.replicaCount in values.yaml', 'values key wishlist.replicaCount in values.yaml']);
      const wishlist = findings.find((f) => f.message.includes('release-wishlist'))!;
      const maxSkew = ['spec', 'template', 'spec', 'topologySpreadConstraints', 0, 'maxSkew'];
      assert.equal(unit.mapper.translateFix(wishlist.document, [{ kind: 'set', path: maxSkew, value: 2 }]), undefined, "written into the template, it would be the basket's too");
      applySourceEdits(unit.mapper.translateFix(wishlist.document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }])!);
      assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), aliasedSubchartChart['values.yaml'].replace('one pod is plenty.\n  replicaCount: 1', 'one pod is plenty.\n  replicaCount: 2'));
      assert.deepEqual(table(only(placedFindings(await render(chart)), 'single-replica')), ['single-replica charts/cart-0.1.0/templates/deployment.yaml:8 values.yaml:2']);
    });

    it('a subchart aliased twice: no budget template is written beside its workload (rendered under each alias, it selected the pods of both: two budgets over one set of pods)', async () => {
      const chart = writeChart({ ...aliasedSubchartChart, 'values.yaml': 'basket:\n  replicaCount: 3\nwishlist:\n  replicaCount: 1\n' });
      const unit = await render(chart);
      const basket = only(placedFindings(unit), 'pdb-missing').find((f) => f.message.includes('release-basket'))!;
      const deployment = parseManifest('file:///r.yaml', unit.text).documents[basket.document].resources[0];
      const reasons: string[] = [];
      assert.equal(unit.mapper.translateFix(basket.document, [{ kind: 'add-resource', object: pdbFor(deployment, `${deployment.name}-pdb`, workloadSelector(deployment)) }], (reason) => reasons.push(reason)), undefined);
      assert.deepEqual(reasons, ['charts/cart-0.1.0/templates/deployment.yaml renders under every alias of its subchart: a new template beside it would render under each of them']);
    });

    it('a packed subchart (a .tgz under charts/): its findings on the entry of the dependencies list that brings it in, under each alias', async () => {
      const chart = writeChart(aliasedSubchartChart);
      const packed = spawnSync(tools.helm, ['package', join(chart, 'charts', 'cart-0.1.0'), '--destination', join(chart, 'charts')], { encoding: 'utf8' });
      assert.equal(packed.status, 0, packed.stderr);
      rmSync(join(chart, 'charts', 'cart-0.1.0'), { recursive: true });
      const findings = only(placedFindings(await render(chart)), 'single-replica');
      assert.deepEqual(
        findings.map((f) => `${f.at} ${/release-\w+/.exec(f.message)![0]}`),
        ['Chart.yaml:5 release-basket', 'Chart.yaml:8 release-wishlist'],
      );
    });

    it("a subchart's key set with --set is named from the top chart's values, and not written in a values file", async () => {
      const unit = await render(writeChart(aliasedSubchartChart), { set: ['wishlist.replicaCount=1'] });
      const findings = only(placedFindings(unit), 'single-replica');
      assert.deepEqual(findings.map((f) => f.origin), ['values key basket.replicaCount in values.yaml', 'values key wishlist.replicaCount, set with --set']);
      assert.equal(unit.mapper.translateFix(findings[1].document, [{ kind: 'set', path: ['spec', 'replicas'], value: 2 }]), undefined);
    });

    it('a subchart in a folder named otherwise and deployed once: a literal field of its template is edited in place', async () => {
      const files = { ...aliasedSubchartChart, 'Chart.yaml': aliasedSubchartChart['Chart.yaml'].replace(/  - name: cart\n    version: 0.1.0\n    alias: wishlist\n/, '') };
      const unit = await render(writeChart(files));
      const [basket] = only(placedFindings(unit), 'single-replica');
      const maxSkew = ['spec', 'template', 'spec', 'topologySpreadConstraints', 0, 'maxSkew'];
      assert.equal(unit.mapper.translateFix(basket.document, [{ kind: 'set', path: maxSkew, value: 2 }])?.title, 'set maxSkew: 2 in charts/cart-0.1.0/templates/deployment.yaml');
    });

    it('a release name Helm does not take is refused before helm runs: one starting with `-` was read as a flag (`--output-dir=…` wrote the render out of the tree and reported nothing)', async () => {
      const chart = writeChart(twoDocumentChart);
      for (const release of ['--output-dir=/tmp/out', '-x', 'Web', 'web_1', 'a'.repeat(54), 'web.']) {
        const unit = await render(chart, { release, helm: '/nonexistent/helm-must-not-run' });
        assert.equal(unit.text, '');
        assert.deepEqual(unit.problems.map((p) => p.message), [`the release name "${release}" is not one Helm takes: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 53 characters`], release);
      }
      for (const release of ['web', 'web-1', 'web.prod', 'a'.repeat(53)]) assert.equal((await render(chart, { release })).problems.length, 0, release);
    });

    it('a values file that cannot be read, a FIFO or none, is said before helm runs (from the editor\'s settings, helm waited on a FIFO for 60 s)', { skip: process.platform === 'win32' && 'no FIFOs' }, async () => {
      const chart = writeChart(twoDocumentChart);
      const fifo = join(dirname(chart), 'prod-values.yaml');
      execFileSync('mkfifo', [fifo]);
      const unit = await render(chart, { valuesFiles: [fifo], helm: '/nonexistent/helm-must-not-run' });
      assert.deepEqual(unit.problems.map((p) => p.message), [`the values file ${fifo} cannot be read: not a regular file (a FIFO)`]);
      assert.match((await render(chart, { valuesFiles: [join(dirname(chart), 'gone.yaml')], helm: '/nonexistent/helm-must-not-run' })).problems[0].message, /^the values file .*gone\.yaml cannot be read: /);
    });

    it('with no temporary folder to be had (TMPDIR unusable), says so on the chart (it failed as a bug of this tool, and ended the run)', async () => {
      const chart = writeChart(twoDocumentChart);
      const before = process.env.TMPDIR;
      process.env.TMPDIR = join(dirname(chart), 'no-such-folder');
      try {
        const unit = await render(chart, { helm: '/nonexistent/helm-must-not-run' });
        assert.deepEqual(unit.problems.map((p) => p.message), [`helm template was not run: no temporary folder can be made in ${join(dirname(chart), 'no-such-folder')} (ENOENT: no such file or directory, mkdtemp '${join(dirname(chart), 'no-such-folder', 'kube-resilience-helm-')}XXXXXX'): set TMPDIR to a folder that takes new files`]);
      } finally {
        if (before === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = before;
      }
    });

    it('dependencies not vendored: one problem on Chart.yaml naming them, and helm is never asked to fetch them', async () => {
      const unit = await render(writeChart(missingDependencyChart), { helm: '/nonexistent/helm-must-not-run' });
      assert.equal(unit.text, '');
      assert.deepEqual(
        unit.problems.map((p) => ({ ...p, location: { ...p.location, path: p.location.path.replace(unit.root, '') } })),
        [
          {
            location: { path: '/Chart.yaml', line: 3 },
            severity: 'warning',
            message:
              'Chart store is not analysed: its dependencies postgresql (https://charts.bitnami.com/bitnami), redis (oci://registry-1.docker.io/bitnamicharts) are not vendored under charts/. Rendering never downloads charts; run `helm dependency build` in the chart folder (it fetches them), and the chart is analysed as it deploys.',
          },
        ],
      );
    });

    it('dependencies written with YAML aliases or merge keys are read (they were dropped, so not said to be missing)', async () => {
      for (const entry of ['*redis', '<<: *redis']) {
        const chart = writeChart({ 'Chart.yaml': `apiVersion: v2\nname: store\nversion: 0.1.0\nx-repo: &repo https://charts.example.com\nx-redis: &redis {name: redis, version: 1.x.x, repository: *repo}\ndependencies:\n  - ${entry}\n`, 'templates/cm.yaml': 'kind: ConfigMap\n' });
        const unit = await render(chart, { helm: '/nonexistent/helm-must-not-run' });
        assert.match(unit.problems[0]?.message ?? '', /its dependency redis \(https:\/\/charts\.example\.com\) is not vendored under charts\//, entry);
      }
    });

    it('a Chart.yaml with a key written twice does not parse as a chart, as helm refuses it, and helm is never run', async () => {
      const unit = await render(writeChart({ 'Chart.yaml': 'apiVersion: v2\nname: twice\nversion: 0.1.0\nname: again\n', 'templates/cm.yaml': 'kind: ConfigMap\n' }), { helm: '/nonexistent/helm-must-not-run' });
      assert.deepEqual(unit.problems.map((p) => p.message), ['Chart.yaml does not parse as a chart (it needs at least a name): the chart is not rendered.']);
    });

    it('an alias bomb in Chart.yaml or requirements.yaml is one problem on that file, and helm is never run (it stopped the whole run)', async () => {
      const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
      const chart = (files: Record<string, string>) => render(writeChart({ 'templates/cm.yaml': 'kind: ConfigMap\n', ...files }), { helm: '/nonexistent/helm-must-not-run' });
      const inChart = await chart({ 'Chart.yaml': `apiVersion: v2\nname: bomb\nversion: 0.1.0\n${bomb}\n` });
      assert.deepEqual(inChart.problems.map((p) => [relative(inChart.root, p.location.path), p.severity, p.message]), [['Chart.yaml', 'error', 'Chart.yaml cannot be read: Excessive alias count indicates a resource exhaustion attack: the chart is not rendered.']]);
      const inRequirements = await chart({ 'Chart.yaml': 'apiVersion: v1\nname: old\nversion: 0.1.0\n', 'requirements.yaml': `${bomb}\ndependencies:\n  - name: x\n    tags: *h\n` });
      assert.deepEqual(inRequirements.problems.map((p) => relative(inRequirements.root, p.location.path)), ['requirements.yaml']);
    });

    describe('a chart helm would read outside of, or wait on, is not rendered (helm is never run)', () => {
      const notRun = { helm: '/nonexistent/helm-must-not-run' };
      const said = (unit: Awaited<ReturnType<typeof render>>) => unit.problems.map((p) => `${relative(unit.root, p.location.path)}:${p.location.line + 1} ${p.severity} ${p.message}`);

      it('a link out of the chart (its file was printed into the report by .Files.Get)', { skip: process.platform === 'win32' && 'links' }, async () => {
        const chart = writeChart(subchartChart);
        const secret = join(mkdtempSync(join(tmpdir(), 'kr-outside-')), 'secret.txt');
        writeFileSync(secret, 'SECRET\n');
        symlinkSync(secret, join(chart, 'data.txt'));
        const unit = await render(chart, notRun);
        assert.deepEqual(said(unit), [`Chart.yaml:1 warning Chart shop is not analysed: data.txt is a link to ${secret}, outside the chart, which helm would read; it is not rendered.`]);
      });

      it('a FIFO (it held the render for its whole timeout)', { skip: process.platform === 'win32' && 'FIFOs' }, async () => {
        const chart = writeChart(subchartChart);
        execFileSync('mkfifo', [join(chart, '.helmignore')]);
        assert.deepEqual(said(await render(chart, notRun)), ['Chart.yaml:1 warning Chart shop is not analysed: .helmignore is not a regular file (a FIFO or a device would hold the render); it is not rendered.']);
      });

      it("a values schema whose $ref is a URL or a file (helm fetched it, or read a file outside the chart)", async () => {
        for (const ref of ['http://127.0.0.1:9/schema.json', 'file:///etc/passwd']) {
          const chart = writeChart({ ...subchartChart, 'charts/cart/values.schema.json': `{\n  "type": "object",\n  "properties": {\n    "image": { "$ref": "#/definitions/image" },\n    "replicaCount": { "$ref": "${ref}" }\n  }\n}\n` });
          assert.deepEqual(said(await render(chart, notRun)), [`charts/cart/values.schema.json:5 warning Chart shop is not analysed: its values schema refers to ${ref} ($ref), which helm would fetch or read outside the chart; it is not rendered.`]);
        }
      });

      it('a values schema reached through a link, and one packed in a subchart archive, are read too', { skip: process.platform === 'win32' && 'links' }, async () => {
        const ref = 'https://example.com/s.json';
        const linked = writeChart({ ...subchartChart, 'schemas/values.json': `{"$ref": "${ref}"}\n` });
        symlinkSync(join(linked, 'schemas', 'values.json'), join(linked, 'values.schema.json'));
        assert.deepEqual(said(await render(linked, notRun)), [`values.schema.json:1 warning Chart shop is not analysed: its values schema refers to ${ref} ($ref), which helm would fetch or read outside the chart; it is not rendered.`]);
        const linkedArchive = writeChart({ ...subchartChart, 'charts/cart/values.schema.json': `{"$ref": "${ref}"}\n` });
        mkdirSync(join(linkedArchive, 'packed'));
        execFileSync(tools.helm, ['package', join(linkedArchive, 'charts', 'cart'), '--destination', join(linkedArchive, 'packed')]);
        rmSync(join(linkedArchive, 'charts', 'cart'), { recursive: true });
        symlinkSync(join(linkedArchive, 'packed', 'cart-0.1.0.tgz'), join(linkedArchive, 'charts', 'cart-0.1.0.tgz'));
        assert.match(said(await render(linkedArchive, notRun))[0] ?? '', /the values schema packed in charts\/cart-0\.1\.0\.tgz refers to https:\/\/example\.com\/s\.json/, 'a packed subchart reached through a link');
        const packed = writeChart({ ...subchartChart, 'charts/cart/values.schema.json': `{"$ref": "${ref}"}\n` });
        execFileSync(tools.helm, ['package', join(packed, 'charts', 'cart'), '--destination', join(packed, 'charts')]);
        rmSync(join(packed, 'charts', 'cart'), { recursive: true });
        assert.deepEqual(said(await render(packed, notRun)), [`Chart.yaml:1 warning Chart shop is not analysed: the values schema packed in ${join('charts', 'cart-0.1.0.tgz')} refers to ${ref} ($ref), which helm would fetch or read outside the chart; it is not rendered.`]);
        // A subchart packed inside the packed one, kept packed there (tar'd by hand: helm's own packing unpacks it).
        const nested = writeChart({ ...subchartChart, 'charts/cart/charts/db/Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n', 'charts/cart/charts/db/values.schema.json': `{"$ref": "${ref}"}\n` });
        execFileSync(tools.helm, ['package', join(nested, 'charts', 'cart', 'charts', 'db'), '--destination', join(nested, 'charts', 'cart', 'charts')]);
        rmSync(join(nested, 'charts', 'cart', 'charts', 'db'), { recursive: true });
        execFileSync('tar', ['-czf', join(nested, 'charts', 'cart-0.1.0.tgz'), '-C', join(nested, 'charts'), 'cart']);
        rmSync(join(nested, 'charts', 'cart'), { recursive: true });
        assert.match(said(await render(nested, notRun))[0] ?? '', /the values schema packed in charts\/cart-0\.1\.0\.tgz refers to https:\/\/example\.com\/s\.json/);
      });

      it("what the top chart's .helmignore leaves unread is not looked at (a Python virtualenv's links out of it refused the chart), as helm reads it", { skip: process.platform === 'win32' && 'links' }, async () => {
        const chart = writeChart({ ...subchartChart, '.helmignore': '# tools\n.venv/\n*.bak\n/top-only\n[!a]*.tmp\ncharts/cart/scratch/\n', 'charts/cart/.helmignore': 'x\n' });
        mkdirSync(join(chart, '.venv', 'bin'), { recursive: true });
        symlinkSync('/usr/bin/env', join(chart, '.venv', 'bin', 'python'));
        symlinkSync('/etc/hostname', join(chart, 'notes.bak'));
        symlinkSync('/etc/hostname', join(chart, 'top-only'));
        symlinkSync('/etc/hostname', join(chart, '!.tmp'));
        mkdirSync(join(chart, 'charts', 'cart', 'scratch'));
        symlinkSync('/etc/hostname', join(chart, 'charts', 'cart', 'scratch', 'x'));
        assert.deepEqual((await render(chart)).problems, []);
        const outside = realpathSync('/etc/hostname');
        const refusedFor = async (link: string, target = '/etc/hostname') => {
          symlinkSync(target, join(chart, link));
          const refused = said(await render(chart, notRun));
          rmSync(join(chart, link));
          return refused;
        };
        // A subchart's own .helmignore is not read by helm; a leading / anchors at the chart's folder; [!a] is no negation in Go.
        assert.deepEqual(await refusedFor(join('charts', 'cart', 'x')), [`Chart.yaml:1 warning Chart shop is not analysed: ${join('charts', 'cart', 'x')} is a link to ${outside}, outside the chart, which helm would read; it is not rendered.`]);
        assert.deepEqual(await refusedFor(join('templates', 'top-only')), [`Chart.yaml:1 warning Chart shop is not analysed: ${join('templates', 'top-only')} is a link to ${outside}, outside the chart, which helm would read; it is not rendered.`]);
        assert.deepEqual(await refusedFor('b.tmp'), [`Chart.yaml:1 warning Chart shop is not analysed: b.tmp is a link to ${outside}, outside the chart, which helm would read; it is not rendered.`]);
        // Helm reads a linked folder again under the link's name, where the rules match otherwise.
        assert.deepEqual(await refusedFor('tools', join(chart, '.venv')), ['Chart.yaml:1 warning Chart shop is not analysed: tools is a link to the folder .venv, which helm reads again through the link; it is not rendered.']);
        assert.deepEqual(await refusedFor('more', join(chart, 'templates')), ['Chart.yaml:1 warning Chart shop is not analysed: more is a link to the folder templates, which helm reads again through the link; it is not rendered.']);
        // One trailing / is stripped, as Helm does: `notes//` is no rule for the folder notes/; hidden files in templates/ are never read.
        writeFileSync(join(chart, '.helmignore'), `${readFileSync(join(chart, '.helmignore'), 'utf8')}notes//\n`);
        mkdirSync(join(chart, 'notes'));
        assert.deepEqual(await refusedFor(join('notes', 'x')), [`Chart.yaml:1 warning Chart shop is not analysed: ${join('notes', 'x')} is a link to ${outside}, outside the chart, which helm would read; it is not rendered.`]);
        symlinkSync('/etc/hostname', join(chart, 'templates', '.hidden'));
        assert.deepEqual((await render(chart)).problems, [], 'helm never reads it');
      });

      it('a values schema is read as JSON: an escaped $ref key, a $dynamicRef, an unpublished $schema are references too', async () => {
        const cases: [string, string][] = [
          ['{"\\u0024ref": "http://127.0.0.1:9/s.json"}', 'http://127.0.0.1:9/s.json ($ref)'],
          ['{"properties": {"a": {"$dynamicRef": "http://127.0.0.1:9/d.json"}}}', 'http://127.0.0.1:9/d.json ($dynamicRef)'],
          ['{"$schema": "http://127.0.0.1:9/meta.json"}', 'http://127.0.0.1:9/meta.json ($schema)'],
        ];
        for (const [schema, ref] of cases) {
          const chart = writeChart({ ...subchartChart, 'values.schema.json': `${schema}\n` });
          assert.deepEqual(said(await render(chart, notRun)), [`values.schema.json:1 warning Chart shop is not analysed: its values schema refers to ${ref}, which helm would fetch or read outside the chart; it is not rendered.`], schema);
        }
        const published = writeChart({ ...subchartChart, 'values.schema.json': '{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"replicaCount": {"$ref": "#/definitions/n"}}, "definitions": {"n": {"type": "integer"}}}\n' });
        assert.deepEqual((await render(published)).problems, []);
      });

      it('a reference however deep in the schema, or a $schema under json-schema.org that is no published draft, is one too (past 256 levels helm read /etc/passwd; any path there was fetched)', async () => {
        const deep = (ref: string) => `${'{"type": "object", "properties": {"a": '.repeat(300)}{"$ref": "${ref}"}${'}}'.repeat(300)}`;
        const cases: [string, string][] = [
          [deep('file:///etc/passwd'), 'file:///etc/passwd ($ref)'],
          ['{"$schema": "https://json-schema.org/not-a-draft/schema"}', 'https://json-schema.org/not-a-draft/schema ($schema)'],
          ['{"$schema": "http://json-schema.org/draft-05/schema#"}', 'http://json-schema.org/draft-05/schema# ($schema)'],
        ];
        for (const [schema, ref] of cases) {
          const chart = writeChart({ ...subchartChart, 'values.schema.json': `${schema}\n` });
          assert.deepEqual(said(await render(chart, notRun)), [`values.schema.json:1 warning Chart shop is not analysed: its values schema refers to ${ref}, which helm would fetch or read outside the chart; it is not rendered.`], ref);
        }
        for (const draft of ['http://json-schema.org/draft-04/schema#', 'https://json-schema.org/draft/2019-09/schema', 'https://json-schema.org/draft/2020-12/schema']) {
          assert.deepEqual((await render(writeChart({ ...subchartChart, 'values.schema.json': `{"$schema": "${draft}"}\n` }))).problems, [], draft);
        }
      });

      it('a link in the chart\'s .git folder is looked at as any other, unless .helmignore leaves .git out (helm loads it: `.Files.Get ".git/pw"` read /etc/passwd)', { skip: process.platform === 'win32' && 'links' }, async () => {
        const chart = writeChart({ ...subchartChart, '.git/HEAD': 'ref: refs/heads/main\n' });
        symlinkSync('/etc/hostname', join(chart, '.git', 'pw'));
        assert.deepEqual(said(await render(chart, notRun)), [`Chart.yaml:1 warning Chart shop is not analysed: ${join('.git', 'pw')} is a link to ${realpathSync('/etc/hostname')}, outside the chart, which helm would read; it is not rendered.`]);
        writeFileSync(join(chart, '.helmignore'), '.git/\n');
        assert.deepEqual((await render(chart)).problems, [], 'left out by .helmignore, helm never reads it');
      });

      it('a chart of more files than any chart is not looked through, so not rendered (past the bound it rendered unchecked)', async () => {
        const files: Record<string, string> = { ...subchartChart };
        for (let i = 0; i <= 10_000; i++) files[`files/f${i}.txt`] = '';
        assert.deepEqual(said(await render(writeChart(files), notRun)), ['Chart.yaml:1 warning Chart shop is not analysed: it holds more than 10,000 files and folders that .helmignore does not leave out, more than any chart; it is not rendered.']);
      });

      it('links inside the chart and references inside a schema are rendered', { skip: process.platform === 'win32' && 'links' }, async () => {
        const chart = writeChart({ ...subchartChart, 'files/extra.yaml': 'x: 1\n', 'values.schema.json': '{"definitions": {"n": {"type": "integer"}}, "properties": {"replicaCount": {"$ref": "#/definitions/n"}}}\n' });
        symlinkSync(join(chart, 'files', 'extra.yaml'), join(chart, 'extra.yaml'));
        const unit = await render(chart);
        assert.deepEqual(unit.problems, []);
        assert.match(unit.text, /kind: Deployment/);
      });
    });

    it('a chart that renders more documents than are analysed is said so, and not analysed (600,000 ConfigMaps took 72 s and 2.2 GB)', async () => {
      const chart = writeChart({ 'Chart.yaml': 'apiVersion: v2\nname: many\nversion: 0.1.0\n', 'templates/cm.yaml': `{{- range until ${MAX_RENDERED_DOCUMENTS + 1} }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{{ . }}\n{{- end }}\n` });
      const unit = await render(chart);
      assert.deepEqual([unit.text, unit.problems.map((p) => `${relative(unit.root, p.location.path)} ${p.message}`)], ['', ['Chart.yaml Chart many renders more than 20,000 documents, more than is analysed: it is not analysed']]);
    });

    it("the shell's HELM_ settings are not the render's (HELM_NAMESPACE rendered another namespace than the one asked for)", async () => {
      const chart = writeChart({ ...subchartChart, 'templates/guard.yaml': '{{- if ne .Release.Namespace "default" }}{{ fail (printf "rendered in %s" .Release.Namespace) }}{{- end }}\n' });
      assert.deepEqual((await render(chart, { env: { ...process.env, HELM_NAMESPACE: 'prod' } })).problems, []);
    });

    it('a render error is placed at the template line and column Helm names, in Helm\'s words', async () => {
      const unit = await render(writeChart(renderErrorChart));
      assert.equal(unit.problems.length, 1);
      const [problem] = unit.problems;
      assert.equal(problem.location.path, join(unit.root, 'templates', 'configmap.yaml'));
      assert.equal(problem.location.line, 5);
      assert.equal(problem.location.character, 19);
      assert.equal(problem.severity, 'error');
      assert.match(problem.message, /^helm template failed for chart broken: .*nil pointer evaluating interface \{\}\.region/);
    });

    it('values the chart\'s schema refuses: the error is placed on the key\'s line in the values file that sets it (it was on Chart.yaml)', async () => {
      const schema = '{"type": "object", "properties": {"replicaCount": {"type": "integer"}, "image": {"type": "object", "properties": {"tag": {"type": "string"}}}}}';
      const chart = writeChart({ 'Chart.yaml': 'apiVersion: v2\nname: typed\nversion: 0.1.0\n', 'values.yaml': '# how many\nreplicaCount: two\nimage:\n  tag: "1.27"\n', 'values.schema.json': schema, 'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {n: "{{ .Values.replicaCount }}"}\n' }, 'typed');
      const [own] = (await render(chart)).problems;
      assert.equal(`${relative(chart, own.location.path)}:${own.location.line + 1}`, 'values.yaml:2', own.message);
      const prod = join(chart, '..', 'typed-prod.yaml');
      writeFileSync(prod, 'replicaCount: 2\nimage:\n  tag: 7\n');
      const [fromProd] = (await render(chart, { valuesFiles: [prod] })).problems;
      assert.equal(`${fromProd.location.path}:${fromProd.location.line + 1}`, `${prod}:3`, fromProd.message);
    });

    it('`required` failing is placed at the template line that requires it', async () => {
      const unit = await render(writeChart(requiredChart));
      assert.equal(unit.problems.length, 1);
      assert.equal(unit.problems[0].location.path, join(unit.root, 'templates', 'deployment.yaml'));
      assert.equal(unit.problems[0].location.line, 18);
      assert.match(unit.problems[0].message, /image is required: set it to the app's image/);
    });

    it('hooks and test pods: a pre-install Deployment with one replica and a test pod the PDB and Service select raise nothing', async () => {
      const unit = await render(writeChart(hooksChart));
      assert.match(unit.text, /helm.sh\/hook": pre-install,pre-upgrade/);
      assert.deepEqual(table(placedFindings(unit)), []);
    });
  });
});
