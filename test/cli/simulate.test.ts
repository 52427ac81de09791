import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateSimulationResult } from '../../server/src/simulate/messages';
import { EVENT_USAGE } from '../../server/src/simulate/parse-scenario';
import type { SimulationResult } from '../../server/src/simulate/types';
import { handOver, unprivileged, unprivilegedNode } from '../files/unprivileged';

const CLI = resolve('dist/cli.js');
const DEMO_STORY = ['simulate', '--demo', '--fail', 'apiserver', '--for', '2h', '--event', 'node-reboot:worker-a2@10m'];

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  replicas: 3
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
        - name: api
          image: registry.example/api:1.0
---
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: shop
spec:
  selector: {app: api}
  ports: [{port: 80}]
`;

const BILLING_WITHOUT_STARTUP_PROBE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: billing
  namespace: legacy
  annotations:
    kube-resilience/startup-seconds: "1200"
spec:
  replicas: 3
  selector:
    matchLabels: {app: billing}
  template:
    metadata:
      labels: {app: billing}
    spec:
      containers:
        - name: app
          image: registry.example.com/billing:7.2
          livenessProbe:
            httpGet: {path: /actuator/health, port: 8080}
`;

function cli(args: string[], cwd = process.cwd()) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(args: string[]): SimulationResult {
  const run = cli([...args, '--format', 'json']);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as SimulationResult;
}

