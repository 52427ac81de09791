import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { handOver, makeReadOnly, unprivileged, unprivilegedNode } from '../files/unprivileged';
import * as manifests from '../rules/manifests';

const CLI = resolve('dist/cli.js');
const posix = process.platform !== 'win32';
/** Three replicas and no PDB: `--fix pdb-missing` appends a PodDisruptionBudget. */
const NEEDS_PDB = (name: string) => manifests.deployment({ name, spec: '  replicas: 3 # three\n' });
const ONLY_PDB = ['--rule', 'replicas-not-spread=off', '--rule', 'probe-readiness-missing=off', '--rule', 'memory-unbounded=off', '--rule', 'probe-startup-missing=off'];

describe('check --fix never loses or escapes a file', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-fix-safety-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    return join(dir, path);
  };
  const cli = (args: string[], options: SpawnSyncOptions = {}) => {
    const result = spawnSync(options.uid === undefined ? process.execPath : unprivilegedNode, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' }, ...options });
    return { status: result.status, signal: result.signal, stdout: String(result.stdout), stderr: String(result.stderr) };
  };

  it('a write that fails half-way (file size limit, as on a full disk) leaves the manifest whole', { skip: !posix || !existsSync('/usr/bin/prlimit') }, () => {
    const path = write('app.yaml', NEEDS_PDB('web'));
    const before = readFileSync(path, 'utf8');
    const run = spawnSync('prlimit', [`--fsize=${before.length + 20}`, process.execPath, CLI, 'check', '--fix', 'app.yaml', ...ONLY_PDB], { cwd: dir, encoding: 'utf8' });
    assert.equal(readFileSync(path, 'utf8'), before, 'old content, whole');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unchanged app\.yaml: file too large/);
    assert.doesNotMatch(run.stderr, /this is a bug|EFBIG/);
    assert.deepEqual(readdirSync(dir), ['app.yaml'], 'no temporary file left behind');
  });

  it('replaces the file atomically: a new inode, the mode kept', { skip: !posix }, () => {
    const path = write('app.yaml', NEEDS_PDB('web'));
    execFileSync('chmod', ['640', path]);
    const inode = statSync(path).ino;
    assert.equal(cli(['check', '--fix', 'app.yaml', ...ONLY_PDB]).status, 0);
    assert.notEqual(statSync(path).ino, inode);
    assert.equal(statSync(path).mode & 0o777, 0o640);
    assert.match(readFileSync(path, 'utf8'), /kind: PodDisruptionBudget/);
  });

  it('a link leading outside the tree is analysed but never written; the report says so', { skip: !posix }, () => {
    const outside = write('outside/shared.yaml', NEEDS_PDB('shared'));
    const before = readFileSync(outside, 'utf8');
    write('tree/own.yaml', NEEDS_PDB('own'));
    symlinkSync(outside, join(dir, 'tree', 'shared.yaml'));
    const run = cli(['check', '--fix', 'tree', ...ONLY_PDB, '--format', 'json']);
    assert.equal(readFileSync(outside, 'utf8'), before, 'the file outside the tree is untouched');
    assert.ok(lstatSync(join(dir, 'tree', 'shared.yaml')).isSymbolicLink(), 'the link is still a link');
    assert.match(readFileSync(join(dir, 'tree', 'own.yaml'), 'utf8'), /kind: PodDisruptionBudget/);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /changed {3}tree\/own\.yaml \(1 fix\)/);
    assert.match(run.stderr, new RegExp(`unchanged tree/shared\\.yaml: a link to ${outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, outside tree: not written`));
    const report = JSON.parse(run.stdout);
    assert.deepEqual(report.findings.map((f: { file: string; ruleId: string }) => [f.file, f.ruleId]), [['tree/shared.yaml', 'pdb-missing']], 'what was not fixed is still reported');
  });

  it('a file named, and met again through a link out of another tree given, is fixed whatever the order of the paths (`--fix tree outside/shared.yaml` left it)', { skip: !posix }, () => {
    const outside = write('outside/shared.yaml', NEEDS_PDB('shared'));
    mkdirSync(join(dir, 'tree'));
    symlinkSync(outside, join(dir, 'tree', 'shared.yaml'));
    for (const args of [['tree', join('outside', 'shared.yaml')], [join('outside', 'shared.yaml'), 'tree']]) {
      writeFileSync(outside, NEEDS_PDB('shared'));
      const run = cli(['check', '--fix', ...args, ...ONLY_PDB]);
      assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(readFileSync(outside, 'utf8'), /kind: PodDisruptionBudget/, args.join(' '));
      assert.ok(lstatSync(join(dir, 'tree', 'shared.yaml')).isSymbolicLink(), 'the link is still a link');
    }
  });

  it('a link to a file named directly that leaves its folder is not written either', { skip: !posix }, () => {
    const outside = write('outside/shared.yaml', NEEDS_PDB('shared'));
    const before = readFileSync(outside, 'utf8');
    mkdirSync(join(dir, 'tree'));
    symlinkSync(outside, join(dir, 'tree', 'shared.yaml'));
    assert.equal(cli(['check', '--fix', 'tree/shared.yaml', ...ONLY_PDB]).status, 2);
    assert.equal(readFileSync(outside, 'utf8'), before);
  });

  it('a file with other hard links is fixed, and the report says its other links keep the old text (they parted in silence)', { skip: !posix }, () => {
    const path = write('app.yaml', NEEDS_PDB('web'));
    linkSync(path, join(dir, 'app.yaml.bak'));
    const run = cli(['check', '--fix', 'app.yaml', ...ONLY_PDB]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(readFileSync(path, 'utf8'), /kind: PodDisruptionBudget/);
    assert.equal(readFileSync(join(dir, 'app.yaml.bak'), 'utf8'), NEEDS_PDB('web'));
    assert.match(run.stderr, /^ {2}app\.yaml had 1 other hard link, which keeps the text it had: a fix replaces the file$/m);
  });

  it('a link inside the tree: its target is fixed and the link stays a link', { skip: !posix }, () => {
    const target = write('tree/base/app.yaml', NEEDS_PDB('web'));
    symlinkSync(join('base', 'app.yaml'), join(dir, 'tree', 'app.yaml'));
    const run = cli(['check', '--fix', 'tree/app.yaml', ...ONLY_PDB]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(lstatSync(join(dir, 'tree', 'app.yaml')).isSymbolicLink());
    assert.match(readFileSync(target, 'utf8'), /kind: PodDisruptionBudget/);
  });

  it('a writable file in a folder the user may not write to is left, and the report says it is the folder (it said "permission denied", as of a read-only file)', { skip: !posix }, () => {
    const file = write('shut/a.yaml', NEEDS_PDB('a'));
    handOver(dir);
    chmodSync(join(dir, 'shut'), 0o555);
    try {
      const before = readFileSync(file, 'utf8');
      const run = cli(['check', '--fix', 'shut', ...ONLY_PDB], unprivileged);
      assert.equal(run.status, 2, run.stderr);
      assert.equal(readFileSync(file, 'utf8'), before);
      assert.match(run.stderr, /^ {2}unchanged shut\/a\.yaml: permission denied to make a file in its folder, which writing it whole needs$/m);
    } finally {
      chmodSync(join(dir, 'shut'), 0o755);
    }
  });

  it('a read-only file among several: the others are fixed, and the report names what changed and what did not', { skip: !posix }, () => {
    write('k8s/a.yaml', NEEDS_PDB('a'));
    const locked = write('k8s/b.yaml', NEEDS_PDB('b'));
    write('k8s/c.yaml', NEEDS_PDB('c'));
    handOver(dir);
    makeReadOnly(locked);
    const before = readFileSync(locked, 'utf8');
    const run = cli(['check', '--fix', 'k8s', ...ONLY_PDB], unprivileged);
    assert.equal(run.status, 2, 'not a clean run');
    assert.equal(readFileSync(locked, 'utf8'), before);
    for (const name of ['a', 'c']) assert.match(readFileSync(join(dir, 'k8s', `${name}.yaml`), 'utf8'), /kind: PodDisruptionBudget/);
    assert.equal(
      run.stderr,
      [
        'kube-resilience check: applied 2 fixes in 2 files',
        '  changed   k8s/a.yaml (1 fix)',
        '  changed   k8s/c.yaml (1 fix)',
        '  unchanged k8s/b.yaml: permission denied',
        'kube-resilience check: --fix could not fix 1 file; each file is written whole or not at all',
        '',
      ].join('\n'),
    );
    assert.match(run.stdout, /k8s\/b\.yaml\n.*pdb-missing/, 'the unfixed file keeps its finding');
    assert.doesNotMatch(run.stdout, /k8s\/a\.yaml/);
  });

  it('a file of more documents than the memory can fix at once is left as it was, and said so (a 30 MB file ran out of memory with no word)', () => {
    const many = write('k8s/many.yaml', Array.from({ length: 3_000 }, (_, i) => NEEDS_PDB(`app-${i}`)).join('---\n'));
    // One of those outside the tree, behind a link: its fixes are not worked out either (they were, to say it is not written).
    const outside = join(dir, 'outside.yaml');
    writeFileSync(outside, Array.from({ length: 3_000 }, (_, i) => NEEDS_PDB(`out-${i}`)).join('---\n'));
    symlinkSync(outside, join(dir, 'k8s', 'linked.yaml'));
    const before = readFileSync(many, 'utf8');
    // With a heap of 150 MB the fixes of about 2,000 documents are worked out at once.
    const result = spawnSync(process.execPath, ['--max-old-space-size=150', CLI, 'check', '--fix', 'k8s', ...ONLY_PDB], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(readFileSync(many, 'utf8'), before);
    assert.match(result.stderr, /^ {2}unchanged k8s\/many\.yaml: it holds 3,000 documents, more than the [12],\d{3} whose fixes this process has the memory to work out at once: split it into files$/m);
    assert.doesNotMatch(result.stderr, /linked\.yaml/, 'nothing to say of a file whose fixes were not worked out');
  });

  it('a file its own fixes grow past what the memory can fix at once keeps them, and is not said to be unchanged too (it was both, exit 2)', () => {
    // With a heap of 100 MB the fixes of about 1,500 documents are worked out at once: 800 Deployments are, and with
    // a PDB each they are 1,600, which the next pass cannot work out again.
    const grown = write('k8s/grown.yaml', Array.from({ length: 800 }, (_, i) => NEEDS_PDB(`app-${i}`)).join('---\n'));
    const result = spawnSync(process.execPath, ['--max-old-space-size=100', CLI, 'check', '--fix', 'k8s', ...ONLY_PDB], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(result.stderr, 'kube-resilience check: applied 800 fixes in 1 file\n');
    assert.equal(result.status, 0);
    assert.equal(readFileSync(grown, 'utf8').match(/^kind: PodDisruptionBudget$/gm)?.length, 800);
  });

  it('Ctrl-C while the fixes are written: the file being written is finished, no other is, and the report lists those changed (exit 130)', { skip: !posix }, async () => {
    const count = 300;
    const names = Array.from({ length: count }, (_, i) => `k8s/app-${String(i).padStart(3, '0')}.yaml`);
    for (const [i, name] of names.entries()) write(name, NEEDS_PDB(`app-${i}`));
    const child = spawn(process.execPath, [CLI, 'check', '--fix', 'k8s', ...ONLY_PDB], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const ended = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
    const fixed = (name: string) => readFileSync(join(dir, name), 'utf8').includes('kind: PodDisruptionBudget');
    for (let wait = 0; !fixed(names[0]) && wait < 1_200; wait++) await new Promise((resolve) => setTimeout(resolve, 25));
    child.kill('SIGINT');
    assert.equal(await ended, 130, stderr);
    const written = names.filter(fixed);
    assert.ok(written.length > 0 && written.length < count, `${written.length} of ${count} files written after Ctrl-C`);
    assert.match(stderr, /^kube-resilience check: stopped: no more files are written\nkube-resilience check: applied \d+ fix(es)? in \d+ files?\n/);
    const listed = [...stderr.matchAll(/^ {2}changed {3}(\S+) \(1 fix\)$/gm)].map((m) => m[1]);
    assert.deepEqual(listed, written);
    // Each file is whole: fixed, or as it was.
    for (const name of names) if (!fixed(name)) assert.equal(readFileSync(join(dir, name), 'utf8'), NEEDS_PDB(`app-${names.indexOf(name)}`));
  });

  it('the spread fix on a pod template with an empty `labels:` is not applied over and over, and is said not applied (exit 2)', () => {
    const text = NEEDS_PDB('web').replace('      labels:\n        app: web\n', '      labels:\n');
    const path = write('empty-labels.yaml', text);
    const run = cli(['check', '--fix', 'empty-labels.yaml', '--fail-on', 'none']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /not applied in empty-labels\.yaml: the fixes of pdb-missing and replicas-not-spread did not take their findings away/);
    assert.ok(!readFileSync(path, 'utf8').includes('topologySpreadConstraints'));
  });
});

describe('check reads only regular files', { skip: !existsSync(CLI) || !posix ? 'dist/cli.js is not built, or not POSIX' : false }, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-read-safety-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (args: string[], input?: string) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, input, encoding: 'utf8', timeout: 60_000 });

  it('a FIFO and a link to /dev/zero named *.yaml in the tree are skipped; the rest is checked', () => {
    writeFileSync(join(dir, 'app.yaml'), NEEDS_PDB('web'));
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    const run = cli(['check', '.', '--format', 'json', '--fail-on', 'none']);
    assert.equal(run.signal, null, 'finished');
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual([...new Set(JSON.parse(run.stdout).findings.map((f: { file: string }) => f.file))], ['app.yaml']);
  });

  it('a FIFO or /dev/zero named on the command line: exit 2 with a clear message', () => {
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    const fifo = cli(['check', 'pipe.yaml']);
    assert.equal(fifo.status, 2);
    assert.equal(fifo.stderr, 'kube-resilience check: cannot read pipe.yaml: not a regular file (a FIFO) (pipe it to stdin: check -)\n');
    const zero = cli(['check', 'zero.yaml', '--fix']);
    assert.equal(zero.status, 2);
    assert.match(zero.stderr, /^kube-resilience check: cannot read zero\.yaml: not a regular file \(a device\)/);
  });

  it('stdin larger than the cap is refused while it is read', () => {
    const run = spawnSync('sh', ['-c', `head -c 40000000 /dev/zero | "${process.execPath}" "${CLI}" check -`], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 2);
    assert.equal(run.stderr, 'kube-resilience check: cannot read stdin: larger than 32 MB\n');
  });
});
