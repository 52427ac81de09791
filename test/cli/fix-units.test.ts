// `check --fix` on Kustomize roots with the real kubectl: unsafe fixes wait for --unsafe-fixes, and a fix
// that cannot be written leaves every file it touches as it was while the other files are still fixed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { handOver, makeReadOnly, unprivileged, unprivilegedNode } from '../files/unprivileged';
import { renderTools } from '../render/render-tools';
import { CLI } from './run-cli';

const tools = renderTools();
const posix = process.platform !== 'win32';

/** A one-replica Deployment of `image`, with nothing else to find but its single replica. */
const deployment = (name: string, image: string, replicas = 1) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name} # keep this comment
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - {name: main, image: "${image}", resources: {requests: {memory: 100Mi}, limits: {memory: 100Mi}}, readinessProbe: {tcpSocket: {port: 80}}}
`;
const ONLY = ['--rule', 'replicas-not-spread=off'];

describe('check --fix on Kustomize roots', { skip: (!existsSync(CLI) && 'dist/cli.js is not built') || tools.skip }, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-fix-units-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    return join(dir, path);
  };
  const read = (path: string) => readFileSync(join(dir, path), 'utf8');
  const cli = (args: string[], options: { uid?: number; gid?: number } = {}) => {
    const node = options.uid === undefined ? process.execPath : unprivilegedNode;
    const env = { ...process.env, NO_COLOR: '1', PATH: [tools.folder ?? '', process.env.PATH].join(delimiter) };
    const result = spawnSync(node, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, env, ...options });
    return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
  };

  it('fixes 16 roots without a word on stderr but its own (each waiting root set a listener on one signal: Node warned of a leak past 10)', () => {
    for (let i = 1; i <= 16; i++) {
      write(`roots/r${i}/kustomization.yaml`, 'resources:\n- web.yaml\n');
      write(`roots/r${i}/web.yaml`, deployment(`web${i}`, 'nginx:1.27', 2));
    }
    const run = cli(['check', '--fix', 'roots', ...ONLY]);
    assert.doesNotMatch(run.stderr, /Warning|leak/, run.stderr);
    assert.match(run.stderr, /^kube-resilience check: applied 16 fixes to charts and Kustomize roots in 32 files\n$/);
  });

  it('leaves a fix that can change what the app does (a second redis) alone, marks it, and applies it with --unsafe-fixes', () => {
    write('app/kustomization.yaml', 'resources:\n- cache.yaml\n');
    const before = deployment('cache', 'redis:7');
    write('app/cache.yaml', before);
    const run = cli(['check', '--fix', 'app', ...ONLY]);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(read('app/cache.yaml'), before);
    assert.deepEqual(readdirSync(join(dir, 'app')).sort(), ['cache.yaml', 'kustomization.yaml']);
    assert.match(run.stdout, /single-replica \(fixable with --unsafe-fixes\)/);
    const json = JSON.parse(cli(['check', 'app', '--format', 'json', ...ONLY]).stdout);
    assert.deepEqual(
      json.findings.map((f: any) => [f.ruleId, f.fixes.filter((x: any) => x.preferred).map((x: any) => !!x.unsafe)]),
      [['single-replica', [true]]],
    );
    assert.equal(json.findings[0].rendered.unit, 'app', 'named as given, like its file');
    const unsafe = cli(['check', '--fix', '--unsafe-fixes', 'app', ...ONLY]);
    assert.equal(unsafe.status, 0, unsafe.stdout + unsafe.stderr);
    assert.match(read('app/cache.yaml'), /name: cache # keep this comment[\s\S]*replicas: 2/);
    assert.equal(unsafe.stderr, 'kube-resilience check: applied 2 fixes to charts and Kustomize roots in 3 files\n', 'no "0 fixes in 0 files" after it: there were no other files');
  });

  it('finds an overlay whose kustomization is the extensionless Kustomization, and fixes it in that overlay, not in the base it shares', () => {
    write('base/deploy.yaml', deployment('web', 'nginx:1.27'));
    write('base/kustomization.yaml', 'resources: [deploy.yaml]\n');
    write('one/kustomization.yaml', 'namespace: one\nresources: [../base]\n');
    write('two/Kustomization', '# a sandbox: one replica on purpose\nnamespace: two\nresources: [../base]\ncommonAnnotations: {kube-resilience/ignore: single-replica}\n');
    write('three/Kustomization', 'namespace: three\nresources: [../base]\n');
    const alone = cli(['check', 'three', '--format', 'json', '--fail-on', 'none', ...ONLY]);
    assert.match(alone.stdout, /"message": "Deployment three\/web runs 1 pod/, alone.stderr);
    assert.doesNotMatch(alone.stderr, /no manifest found/);
    rmSync(join(dir, 'three'), { recursive: true });
    // Only `one` wants two replicas: its own patch, where an edit of the base would change the sandbox too.
    const fixed = cli(['check', '--fix', '.', ...ONLY]);
    assert.equal(read('base/deploy.yaml'), deployment('web', 'nginx:1.27'), fixed.stderr);
    assert.match(readdirSync(join(dir, 'one')).join(' '), /patch/);
    assert.doesNotMatch(cli(['check', 'one', '--format', 'json', '--fail-on', 'none', ...ONLY]).stdout, /single-replica/);
  });

  it('leaves a base outside the overlays named alone (other roots may deploy it) and patches each overlay named', () => {
    write('base/deploy.yaml', deployment('web', 'nginx:1.27'));
    write('base/kustomization.yaml', 'resources: [deploy.yaml]\n');
    for (const overlay of ['a', 'b', 'c']) write(`overlays/${overlay}/kustomization.yaml`, `namespace: ${overlay}\nresources: [../../base]\n`);
    const fixed = cli(['check', '--fix', 'overlays/a', 'overlays/b', ...ONLY]);
    assert.equal(fixed.status, 0, fixed.stderr);
    assert.equal(read('base/deploy.yaml'), deployment('web', 'nginx:1.27'));
    for (const overlay of ['a', 'b']) assert.doesNotMatch(cli(['check', `overlays/${overlay}`, '--format', 'json', '--fail-on', 'none', ...ONLY]).stdout, /single-replica/, overlay);
    assert.match(cli(['check', 'overlays/c', '--format', 'json', '--fail-on', 'none', ...ONLY]).stdout, /single-replica/, 'c, not named, is as it was');
  });

  it('reads a base that a root which renders deploys as that root\'s, though another root deploying it cannot render (its findings came twice, and --fix appended a second budget to the base)', () => {
    const base = deployment('web', 'nginx:1.27', 3);
    write('base/deploy.yaml', base);
    write('base/kustomization.yaml', 'resources:\n- deploy.yaml\n');
    write('one/kustomization.yaml', 'resources:\n- ../base\n');
    write('two/kustomization.yaml', 'resources:\n- ../base\n- https://example.com/monitoring//base?ref=v1\n');
    const checked = JSON.parse(cli(['check', '.', '--format', 'json', '--fail-on', 'none', ...ONLY]).stdout);
    assert.deepEqual(checked.findings.map((f: any) => f.ruleId), ['pdb-missing'], 'once, from the root that renders');
    const fixed = cli(['check', '--fix', '.', ...ONLY]);
    assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
    assert.equal(read('base/deploy.yaml'), base);
    assert.match(readdirSync(join(dir, 'one')).join(' '), /pdb/);
    const built = spawnSync(tools.kubectl, ['kustomize', join(dir, 'one')], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
  });

  it('fixes each piece a workload\'s sessions lack, one a round (each was taken back as "leaves the finding in place": the finding said one piece less)', () => {
    const chat = deployment('chat', 'example/chat:1', 3)
      .replace('  name: chat # keep this comment\n', '  name: chat # keep this comment\n  annotations:\n    kube-resilience/sessions: in-memory\n')
      .replace('    spec:\n      containers:', '    spec:\n      topologySpreadConstraints:\n      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: chat}}}\n      containers:');
    write('app/kustomization.yaml', 'resources:\n- chat.yaml\n- pdb.yaml\n');
    write('app/chat.yaml', chat);
    write('app/pdb.yaml', 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: chat\nspec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels: {app: chat}\n');
    assert.match(cli(['check', 'app', '--fail-on', 'none']).stdout, /sessions-lost-on-eviction \(fixable\)/);
    const fixed = cli(['check', '--fix', 'app']);
    assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
    assert.match(fixed.stderr, /applied 2 fixes/);
    assert.match(fixed.stdout, /^No findings/);
  });

  it('a safe fix is marked fixable in the report', () => {
    write('app/kustomization.yaml', 'resources:\n- web.yaml\n');
    write('app/web.yaml', deployment('web', 'nginx'));
    const run = cli(['check', 'app', ...ONLY]);
    assert.match(run.stdout, /single-replica \(fixable\)/);
    assert.match(run.stdout, /in 2 files/, 'the root\'s files count');
  });

  it('takes no name a link holds for the file it creates, though the link leads nowhere (it was replaced by a regular file)', { skip: !posix }, () => {
    write('app/kustomization.yaml', 'resources:\n- web.yaml\n');
    write('app/web.yaml', deployment('web', 'nginx', 3));
    symlinkSync(join(dir, 'elsewhere', 'web-pdb.yaml'), join(dir, 'app', 'web-pdb.yaml'));
    const run = cli(['check', '--fix', 'app', ...ONLY]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.ok(lstatSync(join(dir, 'app', 'web-pdb.yaml')).isSymbolicLink(), 'the link is as it was');
    assert.match(read('app/web-pdb-2.yaml'), /kind: PodDisruptionBudget/);
    assert.match(read('app/kustomization.yaml'), /- web-pdb-2\.yaml/);
  });

  it("names the file it creates for a resource inside the root, whatever the resource's name holds (`../../web` made one two folders up)", () => {
    write('tree/app/kustomization.yaml', 'resources:\n- web.yaml\n');
    write('tree/app/web.yaml', deployment('../../web', 'nginx', 3).replace('app: ../../web', 'app: web').replace('app: ../../web', 'app: web'));
    const run = cli(['check', '--fix', 'tree', ...ONLY]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(readdirSync(join(dir, 'tree', 'app')).sort(), ['..-..-web-pdb.yaml', 'kustomization.yaml', 'web.yaml']);
    assert.deepEqual(readdirSync(dir), ['tree']);
  });

  it('a fix that cannot be written leaves every file it touches as it was; the other files are still fixed, and the run says why and exits 2', { skip: !posix }, () => {
    const kustomization = write('app/kustomization.yaml', 'resources:\n- web.yaml\n');
    const web = deployment('web', 'nginx', 3);
    write('app/web.yaml', web);
    write('plain/other.yaml', deployment('other', 'nginx', 3));
    handOver(dir);
    makeReadOnly(kustomization);
    const run = cli(['check', '--fix', 'app', 'plain', ...ONLY], unprivileged);
    assert.equal(run.status, 2, run.stdout + run.stderr);
    assert.equal(read('app/kustomization.yaml'), 'resources:\n- web.yaml\n');
    assert.equal(read('app/web.yaml'), web);
    assert.deepEqual(readdirSync(join(dir, 'app')).sort(), ['kustomization.yaml', 'web.yaml'], 'no PDB file left without its kustomization entry');
    assert.match(read('plain/other.yaml'), /kind: PodDisruptionBudget/);
    assert.match(run.stderr, /not fixed pdb-missing: app\/kustomization\.yaml: permission denied; the fix's files were left as they were/);
    assert.match(run.stdout, /app\/web\.yaml\n.*pdb-missing/, 'the finding stays');
  });
});