describe('kube-resilience simulate', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-simulate-'));
    writeFileSync(join(dir, 'api.yaml'), MANIFEST);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints exactly one SimulationResult as JSON, which the webview accepts', () => {
    const result = json(DEMO_STORY);
    assert.equal(result.version, 1);
    assert.deepEqual(result.scenario, { fail: { kind: 'apiserver' }, duration: 7200, events: [{ kind: 'node-reboot', node: 'worker-a2', at: 600 }] });
    const validated = validateSimulationResult(result);
    assert.ok(validated.ok, validated.ok ? '' : validated.error);
  });

  it('tells the demo story: the single control plane down 2 h, worker-a2 rebooted at 10 m', () => {
    const result = json(DEMO_STORY);
    const db = result.workloads.find((w) => w.name === 'orders-db')!;
    assert.equal(db.placement, 'observed');
    assert.deepEqual(db.capacity.find((p) => p.at === 600), { at: 600, ready: 0, desired: 1, blackholed: 1 });
    const api = result.workloads.find((w) => w.name === 'orders-api')!;
    assert.deepEqual(api.capacity.find((p) => p.at === 600), { at: 600, ready: 2, desired: 3, blackholed: 0.333 });
    assert.equal(result.components.find((c) => c.name === 'api')!.states[0].state, 'down');
    assert.ok(result.timeline.some((e) => e.at === 600 && e.subject.type === 'node' && e.subject.name === 'worker-a2' && e.state === 'down'));
  });

  it('tells the story in text, first impacts first', () => {
    const run = cli(DEMO_STORY);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^What if every API server fails for 2 h; worker-a2 reboots at 10 m \(cluster demo\)\?/);
    assert.match(run.stdout, /First impacts:\n {2}• at 0 s the API goes down/);
    assert.match(run.stdout, /at 10 m shop\/orders-db goes down: worker-a2 rebooted/);
    assert.match(run.stdout, /Minute by minute:/);
    assert.match(run.stdout, /shop\/orders-api \(Deployment, placement observed\): lowest 2\/3 at 10 m, up to 33 % of new connections blackholed/);
  });

  it('writes a Markdown report', () => {
    const run = cli([...DEMO_STORY, '--format', 'markdown']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^# What if every API server fails for 2 h/);
    assert.match(run.stdout, /\n## First impacts\n/);
    assert.match(run.stdout, /\| shop\/orders-db \| StatefulSet \| observed \| 0\/1 \| 100 % \| 10 m \|/);
    assert.match(run.stdout, /\n\| at \| subject \| state \| what happens \| rests on \|\n/);
  });

  it('answers the what-if: three control planes survive the loss of cp-1', () => {
    const one = json(['simulate', '--demo', '--fail', 'nodes:cp-1', '--for', '1h']);
    const three = json(['simulate', '--demo', '--fail', 'nodes:cp-1', '--for', '1h', '--control-planes', '3']);
    assert.equal(one.components.find((c) => c.name === 'api')!.states[0].state, 'down');
    assert.equal(three.components.find((c) => c.name === 'api')!.states[0].state, 'degraded');
    assert.equal(three.scenario.controlPlanes, 3);
  });

  it('simulates a saved snapshot exactly as the cluster it was taken from', () => {
    const snapshots = mkdtempSync(join(tmpdir(), 'kr-snapshot-'));
    try {
      const file = join(snapshots, 'demo.json');
      const saved = cli(['snapshot', '--demo', '-o', file]);
      assert.equal(saved.status, 0, saved.stderr);
      const story = DEMO_STORY.filter((a) => a !== '--demo');
      assert.deepEqual(json([...story, '--snapshot', file]), json(DEMO_STORY));
    } finally {
      rmSync(snapshots, { recursive: true, force: true });
    }
  });

  it('simulates manifests without a cluster on an assumed one, and says so', () => {
    const run = cli(['simulate', '.', '--fail', 'apiserver', '--for', '30m', '--event', 'pod-crash:shop/api:permanent@5m', '--format', 'json'], dir);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout) as SimulationResult;
    const api = result.workloads.find((w) => w.name === 'api')!;
    assert.equal(api.placement, 'assumed');
    assert.deepEqual(api.capacity.find((p) => p.at === 300), { at: 300, ready: 2, desired: 3, blackholed: 0.333 });
    assert.ok(result.assumptions.some((a) => /no cluster given/.test(a)));
    assert.ok(result.assumptions.some((a) => /placement of 1 workload \(shop\/api\) is assumed/.test(a)));
  });

  it('tells the founding story: the slow starter crashed at 15 m never comes back without a startup probe', () => {
    const story = ['simulate', '--demo', '--fail', 'apiserver', '--for', '2h', '--event', 'pod-crash:legacy/billing:restartable@15m'];
    // The demo's billing has a startup probe that covers its 20-minute start: back after back-off and start.
    const covered = json(story).workloads.find((w) => w.name === 'billing')!;
    assert.equal(covered.capacity.find((p) => p.at === 900)!.ready, 2);
    assert.deepEqual(covered.capacity.find((p) => p.at === 900 + 10 + 1200), { at: 2110, ready: 3, desired: 3, blackholed: 0 });

    // The same app as the workspace declares it, with liveness only: it crash-loops to the end.
    writeFileSync(join(dir, 'billing.yaml'), BILLING_WITHOUT_STARTUP_PROBE);
    const run = cli([...story, 'billing.yaml', '--format', 'json'], dir);
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout) as SimulationResult;
    const billing = result.workloads.find((w) => w.name === 'billing')!;
    const fromCrash = billing.capacity.filter((p) => p.at >= 900);
    assert.deepEqual([...new Set(fromCrash.map((p) => p.ready))], [2], 'down from 15 m until the end of the run');
    assert.deepEqual(fromCrash[fromCrash.length - 1], { at: result.end, ready: 2, desired: 3, blackholed: 0 }, 'after recovery the unready pod has left its Service');
    const told = result.timeline.find((e) => e.at === 900 && e.subject.name === 'billing')!;
    assert.match(told.reason, /needs 1200 s to start .* liveness kills container app after 30 s .* no startup probe/);
    assert.match(told.fact, /^rule 4: .*facts\/data-plane\.md §1; rule 4: liveness and startup probes keep killing containers locally/);
    const text = cli([...story, 'billing.yaml'], dir);
    assert.match(text.stdout, /legacy\/billing \(Deployment, placement observed\): lowest 2\/3 at 15 m, .*not whole again by the end/);
  });

  const bad: [string, string[], RegExp][] = [
    ['an unknown node', ['--demo', '--fail', 'nodes:nope'], /unknown node "nope" \(nodes: cp-1, /],
    ['an unknown workload', ['--demo', '--fail', 'apiserver', '--event', 'pod-crash:shop/ghost:permanent@1m'], /unknown workload "shop\/ghost"/],
    ['a bad duration', ['--demo', '--fail', 'apiserver', '--for', '2x'], /"2x" is not a duration: write it like 90s, 10m, 2h or 1h30m/],
    ['an event without a time', ['--demo', '--fail', 'apiserver', '--event', 'coredns-restart'], /no @TIME/],
    ['an unknown event', ['--demo', '--fail', 'apiserver', '--event', 'meteor:cp-1@1m'], /unknown event "meteor"/],
    ['a surge without a factor', ['--demo', '--fail', 'apiserver', '--event', 'traffic-surge:shop/orders-api@1m'], /FACTOR/],
    ['an unknown failure', ['--demo', '--fail', 'kubelet'], /--fail takes none\|apiserver\|etcd\|scheduler\|controller-manager\|nodes:NAME/],
    ['a drain of an unknown node', ['--demo', '--drain', 'worker-zz'], /unknown node "worker-zz"/],
    ['a scale-down of a control-plane node (the autoscaler never removes one)', ['--demo', '--event', 'scale-down:cp-1@0'], /cp-1 is a control-plane node, which the cluster autoscaler never scales down/],
    ['a node named with terminal escapes (said with them escaped, on one line)', ['--demo', '--drain', 'w\u001b]0;PWNED\u0007\r\n::error::forged'], /unknown node "w\\u001b\]0;PWNED\\u0007\\r\\n::error::forged"/],
    ['an empty --drain', ['--demo', '--drain', ','], /--drain takes NODE\[,NODE…\]/],
    ['a drain with a crash but no failure', ['--demo', '--drain', 'worker-a1', '--event', 'coredns-restart@1m'], /--fail is required .* unless the scenario only drains/],
    ['no failure', ['--demo'], /--fail is required/],
    ['zero control planes', ['--demo', '--fail', 'apiserver', '--control-planes', '0'], /--control-planes takes a whole number from 1 to 9/],
    // Refused before the what-if cluster is drawn: it ran the process out of memory (and 10,000,000 took 28 s).
    ['a hundred billion control planes', ['--demo', '--fail', 'apiserver', '--control-planes', '99999999999'], /--control-planes takes a whole number from 1 to 9, not "99999999999"/],
    ['a year-long outage', ['--demo', '--fail', 'apiserver', '--for', '8760h'], /at most 168 h/],
    ['an outage of no time', ['--demo', '--fail', 'apiserver', '--for', '0'], /a failure lasts some time, not 0 s/],
    ['a bad format', ['--demo', '--fail', 'apiserver', '--format', 'sarif'], /--format takes text, json or markdown/],
    ['nothing to simulate', ['--fail', 'apiserver'], /nothing to simulate/],
    ['a value starting with a dash (says how to give one)', ['--demo', '--fail', 'apiserver', '--for', '-5m'], /argument is ambiguous\. .*'--for=-XYZ'/],
  ];
  for (const [name, args, message] of bad) {
    it(`exits 2 with a clear message for ${name}`, () => {
      const run = cli(['simulate', ...args], dir);
      assert.equal(run.status, 2, run.stdout);
      assert.match(run.stderr, /^kube-resilience simulate: /);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /this is a bug/);
      assert.equal(run.stdout, '');
    });
  }

  it('drains the examples it checks on the demo cluster: --drain is kubectl drain at 0, nothing failing', () => {
    const result = json(['simulate', '--demo', '--drain', 'worker-b1', 'examples']);
    assert.deepEqual(result.scenario, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-b1', at: 0 }] });
    assert.ok(validateSimulationResult(result).ok);
    const [drain] = result.drains!;
    assert.equal(drain.node, 'worker-b1');
    assert.equal(drain.by, 'kubectl');
    assert.deepEqual(drain.evicted.map((e) => e.workload).sort(), ['legacy/billing', 'meet/video-bridge', 'meet/video-bridge', 'shop/orders-api']);
    assert.match(result.summary![0], /^Draining worker-b1 takes /);
    assert.ok(result.components.every((c) => c.states.every((s) => s.state === 'ok')), 'the control plane is fine throughout');
  });

  it('asks the autoscaler about the GPU node: it stays, and says why', () => {
    const result = json(['simulate', '--demo', '--event', 'scale-down:gpu-b1@0', 'examples']);
    assert.equal(result.drains![0].end, null);
    assert.match(result.drains![0].notRemovedBecause!, /no other node can run render\/gpu-renderer's pod/);
    assert.match(cli(['simulate', '--demo', '--event', 'scale-down:gpu-b1@0', 'examples']).stdout, /Scaling gpu-b1 down does not happen/);
  });

  it('documents the new flags in --help', () => {
    const help = cli(['--help']).stdout;
    for (const flag of ['--drain NODE[,NODE...]', 'drain:NODE@T', 'scale-down:NODE@T', 'upgrade-nodes@T']) assert.ok(help.includes(flag), flag);
  });

  it('names a file of the folder given that it passes over (larger than 32 MB), as check does, simulates the rest, and exits 2 as check does (it exited 0)', () => {
    const folder = join(dir, 'with-dump');
    mkdirSync(folder);
    writeFileSync(join(folder, 'dump.yaml'), Buffer.alloc(33 * 2 ** 20, 0x20));
    const run = cli(['simulate', '--demo', '--fail', 'apiserver', 'with-dump'], dir);
    assert.match(run.stderr, /kube-resilience simulate: skipped with-dump\/dump\.yaml: larger than 32 MB/);
    assert.match(run.stdout, /What if every API server fails/);
    assert.equal(run.status, 2);
  });

  it('a file of the folder given that the runner may not read: named, the rest simulated, exit 2, as check does (it gave up the whole simulation)', { skip: process.platform === 'win32' }, () => {
    const tree = mkdtempSync(join(tmpdir(), 'kr-simulate-locked-'));
    try {
      mkdirSync(join(tree, 'mix'));
      writeFileSync(join(tree, 'mix/api.yaml'), MANIFEST);
      writeFileSync(join(tree, 'mix/web.yaml'), MANIFEST.replaceAll('api', 'web'));
      handOver(tree);
      chmodSync(join(tree, 'mix/web.yaml'), 0o000);
      const run = spawnSync(unprivilegedNode, [CLI, 'simulate', '--fail', 'apiserver', '--format', 'json', 'mix'], { cwd: tree, encoding: 'utf8', ...unprivileged });
      assert.equal(run.stderr, `kube-resilience simulate: skipped ${join('mix', 'web.yaml')}: permission denied\n`);
      assert.equal(run.status, 2);
      assert.deepEqual(JSON.parse(run.stdout).workloads.map((w: { name: string }) => w.name), ['api']);
      const named = spawnSync(unprivilegedNode, [CLI, 'simulate', '--fail', 'apiserver', join('mix', 'web.yaml')], { cwd: tree, encoding: 'utf8', ...unprivileged });
      assert.equal(named.stderr, `kube-resilience simulate: cannot read ${join('mix', 'web.yaml')}: permission denied\n`, 'a file named is an unreadable path');
      assert.equal(named.status, 2);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('a document that does not parse and a template among the files: each named with where and why, the rest simulated, exit 2 (they were dropped in silence, exit 0)', () => {
    const folder = join(dir, 'unreadable');
    mkdirSync(folder);
    writeFileSync(join(folder, 'api.yaml'), MANIFEST);
    writeFileSync(join(folder, 'broken.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x\n  bad: [\n');
    writeFileSync(join(folder, 'web.yaml'), MANIFEST.replaceAll('api', 'web').replace('name: web\n  namespace', 'name: {{ .Release.Name }}-web\n  namespace'));
    const run = cli(['simulate', '--fail', 'apiserver', '--format', 'json', 'unreadable'], dir);
    assert.match(run.stderr, /kube-resilience simulate: unreadable\/broken\.yaml:3: Document 1 does not parse: [^\n]*\. What it holds is not simulated\./);
    assert.match(run.stderr, /kube-resilience simulate: unreadable\/web\.yaml:\d+: This file is a template \(Helm or similar\)[^\n]* What it holds is not simulated\./);
    const simulated = (JSON.parse(run.stdout) as SimulationResult).workloads.map((w) => `${w.namespace}/${w.name}`);
    assert.ok(simulated.includes('shop/api') && !simulated.some((w) => /web|\/x$/.test(w)), simulated.join(', '));
    assert.equal(run.status, 2);
  });

  it('--render off: a chart\'s templates are read one by one, each named as a template it cannot simulate, exit 2 (nothing was said, exit 0)', () => {
    const chart = join(dir, 'unrendered-chart');
    mkdirSync(join(chart, 'templates'), { recursive: true });
    writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: unrendered\nversion: 0.1.0\n');
    writeFileSync(join(chart, 'templates', 'web.yaml'), MANIFEST.replace('name: api\n  namespace', 'name: {{ .Release.Name }}-api\n  namespace'));
    const run = cli(['simulate', '--fail', 'apiserver', '--render', 'off', 'unrendered-chart'], dir);
    assert.match(run.stderr, /kube-resilience simulate: unrendered-chart\/templates\/web\.yaml:\d+: This file is a template/);
    assert.equal(run.status, 2);
  });

  it('names every event it accepts in --help, not only the voluntary ones', () => {
    const help = cli(['--help']).stdout;
    const kinds = EVENT_USAGE.split(', ').map((usage) => usage.split(/[:@]/)[0]);
    assert.ok(kinds.length >= 9);
    for (const kind of kinds) assert.match(help, new RegExp(`\\b${kind}(:|@)`), kind);
  });

  it('a FIFO named as a PATH: exit 2, and no advice to pipe it to check', { skip: process.platform === 'win32' }, () => {
    spawnSync('mkfifo', [join(dir, 'pipe.yaml')]);
    const run = cli(['simulate', '--demo', '--fail', 'apiserver', 'pipe.yaml'], dir);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^kube-resilience simulate: cannot read pipe\.yaml: not a regular file/);
    assert.doesNotMatch(run.stderr, /check -/);
  });

  it('Ctrl-C during a long simulation ends it by the signal at once (a shell reports 130), not once the simulation is done', { skip: process.platform === 'win32' }, async () => {
    writeFileSync(join(dir, 'wide.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: wide, namespace: shop}\nspec:\n  replicas: 10000\n  selector: {matchLabels: {app: wide}}\n  template:\n    metadata: {labels: {app: wide}}\n    spec:\n      containers: [{name: c, image: nginx}]\n');
    // An upgrade of every worker, each drain moving 10,000 pods: many seconds of work that never waits.
    const run = spawn(process.execPath, [CLI, 'simulate', '--demo', 'wide.yaml', '--event', 'upgrade-nodes@0', '--for', '100h'], { cwd: dir, stdio: 'ignore' });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => run.on('exit', (code, signal) => done({ code, signal })));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    run.kill('SIGINT');
    // A handler held it until the simulation returned, then exited 130 itself.
    assert.deepEqual(await ended, { code: null, signal: 'SIGINT' });
  });

  it('lists itself in the usage', () => {
    assert.match(cli(['--help']).stdout, /kube-resilience simulate \[--snapshot FILE \| --context NAME \| --kubeconfig FILE \| --demo\] \[--timeout SECONDS\] \[PATH \.\.\.\]/);
  });
});
