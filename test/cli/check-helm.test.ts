// `kube-resilience check` on a real Helm chart with the real helm: findings on template and values lines,
// the Helm flags, --fix in values files and templates, and what happens without helm.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { renderTools } from '../render/render-tools';
import { canListProcesses, runningTools, until } from '../render/running-tools';
import { CLI, runCli } from './run-cli';

const tools = renderTools();
const PODINFO = resolve([join('..', 'shared'), join('..', '..', 'shared')].map((dir) => join(dir, 'corpus-rendered', 'podinfo', 'charts', 'podinfo')).find((dir) => existsSync(dir)) ?? 'no-podinfo-chart');
const withHelm = { PATH: [tools.folder ?? '', process.env.PATH].join(delimiter) };
const withoutHelm = { PATH: '/nonexistent' };



function chartCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'kube-resilience-cli-chart-')), 'podinfo');
  cpSync(PODINFO, dir, { recursive: true });
  return dir;
}

/** `rule file:line` for each finding, the file relative to the chart. */
function placed(stdout: string, chart: string): string[] {
  return JSON.parse(stdout).findings.map((f: any) => `${f.ruleId} ${String(f.file).replace(`${chart}/`, '')}:${f.range.start.line + 1}`);
}

describe('check on a Helm chart', { skip: (!existsSync(CLI) && 'dist/cli.js is not built') || tools.skip || (!existsSync(PODINFO) && 'the podinfo chart is not present') }, () => {
  it('one template of a chart named: the summary counts the files its findings point into too (it said "7 findings in 1 file" of findings in 5)', async () => {
    const chart = chartCopy();
    const run = await runCli(['check', join(chart, 'templates', 'deployment.yaml'), '--fail-on', 'none'], withHelm);
    const files = run.stdout.split('\n').filter((line) => line.startsWith(chart));
    assert.ok(files.length > 1, run.stdout);
    assert.match(run.stdout.trimEnd().split('\n').at(-1)!, new RegExp(` in ${files.length} files$`));
  });

  it('podinfo: findings on its template and values lines, each naming the chart it was rendered from, and no "not analysed" notices', async () => {
    const chart = chartCopy();
    const run = await runCli(['check', chart, '--format', 'json', '--fail-on', 'none'], withHelm);
    assert.equal(run.status, 0, run.stderr);
    const findings = placed(run.stdout, chart);
    assert.ok(findings.includes('single-replica templates/deployment.yaml:10'), findings.join('\n'));
    assert.ok(findings.includes('single-replica values.yaml:3'), findings.join('\n'));
    assert.deepEqual(findings.filter((f) => f.startsWith('templated-file')), []);
    const single = JSON.parse(run.stdout).findings.find((f: any) => f.ruleId === 'single-replica');
    assert.deepEqual(single.rendered, { tool: 'helm', unit: chart });
    assert.match(single.message, /\(from values key replicaCount in values\.yaml\)/);
  });

  it('SARIF: results on template lines say which chart rendered them', async () => {
    const chart = chartCopy();
    const run = await runCli(['check', chart, '--format', 'sarif', '--sarif-root', join(chart, '..'), '--fail-on', 'none'], withHelm);
    const results = JSON.parse(run.stdout).runs[0].results;
    const single = results.find((r: any) => r.ruleId === 'single-replica' && r.locations[0].physicalLocation.artifactLocation.uri === 'podinfo/templates/deployment.yaml');
    assert.ok(single, run.stdout.slice(0, 2000));
    assert.deepEqual(single.properties, { rendered: { tool: 'helm', unit: 'podinfo' } });
  });

  it('--values, --release and --namespace render as the environment deploys', async () => {
    const chart = chartCopy();
    const run = await runCli(['check', chart, '--values', join(chart, 'values-prod.yaml'), '--release', 'web', '--namespace', 'shop', '--format', 'json', '--fail-on', 'none'], withHelm);
    const findings = placed(run.stdout, chart);
    assert.ok(findings.includes('hpa-min-one values-prod.yaml:4'), findings.join('\n'));
    assert.match(run.stdout, /HorizontalPodAutoscaler shop\/web-podinfo scales to 1 pod: .* With minReplicas 1,/);
  });

  it('a --namespace that is no namespace name is refused before anything renders (`a/b` named every finding `a/b/web`)', async () => {
    const chart = chartCopy();
    for (const namespace of ['a/b', 'Shop', '-x', 'x'.repeat(64)]) {
      const run = await runCli(['check', chart, `--namespace=${namespace}`], withHelm);
      assert.equal(run.status, 2, namespace);
      assert.equal(run.stderr, `kube-resilience check: --namespace ${JSON.stringify(namespace)} is no namespace name: lowercase letters, digits and '-', at most 63, starting and ending with a letter or digit\n`);
    }
  });

  it('a --values file that cannot be read (missing, a FIFO) is an unreadable path: exit 2 at once, helm never waits on it', { skip: process.platform === 'win32' }, async () => {
    const chart = chartCopy();
    const fifo = join(chart, '..', 'values-fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    for (const [file, reason] of [[fifo, 'not a regular file'], [join(chart, 'nowhere.yaml'), 'no such file or directory']]) {
      const run = await runCli(['check', chart, '--values', file], withHelm);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`^kube-resilience check: cannot read --values ${file}: ${reason}`));
    }
  });

  it('Ctrl-C ends the helm it started (in its own process group, helm gets no Ctrl-C of its own), exit 130', { skip: !canListProcesses && 'no /proc to list processes' }, async () => {
    const chart = chartCopy();
    writeFileSync(join(chart, 'templates', 'many.yaml'), '{{- range $i := until 3000000 }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{{ $i }}\n{{- end }}\n');
    const release = `ctrl-c-${process.pid}-${Date.now()}`;
    const helms = () => runningTools('helm', release);
    const cli = spawn(process.execPath, [CLI, 'check', chart, '--release', release], { env: { ...process.env, ...withHelm }, stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => cli.on('exit', (code) => done(code)));
    await until(() => helms().length > 0, 30_000, 'helm started');
    cli.kill('SIGINT');
    assert.equal(await exited, 130);
    await until(() => helms().length === 0, 5_000, 'no helm left running');
  });

  it('--set wins over the values files', async () => {
    const chart = chartCopy();
    const run = await runCli(['check', chart, '--set', 'replicaCount=3', '--format', 'json', '--fail-on', 'none'], withHelm);
    assert.deepEqual(placed(run.stdout, chart).filter((f) => f.startsWith('single-replica')), []);
    const one = await runCli(['check', chart, '--set', 'replicaCount=1', '--format', 'json', '--fail-on', 'none'], withHelm);
    const single = JSON.parse(one.stdout).findings.find((f: any) => f.ruleId === 'single-replica');
    assert.match(single.message, /\(from values key replicaCount, set with --set\)/, 'not credited to values.yaml');
    assert.deepEqual(placed(one.stdout, chart).filter((f) => f.startsWith('single-replica values')), []);
    // Why its fix is not written: in the JSON, and in the text under --verbose.
    assert.deepEqual(single.unwrittenFixes, [{ title: 'Run 2 replicas', reason: 'values key replicaCount is set with --set: change it where --set is given' }]);
    const verbose = await runCli(['check', chart, '--set', 'replicaCount=1', '--verbose', '--fail-on', 'none'], withHelm);
    assert.match(verbose.stdout, /single-replica\n(?:.*\n)*? +Not written \(Run 2 replicas\): values key replicaCount is set with --set: change it where --set is given\.\n/);
    const plain = await runCli(['check', chart, '--set', 'replicaCount=1', '--fail-on', 'none'], withHelm);
    assert.doesNotMatch(plain.stdout, /Not written/, 'only under --verbose');
  });

  it('a --values file given for two charts: a fix written there is unsafe, naming the other chart (a safe fix of one gave the other\'s database a second replica)', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'kube-resilience-cli-charts-'));
    for (const name of ['shop', 'other']) cpSync(PODINFO, join(tree, name), { recursive: true });
    const common = join(tree, 'common.yaml');
    writeFileSync(common, '# shared by every chart\nreplicaCount: 1\n');
    const run = await runCli(['check', join(tree, 'shop'), join(tree, 'other'), '--values', common, '--format', 'json', '--fail-on', 'none'], withHelm);
    const singles = JSON.parse(run.stdout).findings.filter((f: any) => f.ruleId === 'single-replica');
    assert.deepEqual(singles.map((f: any) => f.file.replace(`${tree}/`, '')).sort(), ['common.yaml', 'other/templates/deployment.yaml', 'shop/templates/deployment.yaml'], run.stdout.slice(0, 2000));
    for (const single of singles) {
      const [preferred] = single.fixes.filter((x: any) => x.preferred);
      assert.match(preferred.unsafe, /^it edits common\.yaml, which chart (shop|other) renders from too$/);
      assert.ok(!preferred.unsafe.includes(single.file.includes('/shop/') ? 'shop' : 'other'), 'the other chart, not its own');
    }
    await runCli(['check', join(tree, 'shop'), join(tree, 'other'), tree, '--values', common, '--fix', '--fail-on', 'none'], withHelm);
    assert.equal(readFileSync(common, 'utf8'), '# shared by every chart\nreplicaCount: 1\n');
    const alone = await runCli(['check', join(tree, 'shop'), '--values', join(tree, 'shop', 'values.yaml'), '--format', 'json', '--fail-on', 'none'], withHelm);
    assert.ok(JSON.parse(alone.stdout).findings.some((f: any) => f.ruleId === 'single-replica' && f.fixes.some((x: any) => x.preferred && !x.unsafe)), 'one chart: safe as before');
  });

  it('--fix edits values.yaml and writes a PDB template; a second check finds none of the fixed findings', async () => {
    const chart = chartCopy();
    const before = placed((await runCli(['check', chart, '--format', 'json', '--fail-on', 'none'], withHelm)).stdout, chart);
    const fixed = await runCli(['check', chart, '--fix', '--format', 'json', '--fail-on', 'none'], withHelm);
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.match(readFileSync(join(chart, 'values.yaml'), 'utf8'), /^# Default values for podinfo\.\n\nreplicaCount: 2\n/);
    const again = placed((await runCli(['check', chart, '--format', 'json', '--fail-on', 'none'], withHelm)).stdout, chart);
    assert.ok(before.includes('single-replica values.yaml:3'));
    assert.deepEqual(again.filter((f) => f.startsWith('single-replica')), []);
    assert.match(readFileSync(join(chart, 'templates', 'podinfo-pdb.yaml'), 'utf8'), /include "podinfo.selectorLabels" \. \| nindent 6/);
    assert.deepEqual(again.filter((f) => f.startsWith('pdb-missing')), []);
  });

  it('--fix with a file named that cannot be read (a FIFO) refuses the run before writing anything in the chart', { skip: process.platform === 'win32' }, async () => {
    const chart = chartCopy();
    const values = readFileSync(join(chart, 'values.yaml'), 'utf8');
    const fifo = join(chart, '..', 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    const run = await runCli(['check', '--fix', '--unsafe-fixes', chart, fifo], withHelm);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /cannot read .*pipe\.yaml: not a regular file \(a FIFO\)/);
    assert.doesNotMatch(run.stderr, /applied/);
    assert.equal(readFileSync(join(chart, 'values.yaml'), 'utf8'), values);
    assert.equal(existsSync(join(chart, 'templates', 'podinfo-pdb.yaml')), false);
  });

  it('--fix writes nothing through a link out of the chart (values.yaml linked from elsewhere): the chart is not rendered, and the report says which link', { skip: process.platform === 'win32' }, async () => {
    const chart = chartCopy();
    const outside = join(mkdtempSync(join(tmpdir(), 'kr-outside-')), 'values.yaml');
    renameSync(join(chart, 'values.yaml'), outside);
    symlinkSync(outside, join(chart, 'values.yaml'));
    const before = readFileSync(outside);
    const fixed = await runCli(['check', chart, '--fix', '--fail-on', 'none', '--format', 'json'], withHelm);
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.deepEqual(readFileSync(outside), before);
    const said = JSON.parse(fixed.stdout).findings.map((f: { ruleId: string; message: string }) => `${f.ruleId} ${f.message}`);
    assert.deepEqual(said, [`helm-render Chart podinfo is not analysed: values.yaml is a link to ${realpathSync(outside)}, outside the chart, which helm would read; it is not rendered.`]);
  });

  it('--fix writes nothing into a --values file outside the folder named, and says so once, with no link to speak of', async () => {
    const chart = chartCopy();
    const outside = join(mkdtempSync(join(tmpdir(), 'kr-outside-')), 'prod.yaml');
    writeFileSync(outside, 'replicaCount: 1\n');
    const fixed = await runCli(['check', chart, '--values', outside, '--fix', '--fail-on', 'none'], withHelm);
    assert.equal(fixed.status, 2, fixed.stderr);
    assert.equal(readFileSync(outside, 'utf8'), 'replicaCount: 1\n');
    const said = fixed.stderr.split('\n').filter((line) => line.includes(`not fixed single-replica: ${outside}`));
    assert.deepEqual(said.map((line) => line.replace(/^.*: outside /, 'outside ')), [`outside ${chart}: not written; the fix's files were left as they were`], fixed.stderr);
  });

  it('--fix takes back a fix after which the chart no longer renders (a `fail` guard on the value it set), says why once, exits 2', async () => {
    const chart = chartCopy();
    writeFileSync(join(chart, 'templates', 'one-replica.yaml'), '{{- if gt (int .Values.replicaCount) 1 }}{{ fail "podinfo here keeps sessions in memory: one replica" }}{{- end }}\n');
    const values = readFileSync(join(chart, 'values.yaml'));
    const fixed = await runCli(['check', chart, '--fix', '--format', 'json', '--fail-on', 'none'], withHelm);
    assert.equal(fixed.status, 2, fixed.stderr);
    assert.deepEqual(readFileSync(join(chart, 'values.yaml')), values, 'values.yaml byte for byte');
    const said = fixed.stderr.split('\n').filter((line) => line.includes('not fixed'));
    assert.equal(said.length, 1, fixed.stderr);
    assert.match(said[0], /^  not fixed single-replica: .*podinfo: it no longer renders with the fix \(helm template failed for chart podinfo: .*podinfo here keeps sessions in memory: one replica\); the fix's files were left as they were$/);
    const again = await runCli(['check', chart, '--format', 'json', '--fail-on', 'none'], withHelm);
    assert.doesNotMatch(again.stdout + again.stderr, /helm template failed/);
    assert.ok(placed(again.stdout, chart).includes('single-replica values.yaml:3'));
  });

  it('--fix takes back a fix that leaves its finding in place (the branch of an `if` not taken), says why, exits 2; the branch taken is the one fixed when the template tells', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-resilience-cli-branches-'));
    const deployment = (ha: string, single: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-web\nspec:\n  {{- if .Values.ha }}\n  replicas: ${ha}\n  {{- else }}\n  replicas: ${single}\n  {{- end }}\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n        - {name: web, image: "web:1"}\n`;
    const chart = (name: string, template: string, values: string) => {
      const root = join(dir, name);
      for (const [file, text] of Object.entries({ 'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`, 'values.yaml': values, 'templates/web.yaml': template })) {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), text);
      }
      return root;
    };
    // Both branches print a values key, and both keys hold the value rendered: nothing tells which rendered.
    const both = chart('both', deployment('{{ .Values.haReplicas }}', '{{ .Values.replicaCount }}'), '# HA mode\nha: false\nhaReplicas: 1\nreplicaCount: 1\n');
    const fixed = await runCli(['check', both, '--fix', '--rule', 'pdb-missing=off', '--rule', 'replicas-not-spread=off', '--fail-on', 'none'], withHelm);
    assert.equal(fixed.status, 2, fixed.stderr);
    const said = fixed.stderr.split('\n').filter((line) => line.includes('not fixed'));
    assert.equal(said.length, 1, 'tried and said once, though the template line and the values line both offer it');
    assert.match(said[0], /not fixed single-replica: .*values\.yaml: the fix leaves the finding in place \(what it edits is not what renders\), so it was taken back; the fix's files were left as they were/);
    assert.equal(readFileSync(join(both, 'values.yaml'), 'utf8'), '# HA mode\nha: false\nhaReplicas: 1\nreplicaCount: 1\n', 'haReplicas is not raised to 2 for nothing');
    // The values tell: replicaCount holds the 1 rendered, haReplicas 3.
    const told = chart('told', deployment('{{ .Values.haReplicas }}', '{{ .Values.replicaCount }}'), 'ha: false\nhaReplicas: 3\nreplicaCount: 1\n');
    assert.equal((await runCli(['check', told, '--fix', '--rule', 'pdb-missing=off', '--rule', 'replicas-not-spread=off', '--fail-on', 'none'], withHelm)).status, 0);
    assert.equal(readFileSync(join(told, 'values.yaml'), 'utf8'), 'ha: false\nhaReplicas: 3\nreplicaCount: 2\n');
    const literal = chart('literal', deployment('3', '1'), 'ha: false\n');
    const done = await runCli(['check', literal, '--fix', '--rule', 'pdb-missing=off', '--rule', 'replicas-not-spread=off', '--fail-on', 'none'], withHelm);
    assert.equal(done.status, 0, done.stderr);
    assert.match(readFileSync(join(literal, 'templates', 'web.yaml'), 'utf8'), /replicas: 3\n {2}\{\{- else \}\}\n {2}replicas: 2\n/);
  });

  it('Ctrl-C while the chart renders again after a fix puts that fix back (it was never checked), exit 130', { skip: !canListProcesses && 'no /proc to list processes' }, async () => {
    const chart = chartCopy();
    // Quick to render with one replica, minutes with more: the render that checks the replicas fix is the slow one.
    writeFileSync(join(chart, 'templates', 'slow.yaml'), '{{- if gt (int .Values.replicaCount) 1 }}{{- range $i := until 3000000 }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{{ $i }}\n{{- end }}{{- end }}\n');
    const valuesPath = join(chart, 'values.yaml');
    const values = readFileSync(valuesPath);
    const release = `fix-ctrl-c-${process.pid}-${Date.now()}`;
    const cli = spawn(process.execPath, [CLI, 'check', chart, '--fix', '--release', release], { env: { ...process.env, ...withHelm }, stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => cli.on('exit', (code) => done(code)));
    await until(() => !readFileSync(valuesPath).equals(values) && runningTools('helm', release).length > 0, 60_000, 'the replicas fix written and its chart rendering again');
    cli.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.deepEqual(readFileSync(valuesPath), values, 'values.yaml as it was, byte for byte');
    await until(() => runningTools('helm', release).length === 0, 5_000, 'no helm left running');
  });

  it('renders two charts at a time, each reported in its order: one by one, N charts that hang took N deadlines', { skip: process.platform === 'win32' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-resilience-cli-charts-'));
    const log = join(dir, 'runs.log');
    // A helm that takes a second and says when it starts and ends: how many ran at once is read from its log.
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'helm'), `#!/bin/sh\necho start >> ${log}\nsleep 1\necho end >> ${log}\necho "helm: chart $(basename "$PWD") failed on purpose" >&2\nexit 1\n`, { mode: 0o755 });
    const charts = ['c1', 'c2', 'c3', 'c4', 'c5'];
    for (const chart of charts) {
      mkdirSync(join(dir, chart, 'templates'), { recursive: true });
      writeFileSync(join(dir, chart, 'Chart.yaml'), `apiVersion: v2\nname: ${chart}\nversion: 0.1.0\n`);
    }
    const run = await runCli(['check', ...charts.map((c) => join(dir, c)), '--fail-on', 'none'], { PATH: [join(dir, 'bin'), process.env.PATH].join(delimiter) });
    let running = 0;
    let most = 0;
    for (const line of readFileSync(log, 'utf8').trim().split('\n')) most = Math.max(most, (running += line === 'start' ? 1 : -1));
    assert.equal(most, 2, readFileSync(log, 'utf8'));
    assert.equal(readFileSync(log, 'utf8').match(/start/g)?.length, 5);
    const reported = [...run.stdout.matchAll(/chart (c\d) failed on purpose/g)].map((m) => m[1]);
    assert.deepEqual(reported, charts, run.stdout);
  });

  it('without helm: one stderr line naming it and how to get it, the files analysed as before, the exit code unchanged', async () => {
    const chart = chartCopy();
    const run = await runCli(['check', chart, '--format', 'json', '--fail-on', 'none'], withoutHelm);
    assert.equal(run.status, 0);
    assert.equal(run.stderr.split('\n').filter((l) => /helm/.test(l)).length, 1, run.stderr);
    assert.match(run.stderr, /helm was not found/);
    assert.ok(placed(run.stdout, chart).some((f) => f.startsWith('templated-file templates/deployment.yaml')));
  });
});
