import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as manifests from '../rules/manifests';
import { codeScanningProblems, schemaProblems } from '../output/sarif-checks';
import { handOver, unprivileged, unprivilegedNode } from '../files/unprivileged';

const CLI = resolve('dist/cli.js');

const deployment = (name: string, replicas: number) =>
  `# ${name}: owned by the web team\n${manifests.deployment({ name, namespace: 'shop', spec: `  replicas: ${replicas} # keep in sync with the dashboard\n`, container: '          env:\n            - name: MODE\n              value: "fast"\n' })}`;
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: "fast"\n';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

describe('kube-resilience check', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let dir: string;
  let otherRulesOff: string[];

  const cli = (args: string[], input?: string): Run => {
    const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '' } });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  /** Rules other engineers add must not change what these cases are about. */
  const only = (...ruleIds: string[]) => otherRulesOff.filter((arg) => !ruleIds.some((id) => arg === `${id}=off`)).flatMap((arg) => ['--rule', arg]);
  const json = (run: Run) => JSON.parse(run.stdout);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-cli-'));
    const rules = spawnSync(process.execPath, [CLI, 'rules'], { encoding: 'utf8' }).stdout;
    otherRulesOff = rules.split('\n').filter(Boolean).map((line) => `${line.split(/\s+/)[0]}=off`);
    assert.ok(otherRulesOff.includes('single-replica=off'), 'the rules command lists the rules');
    write('clean.yaml', CONFIG_MAP);
    write('single.yaml', deployment('cart', 1));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--fix passes over the files again while a pass writes one: a fix in a later file that brings findings in an earlier one leaves none fixable', () => {
    write('chain/deploy.yaml', manifests.deployment({ name: 'web' }));
    write('chain/hpa.yaml', manifests.hpa({ min: 1, max: 4 }));
    const rules = only('hpa-min-one', 'pdb-missing', 'replicas-not-spread');
    assert.match(cli(['check', 'chain', '--render', 'off', ...rules]).stdout, /hpa-min-one \(fixable\)/);
    const run = cli(['check', 'chain', '--render', 'off', '--fix', ...rules]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stderr, /applied 3 fixes in 2 files/);
    assert.match(readFileSync(join(dir, 'chain', 'deploy.yaml'), 'utf8'), /topologySpreadConstraints[\s\S]*kind: PodDisruptionBudget/);
    assert.equal(cli(['check', 'chain', '--render', 'off', ...rules]).status, 0, 'nothing left to fix');
  });

  it('--fix names a link out of the tree it cannot write once a fix elsewhere calls for one there (it had nothing to fix at first)', { skip: process.platform === 'win32' }, () => {
    write('outside-chain/deploy.yaml', manifests.deployment({ name: 'web' }));
    mkdirSync(join(dir, 'linked-chain'));
    symlinkSync(join(dir, 'outside-chain', 'deploy.yaml'), join(dir, 'linked-chain', 'a-deploy.yaml'));
    write('linked-chain/b-hpa.yaml', manifests.hpa({ min: 1, max: 4 }));
    const run = cli(['check', 'linked-chain', '--render', 'off', '--fix', ...only('hpa-min-one', 'pdb-missing', 'replicas-not-spread')]);
    assert.equal(run.status, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /unchanged linked-chain\/a-deploy\.yaml: a link to .*, outside linked-chain: not written/);
  });

  it('--fix with stdin says it leaves stdin alone, and a fixable finding there makes the run unclean: exit 2 (it exited 1)', () => {
    const run = cli(['check', '-', '--fix', ...only('single-replica')], deployment('piped', 1));
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /--fix leaves stdin alone \(nothing to write back to\)/);
    assert.equal(cli(['check', '-', '--fix', ...only('single-replica')], deployment('piped', 2)).status, 0, 'nothing to fix: clean');
  });

  it('--fix says which offered fix it could not apply (it did not take its finding away) and exits 2; it said nothing, exit 0', () => {
    // Spread by the pod labels, which this template leaves empty: the constraint written selects no pod.
    write('stuck/web.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata:\n      labels:\n    spec:\n      containers: [{name: web, image: "web:1"}]\n');
    assert.match(cli(['check', 'stuck', '--render', 'off', ...only('replicas-not-spread')]).stdout, /replicas-not-spread \(fixable\)/);
    const run = cli(['check', 'stuck', '--render', 'off', '--fix', ...only('replicas-not-spread')]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /not applied in stuck\/web\.yaml: the fix of replicas-not-spread did not take its finding away/);
  });

  it('--fix sets a mapping inside a flow mapping as JSON there (block lines inside the braces broke the file, so the fix was refused)', () => {
    // A rollingUpdate with no value: one with a value beside Recreate has the API server reject the Deployment.
    write('flow/web.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  strategy: {type: Recreate, rollingUpdate: null}\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: "web:1"}]\n');
    const run = cli(['check', 'flow', '--render', 'off', '--fix', ...only('recreate-drops-all')]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(readFileSync(join(dir, 'flow', 'web.yaml'), 'utf8'), /\n {2}strategy: \{type: "RollingUpdate", rollingUpdate: \{"maxUnavailable":0,"maxSurge":1\}\}\n/);
  });

  it('piped into a reader that stops early (| head -1): exits with its verdict, no EPIPE crash', async () => {
    write('many/single.yaml', Array.from({ length: 400 }, (_, i) => deployment(`app-${i}`, 1)).join('---\n'));
    const child = spawn(process.execPath, [CLI, 'check', 'many', '--render', 'off', '--format', 'json'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = await new Promise<[number | null]>((done) => child.on('close', (status) => done([status])));
    assert.equal(code, 1, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled|bug in kube-resilience/);
  });

  it('says in the JSON and SARIF reports which resource types the cluster did not let be read (a CI reading only the report saw nothing)', () => {
    write('partial/app.yaml', deployment('cart', 1));
    assert.equal(cli(['snapshot', '--demo', '-o', join('partial-cluster.json')]).status, 0);
    const snapshot = JSON.parse(readFileSync(join(dir, 'partial-cluster.json'), 'utf8'));
    snapshot.kubeResilience.missing = [{ resource: 'pods', reason: 'forbidden (403)' }];
    writeFileSync(join(dir, 'partial-cluster.json'), JSON.stringify(snapshot));
    const report = json(cli(['check', 'partial', '--snapshot', 'partial-cluster.json', '--format', 'json', '--fail-on', 'none']));
    assert.deepEqual(report.cluster, { source: 'snapshot', name: 'demo', missing: [{ resource: 'pods', reason: 'forbidden (403)' }] });
    const sarif = json(cli(['check', 'partial', '--snapshot', 'partial-cluster.json', '--format', 'sarif', '--fail-on', 'none']));
    assert.deepEqual(schemaProblems(sarif), []);
    assert.deepEqual(codeScanningProblems(sarif), []);
    assert.deepEqual(sarif.runs[0].invocations, [{ executionSuccessful: true, toolExecutionNotifications: [{ level: 'warning', message: { text: 'could not read pods from demo: forbidden (403) (findings that need them are missing too)' } }] }]);
    assert.equal(json(cli(['check', 'partial', '--format', 'json', '--fail-on', 'none'])).cluster, undefined, 'no cluster, no cluster field');
  });

  it('an empty --snapshot, --context or --kubeconfig (an unset shell variable) is a usage error: it dropped the cluster without a word', () => {
    for (const flag of ['--snapshot', '--context', '--kubeconfig']) {
      const run = cli(['check', 'single.yaml', flag, '']);
      assert.equal(run.status, 2, flag);
      assert.match(run.stderr, new RegExp(`${flag} takes an? (NAME|FILE), not an empty value`), flag);
    }
  });

  it('an empty path (an unset shell variable), or a --set that is no KEY=VALUE though no chart is met, is a usage error that says so', () => {
    const empty = cli(['check', '']);
    assert.deepEqual([empty.status, empty.stderr], [2, 'kube-resilience check: an empty path names no file or folder\n']);
    for (const assignment of ['=2', 'replicaCount']) {
      const run = cli(['check', 'single.yaml', '--set', assignment]);
      assert.deepEqual([run.status, run.stderr], [2, `kube-resilience check: --set takes KEY=VALUE (as helm does), not "${assignment}"\n`]);
    }
  });

  it('leaves a cluster snapshot lying among the manifests out of the analysis, says so, and still loads it with --snapshot', () => {
    write('live/app.yaml', deployment('cart', 1));
    const taken = cli(['snapshot', '--demo', '-o', join('live', 'cluster.json')]);
    assert.equal(taken.status, 0, taken.stderr);
    const run = cli(['check', 'live', '--format', 'json', '--fail-on', 'none']);
    assert.equal(run.status, 0, run.stderr);
    const files = new Set(json(run).findings.map((f: { file: string }) => f.file));
    assert.deepEqual([...files], [join('live', 'app.yaml')], 'no findings about the live pods and ReplicaSets of the snapshot');
    assert.match(run.stderr, /live[/\\]cluster\.json is a cluster snapshot \(live objects\), not manifests: left out \(load it with --snapshot /);
    const loaded = cli(['check', join('live', 'app.yaml'), '--snapshot', join('live', 'cluster.json'), '--format', 'json', '--fail-on', 'none']);
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.ok(json(loaded).findings.some((f: { ruleId: string }) => f.ruleId === 'single-replica'), 'the manifest is analysed against the snapshot');
    assert.doesNotMatch(loaded.stderr, /left out/);
    assert.match(cli(['check', 'live', '--fail-on', 'none']).stdout, /in 1 file\.?\n?$/, 'the text summary counts the manifests analysed, not the snapshot');
  });

  it('kernel interfaces named as files are refused with the reason, not read for ever (/proc/kmsg spun until killed) nor told as an error code (/proc/self/pagemap: EINVAL)', { skip: process.platform !== 'linux' }, () => {
    const pagemap = spawnSync(process.execPath, [CLI, 'check', '/proc/self/pagemap'], { encoding: 'utf8', timeout: 20_000 });
    assert.deepEqual([pagemap.status, pagemap.stderr], [2, 'kube-resilience check: cannot read /proc/self/pagemap: the system refuses to read it as a file (a kernel interface such as /proc/self/pagemap)\n']);
    const kmsg = spawnSync(process.execPath, [CLI, 'check', '/proc/kmsg'], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(kmsg.signal, null, 'it ended by itself');
    assert.equal(kmsg.status, 2);
    // Only root may open it: read, it says nothing is ready; for anyone else, it is not theirs to read. Never a hint to pipe it.
    assert.match(kmsg.stderr, /^kube-resilience check: cannot read \/proc\/kmsg: (it says nothing is ready to read, as a kernel interface does \(\/proc\/kmsg\): not a file's contents|permission denied|operation not permitted)\n$/);
  });

  describe('exit codes', () => {
    it('0 when clean', () => {
      const run = cli(['check', 'clean.yaml']);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.equal(run.stdout.trim(), 'No findings in 1 file.');
    });

    it('0 for hints, whatever --fail-on says', () => {
      assert.equal(cli(['check', 'single.yaml', '--fail-on', 'info', ...only('single-replica'), '--rule', 'single-replica=hint']).status, 0);
      assert.equal(cli(['check', 'single.yaml', '--fail-on', 'info', ...only('single-replica'), '--rule', 'single-replica=info']).status, 1);
    });

    it('0 for a folder without manifests, saying so on stderr', () => {
      mkdirSync(join(dir, 'empty'), { recursive: true });
      const run = cli(['check', 'empty']);
      assert.equal(run.status, 0);
      assert.match(run.stderr, /^kube-resilience check: no manifest found in empty/);
      assert.equal(run.stderr.trimEnd().split('\n').length, 1);
    });

    it('2 without a command, with the usage on stderr', () => {
      const run = cli([]);
      assert.equal(run.status, 2);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /Usage:\n {2}kube-resilience check/);
    });

    it('1 for a finding at or above --fail-on, 0 below it', () => {
      assert.equal(cli(['check', 'single.yaml', ...only('single-replica')]).status, 1, 'warning ≥ the default warning');
      assert.equal(cli(['check', 'single.yaml', '--fail-on', 'error', ...only('single-replica')]).status, 0);
      assert.equal(cli(['check', 'single.yaml', '--fail-on', 'none', ...only('single-replica')]).status, 0);
      assert.equal(cli(['check', 'single.yaml', '--fail-on', 'error', ...only('single-replica'), '--rule', 'single-replica=error']).status, 1);
      assert.equal(cli(['check', 'single.yaml', ...only('single-replica'), '--rule', 'single-replica=off']).status, 0);
      assert.equal(cli(['check', 'single.yaml', ...only('single-replica'), '--rule', 'single-replica=off', '--rule', 'single-replica=off']).status, 0, 'the same severity twice is one');
    });

    for (const [name, args, reason] of [
      ['an unknown rule in --rule', ['check', 'clean.yaml', '--rule', 'no-such-rule=off'], /unknown rule "no-such-rule"/],
      ['a malformed --rule', ['check', 'clean.yaml', '--rule', 'single-replica'], /--rule takes ID=/],
      ['a rule given two severities (the last one was taken without a word)', ['check', 'clean.yaml', '--rule', 'single-replica=off', '--rule', 'single-replica=error'], /--rule single-replica is given twice, as off and as error: give it once/],
      ['a path that does not exist', ['check', 'missing.yaml'], /cannot read missing\.yaml/],
      ['an unknown format', ['check', 'clean.yaml', '--format', 'xml'], /--format takes text, json or sarif/],
      ['an unknown --fail-on', ['check', 'clean.yaml', '--fail-on', 'sometimes'], /--fail-on takes/],
      ['an unknown option', ['check', 'clean.yaml', '--colour'], /--colour/],
      ['an unknown command', ['lint', 'clean.yaml'], /unknown command "lint"/],
    ] as const) {
      it(`2 for ${name}, with a one-line reason on stderr`, () => {
        const run = cli([...args]);
        assert.equal(run.status, 2);
        assert.equal(run.stdout, '');
        assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
        assert.match(run.stderr, reason);
      });
    }
  });

  describe('--format json', () => {
    it('is exactly one JSON object of the documented shape, file as given, 0-based ranges', () => {
      const run = cli(['check', 'single.yaml', '--format', 'json', ...only('single-replica')]);
      const report = json(run);
      assert.deepEqual(Object.keys(report), ['version', 'findings']);
      assert.equal(report.version, 1);
      assert.equal(report.findings.length, 1);
      const [finding] = report.findings;
      assert.deepEqual(Object.keys(finding).sort(), ['file', 'fixes', 'message', 'range', 'resource', 'ruleId', 'severity']);
      assert.equal(finding.ruleId, 'single-replica');
      assert.equal(finding.severity, 'warning');
      assert.equal(finding.file, 'single.yaml');
      const line = lineOf(deployment('cart', 1), 'replicas: 1');
      assert.deepEqual(finding.range, { start: { line, character: 2 }, end: { line, character: 10 } });
      assert.deepEqual(finding.resource, { kind: 'Deployment', name: 'cart', namespace: 'shop' });
      assert.ok(finding.fixes.every((f: { title: unknown }) => typeof f.title === 'string'));
      assert.ok(finding.fixes.some((f: { title: string; preferred: boolean }) => f.title === 'Run 2 replicas' && f.preferred));
    });

    it('a byte-order mark is no column: a range on the first line starts where an editor shows it, in a file and on stdin', () => {
      const kindFirst = `kind: Deployment\n${deployment('bom', 3).replace('kind: Deployment\n', '')}`;
      writeFileSync(join(dir, 'bom.yaml'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(kindFirst)]));
      for (const run of [cli(['check', 'bom.yaml', '--format', 'json', ...only('pdb-missing')]), cli(['check', '-', '--format', 'json', ...only('pdb-missing')], `\uFEFF${kindFirst}`)]) {
        assert.deepEqual(json(run).findings.map((f: { range: unknown }) => f.range), [{ start: { line: 0, character: 0 }, end: { line: 0, character: 16 } }]);
      }
    });

    it('reads a UTF-16 manifest piped to stdin as it reads one in a file (PowerShell writes UTF-16): it passed as no findings', () => {
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(deployment('cart', 1), 'utf16le')]);
      writeFileSync(join(dir, 'utf16.yaml'), utf16);
      const fromFile = json(cli(['check', 'utf16.yaml', '--format', 'json', ...only('single-replica')]));
      const piped = spawnSync(process.execPath, [CLI, 'check', '-', '--format', 'json', ...only('single-replica')], { cwd: dir, input: utf16 });
      assert.equal(fromFile.findings.length, 1);
      assert.deepEqual(JSON.parse(piped.stdout.toString()).findings.map((f: { range: unknown }) => f.range), fromFile.findings.map((f: { range: unknown }) => f.range));
    });

    it('names a file inside a directory by the path it was reached through', () => {
      write('nested/deep/app.yaml', deployment('deep', 1));
      const report = json(cli(['check', 'nested', '--format', 'json', ...only('single-replica')]));
      assert.deepEqual(report.findings.map((f: { file: string }) => f.file), [join('nested', 'deep', 'app.yaml')]);
    });
  });

  describe('--format sarif', () => {
    it('is SARIF 2.1.0 with one run and rules that carry help text', () => {
      const log = json(cli(['check', 'single.yaml', '--format', 'sarif']));
      assert.deepEqual(schemaProblems(log), []);
      assert.deepEqual(codeScanningProblems(log), []);
      assert.equal(log.runs.length, 1);
      const rules = log.runs[0].tool.driver.rules;
      assert.ok(rules.length >= 3);
      for (const rule of rules) assert.ok(rule.help?.text?.length > 20, `${rule.id} has help text`);
      const result = log.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'single-replica');
      assert.equal(result.locations[0].physicalLocation.artifactLocation.uri, 'single.yaml');
      assert.equal(result.locations[0].physicalLocation.region.startLine, lineOf(deployment('cart', 1), 'replicas: 1') + 1, '1-based');
    });

    it('names files by URI references (escaped), while JSON keeps the path as given', () => {
      write('my app/deploy.yaml', deployment('spaced', 1));
      const log = json(cli(['check', join('my app', 'deploy.yaml'), '--format', 'sarif', ...only('single-replica')]));
      assert.equal(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'my%20app/deploy.yaml');
      const report = json(cli(['check', join('my app', 'deploy.yaml'), '--format', 'json', ...only('single-replica')]));
      assert.equal(report.findings[0].file, join('my app', 'deploy.yaml'));
    });

    it('has results: [] when clean', () => {
      const log = json(cli(['check', 'clean.yaml', '--format', 'sarif']));
      assert.deepEqual(schemaProblems(log), []);
      assert.deepEqual(log.runs[0].results, []);
    });

    it('is relative to --sarif-root, however the path was typed', () => {
      write('repo/k8s/app.yaml', deployment('rooted', 1));
      const log = json(cli(['check', join(dir, 'repo', 'k8s', 'app.yaml'), '--format', 'sarif', '--sarif-root', 'repo', ...only('single-replica')]));
      assert.deepEqual(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation, { uri: 'k8s/app.yaml', uriBaseId: '%SRCROOT%' });
      assert.deepEqual(codeScanningProblems(log), []);
    });

    it('--sarif-root must name a folder, and goes with --format sarif', () => {
      write('rooted/app.yaml', deployment('rooted', 1));
      for (const root of ['no-such-folder', join('rooted', 'app.yaml')]) {
        const run = cli(['check', 'rooted', '--format', 'sarif', '--sarif-root', root]);
        assert.equal(run.status, 2, root);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, new RegExp(`--sarif-root takes a folder \\(the root the report's paths are relative to\\): ${root.replace(/[.\\/]/g, '\\$&')} is not one`));
      }
      const text = cli(['check', 'rooted', '--sarif-root', 'rooted']);
      assert.equal(text.status, 2);
      assert.match(text.stderr, /--sarif-root goes with --format sarif/);
    });
  });

  describe('--fix', () => {
    it('writes the preferred fixes in place, keeps comments and quoting, and the re-check is clean', () => {
      write('fix/app.yaml', `${deployment('cart', 1)}---\n${deployment('checkout', 3)}`);
      const run = cli(['check', '--fix', 'fix/app.yaml', ...only('single-replica', 'pdb-missing')]);
      assert.equal(run.status, 0, run.stdout);
      assert.equal(run.stderr, 'kube-resilience check: applied 3 fixes in 1 file\n', 'cart: 2 replicas, then its PDB; checkout: its PDB');
      const fixed = readFileSync(join(dir, 'fix/app.yaml'), 'utf8');
      assert.match(fixed, /replicas: 2 # keep in sync with the dashboard/);
      assert.match(fixed, /kind: PodDisruptionBudget\nmetadata:\n  name: checkout-pdb\n  namespace: shop/);
      assert.match(fixed, /kind: PodDisruptionBudget\nmetadata:\n  name: cart-pdb\n  namespace: shop/);
      for (const comment of ['# cart: owned by the web team', '# checkout: owned by the web team']) assert.ok(fixed.includes(comment));
      assert.ok(fixed.includes('value: "fast"'), 'double quotes kept');
      assert.equal(cli(['check', 'fix/app.yaml', ...only('single-replica', 'pdb-missing')]).status, 0);
    });

    it('with every rule on, leaves nothing a fix could still change', () => {
      write('fix-all/app.yaml', `${deployment('cart', 1)}---\n${deployment('checkout', 3)}`);
      cli(['check', '--fix', 'fix-all/app.yaml', '--fail-on', 'none']);
      const once = readFileSync(join(dir, 'fix-all/app.yaml'), 'utf8');
      const report = json(cli(['check', 'fix-all/app.yaml', '--format', 'json', '--fail-on', 'none']));
      assert.deepEqual(report.findings.filter((f: { fixes: { preferred: boolean }[] }) => f.fixes.some((x) => x.preferred)).map((f: { ruleId: string }) => f.ruleId), []);
      cli(['check', '--fix', 'fix-all/app.yaml', '--fail-on', 'none']);
      assert.equal(readFileSync(join(dir, 'fix-all/app.yaml'), 'utf8'), once, 'a second --fix changes nothing');
    });
  });

  describe('--fix and unsafe fixes', () => {
    const redis = (replicas: number) => manifests.deployment({ name: 'sessions', spec: `  replicas: ${replicas}\n` }).replace('image: nginx:1.27', 'image: redis:7.2');

    it('leaves a fix that can change what the app does (a second redis) alone, marks it, and applies it with --unsafe-fixes', () => {
      write('unsafe/app.yaml', redis(1));
      const report = json(cli(['check', 'unsafe/app.yaml', '--format', 'json', ...only('single-replica')]));
      assert.deepEqual(report.findings[0].fixes[0], { title: 'Run 2 replicas', preferred: true, unsafe: 'runs a second Redis (redis:7.2) beside the first: a second primary with its own data, not a replica, unless it is set up to replicate' });
      assert.match(cli(['check', 'unsafe/app.yaml', ...only('single-replica')]).stdout, /single-replica \(fixable with --unsafe-fixes\)/);
      const safe = cli(['check', '--fix', 'unsafe/app.yaml', ...only('single-replica')]);
      assert.equal(safe.stderr, 'kube-resilience check: applied 0 fixes in 0 files\n');
      assert.equal(readFileSync(join(dir, 'unsafe/app.yaml'), 'utf8'), redis(1));
      const unsafe = cli(['check', '--fix', '--unsafe-fixes', 'unsafe/app.yaml', ...only('single-replica')]);
      assert.equal(unsafe.stderr, 'kube-resilience check: applied 1 fix in 1 file\n');
      assert.equal(readFileSync(join(dir, 'unsafe/app.yaml'), 'utf8'), redis(2));
    });

    it('--unsafe-fixes without --fix is a usage error', () => {
      const run = cli(['check', '--unsafe-fixes', 'single.yaml']);
      assert.equal(run.status, 2);
      assert.match(run.stderr, /--unsafe-fixes goes with --fix/);
    });
  });

  describe('input', () => {
    it('reads stdin for -', () => {
      const report = json(cli(['check', '-', '--format', 'json', ...only('single-replica')], deployment('piped', 1)));
      assert.deepEqual(report.findings.map((f: { file: string; resource: { name: string } }) => [f.file, f.resource.name]), [['-', 'piped']]);
    });

    it('analyses a file named twice (through its folder, or as ./x) once', () => {
      write('twice/app.yaml', deployment('twice', 1));
      const report = json(cli(['check', 'twice', join('twice', 'app.yaml'), `.${sep}${join('twice', 'app.yaml')}`, '--format', 'json', ...only('single-replica')]));
      assert.deepEqual(report.findings.map((f: { file: string }) => f.file), [join('twice', 'app.yaml')]);
    });

    it('analyses a folder named again through a link to it once (a PDB in it would otherwise cover its pods twice)', { skip: process.platform === 'win32' }, () => {
      write('linked/app.yaml', deployment('linked', 1));
      symlinkSync('linked', join(dir, 'alias'));
      const report = json(cli(['check', 'linked', 'alias', '--format', 'json', ...only('single-replica')]));
      assert.deepEqual(report.findings.map((f: { file: string }) => f.file), [join('linked', 'app.yaml')]);
    });

    it('a folder named that cannot be read is an unreadable path; one met in the walk is named and the rest is checked (it took the whole report with it): exit 2 and why', { skip: process.platform === 'win32' }, () => {
      const tree = mkdtempSync(join(tmpdir(), 'kr-cli-locked-'));
      try {
        mkdirSync(join(tree, 'locked/inner'), { recursive: true });
        writeFileSync(join(tree, 'locked/inner/app.yaml'), deployment('locked', 1));
        writeFileSync(join(tree, 'locked/app.yaml'), deployment('readable', 1));
        handOver(tree);
        chmodSync(join(tree, 'locked/inner'), 0o000);
        const named = spawnSync(unprivilegedNode, [CLI, 'check', join('locked', 'inner')], { cwd: tree, encoding: 'utf8', ...unprivileged });
        assert.equal(named.status, 2, named.stderr);
        assert.equal(named.stderr, `kube-resilience check: cannot read ${join('locked', 'inner')}: permission denied\n`);
        const walked = spawnSync(unprivilegedNode, [CLI, 'check', 'locked', '--format', 'json', ...only('single-replica')], { cwd: tree, encoding: 'utf8', ...unprivileged });
        assert.equal(walked.status, 2, walked.stderr);
        assert.equal(walked.stderr, `kube-resilience check: skipped ${join('locked', 'inner')}: permission denied\n`);
        assert.deepEqual(JSON.parse(walked.stdout).findings.map((f: { resource: { name: string } }) => f.resource.name), ['readable']);
      } finally {
        rmSync(tree, { recursive: true, force: true });
      }
    });

    it('a folder that can be listed but not entered says its manifest could not be read, not that it holds none (it said both)', { skip: process.platform === 'win32' }, () => {
      const tree = mkdtempSync(join(tmpdir(), 'kr-cli-only-locked-'));
      try {
        mkdirSync(join(tree, 'shut'));
        writeFileSync(join(tree, 'shut/app.yaml'), deployment('locked', 1));
        handOver(tree);
        // Listed, not entered: the walk sees the name and cannot look at the file.
        chmodSync(join(tree, 'shut'), 0o444);
        const run = spawnSync(unprivilegedNode, [CLI, 'check', 'shut'], { cwd: tree, encoding: 'utf8', ...unprivileged });
        chmodSync(join(tree, 'shut'), 0o755);
        assert.equal(run.stderr, `kube-resilience check: skipped ${join('shut', 'app.yaml')}: permission denied\nkube-resilience check: no manifest in shut could be read\n`);
        assert.equal(run.status, 2);
      } finally {
        rmSync(tree, { recursive: true, force: true });
      }
    });

    it('a file met in the walk that cannot be read is named, and the rest is checked: exit 2 (it stopped the whole check)', { skip: process.platform === 'win32' }, () => {
      const tree = mkdtempSync(join(tmpdir(), 'kr-cli-mixed-'));
      try {
        mkdirSync(join(tree, 'mix'));
        writeFileSync(join(tree, 'mix/a.yaml'), deployment('readable', 1));
        writeFileSync(join(tree, 'mix/b.yaml'), deployment('locked', 1));
        handOver(tree);
        chmodSync(join(tree, 'mix/b.yaml'), 0o000);
        const run = spawnSync(unprivilegedNode, [CLI, 'check', 'mix', '--format', 'json', ...only('single-replica')], { cwd: tree, encoding: 'utf8', ...unprivileged });
        assert.equal(run.status, 2, run.stderr);
        assert.equal(run.stderr, `kube-resilience check: skipped ${join('mix', 'b.yaml')}: permission denied\n`);
        assert.deepEqual(JSON.parse(run.stdout).findings.map((f: { resource: { name: string } }) => f.resource.name), ['readable']);
        const text = spawnSync(unprivilegedNode, [CLI, 'check', 'mix', ...only('single-replica')], { cwd: tree, encoding: 'utf8', ...unprivileged });
        assert.equal(text.stdout.trimEnd().split('\n').at(-1), '1 finding (1 warning) in 1 file', 'the file skipped is not counted as checked');
      } finally {
        rmSync(tree, { recursive: true, force: true });
      }
    });

    it('a file or folder whose name is not valid UTF-8 is named as such (it vanished, or stopped the run as "no such file"), and the rest is checked', { skip: process.platform !== 'linux' }, () => {
      const tree = Buffer.from(mkdtempSync(join(tmpdir(), 'kr-cli-latin1-')));
      const at = (...names: (string | Buffer)[]) => Buffer.concat(names.flatMap((name, i) => [i ? Buffer.from('/') : Buffer.alloc(0), Buffer.isBuffer(name) ? name : Buffer.from(name)]));
      try {
        mkdirSync(at(tree, 'names', Buffer.from('d\xe9', 'latin1')), { recursive: true });
        writeFileSync(at(tree, 'names', Buffer.from('caf\xe9.yaml', 'latin1')), deployment('file', 1));
        writeFileSync(at(tree, 'names', Buffer.from('d\xe9', 'latin1'), 'a.yaml'), deployment('inside', 1));
        writeFileSync(at(tree, 'names', 'ok.yaml'), deployment('readable', 1));
        const run = spawnSync(process.execPath, [CLI, 'check', 'names', '--format', 'json', ...only('single-replica')], { cwd: tree.toString(), encoding: 'utf8' });
        assert.equal(run.status, 2, run.stderr);
        const why = 'its name is not valid UTF-8, and no path to it can be given here: rename it to check it';
        assert.equal(run.stderr, `kube-resilience check: skipped ${join('names', 'caf\uFFFD.yaml')}: ${why}\nkube-resilience check: skipped ${join('names', 'd\uFFFD')}: ${why}\n`);
        assert.deepEqual(JSON.parse(run.stdout).findings.map((f: { resource: { name: string } }) => f.resource.name), ['readable']);
      } finally {
        rmSync(tree, { recursive: true, force: true });
      }
    });

    it('recurses into directories over *.yaml, *.yml and *.json, skipping node_modules and other files', () => {
      write('tree/a/one.yaml', deployment('one', 1));
      write('tree/a/b/two.yml', deployment('two', 1));
      write('tree/three.json', JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'three' }, spec: { replicas: 1, selector: { matchLabels: { app: 'three' } }, template: { metadata: { labels: { app: 'three' } }, spec: { containers: [{ name: 'three', image: 'x' }] } } } }, null, 2));
      write('tree/notes.txt', deployment('notes', 1));
      write('tree/node_modules/dep/four.yaml', deployment('four', 1));
      const report = json(cli(['check', 'tree', '--format', 'json', ...only('single-replica')]));
      assert.deepEqual(report.findings.map((f: { resource: { name: string } }) => f.resource.name).sort(), ['one', 'three', 'two']);
      const three = report.findings.find((f: { resource: { name: string } }) => f.resource.name === 'three');
      const jsonLines = readFileSync(join(dir, 'tree/three.json'), 'utf8').split('\n');
      assert.equal(three.range.start.line, jsonLines.findIndex((l) => l.includes('"replicas": 1')), 'a JSON manifest gets ranges too');
    });
  });

  describe('bad input', () => {
    it('empty, comment-only, binary and broken files: a clear report, never a crash', () => {
      write('odd/empty.yaml', '');
      write('odd/comments.yaml', '# nothing yet\n');
      writeFileSync(join(dir, 'odd/binary.yaml'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256)));
      write('odd/broken.yaml', 'apiVersion: v1\nkind: ConfigMap\ndata: [unclosed\n');
      const run = cli(['check', 'odd', '--format', 'json']);
      assert.equal(run.stderr, '');
      assert.equal(run.status, 1, 'the broken manifest is an error');
      assert.deepEqual(json(run).findings.map((f: { ruleId: string; file: string }) => [f.ruleId, f.file]), [['invalid-yaml', join('odd', 'broken.yaml')]]);
    });
  });

  describe('encodings', () => {
    it('reads a UTF-16 file (PowerShell output) and --fix writes it back in UTF-16', () => {
      const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      writeFileSync(join(dir, 'utf16.yaml'), utf16(deployment('wide', 1)));
      const report = json(cli(['check', 'utf16.yaml', '--format', 'json', ...only('single-replica')]));
      assert.deepEqual(report.findings.map((f: { ruleId: string }) => f.ruleId), ['single-replica']);
      cli(['check', '--fix', 'utf16.yaml', ...only('single-replica')]);
      assert.deepEqual(readFileSync(join(dir, 'utf16.yaml')), utf16(deployment('wide', 2)));
    });

    it('analyses a file that is not UTF-8 (a Latin-1 comment) but --fix never writes it: its bytes would be lost; exit 2 and why', () => {
      const latin1 = Buffer.concat([Buffer.from('# owner: J'), Buffer.from([0xfc]), Buffer.from(`rgen\n${deployment('latin', 1)}`)]);
      writeFileSync(join(dir, 'latin1.yaml'), latin1);
      const run = cli(['check', '--fix', 'latin1.yaml', ...only('single-replica')]);
      assert.equal(run.status, 2, run.stderr);
      assert.deepEqual(readFileSync(join(dir, 'latin1.yaml')), latin1);
      assert.match(run.stderr, /unchanged latin1\.yaml: not UTF-8 text .* left as it was/);
      assert.match(run.stdout, /single-replica \(fixable\)/, 'the finding stays');
    });
  });

  describe('--format text', () => {
    it('groups findings by file, ends with a summary line and has no colour when not a TTY', () => {
      write('text/a.yaml', deployment('alpha', 1));
      write('text/b.yaml', deployment('beta', 1));
      const run = cli(['check', 'text', ...only('single-replica')]);
      assert.equal(run.status, 1);
      assert.doesNotMatch(run.stdout, /\x1b\[/);
      const lines = run.stdout.trimEnd().split('\n');
      assert.equal(lines[0], join('text', 'a.yaml'));
      assert.match(lines[1], new RegExp(`^ {2}${lineOf(deployment('alpha', 1), 'replicas: 1') + 1}:3 +warning +Deployment shop\\/alpha runs 1 pod: one node drain or node failure takes it offline\\. +single-replica \\(fixable\\)$`));
      assert.ok(lines.includes(join('text', 'b.yaml')));
      assert.equal(lines[lines.length - 1], '2 findings (2 warnings) in 2 files');
    });

    it('counts each severity with its own noun: 1 warning, 1 hint', () => {
      const run = cli(['check', 'single.yaml', ...only('single-replica'), '--rule', 'single-replica=hint']);
      assert.equal(run.stdout.trimEnd().split('\n').at(-1), '1 finding (1 hint) in 1 file');
      const warned = cli(['check', 'single.yaml', ...only('single-replica')]);
      assert.equal(warned.stdout.trimEnd().split('\n').at(-1), '1 finding (1 warning) in 1 file');
    });

    it('prints the first sentence of a message, and the rest with --verbose', () => {
      write('verbose/app.yaml', manifests.deployment({ name: 'greedy', namespace: 'shop', spec: '  replicas: 2\n' }));
      const args = ['check', 'verbose', ...only('memory-unbounded')];
      const message: string = json(cli([...args, '--format', 'json'])).findings[0].message;
      const [first, ...rest] = message.split(/(?<=\.) (?=[A-Z])/);
      assert.ok(rest.length > 0, `the message has more than one sentence: ${message}`);
      const short = cli(args).stdout;
      const long = cli([...args, '--verbose']).stdout.replace(/\s+/g, ' ');
      assert.ok(short.includes(first) && !short.includes(rest[0]), short);
      assert.ok(long.includes(rest.join(' ')), long);
    });

    it('lists findings about the cluster itself under (cluster), each named by kind, namespace and name', () => {
      write('cluster/a.yaml', deployment('alpha', 2));
      const run = cli(['check', 'cluster', '--demo', '--fail-on', 'none', ...only('dns-single-point', 'control-plane-single')]);
      assert.equal(run.status, 0, run.stderr);
      const lines = run.stdout.split('\n');
      const section = lines.indexOf('(cluster)');
      assert.ok(section >= 0, run.stdout);
      assert.ok(lines.slice(section).some((l) => /^ {2}Deployment\/kube-system\/coredns +warning +.*dns-single-point$/.test(l)), run.stdout);
      assert.ok(lines.slice(section).some((l) => /^ {2}Node\/cp-1 +warning +.*control-plane-single$/.test(l)), run.stdout);
    });
  });
});
