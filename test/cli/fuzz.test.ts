import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { handOver, makeReadOnly, unprivileged, unprivilegedNode } from '../files/unprivileged';
import { mutate, seeded, seedFiles } from '../fuzz/mutate';
import { recordRow } from '../fuzz/reliability-rows';
import * as manifests from '../rules/manifests';

const CLI = resolve('dist/cli.js');
const SEED = Number(process.env.KR_FUZZ_SEED ?? 9);
const FILES = 40;
const posix = process.platform !== 'win32';
const yamlErrors = (text: string) => parseAllDocuments(text, { uniqueKeys: false }).reduce((n, d) => n + d.errors.length, 0);

describe(`fuzz: the CLI over mutated manifests and hostile trees (seed ${SEED})`, { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-cli-fuzz-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (args: string[], options: { uid?: number; gid?: number } = {}) => {
    const run = spawnSync(options.uid === undefined ? process.execPath : unprivilegedNode, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024, ...options });
    return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
  };

  it('check, check --fix and a second --fix: exit 0 or 1, output parses, fixes converge, nothing that parsed breaks', () => {
    const random = seeded(SEED);
    const seeds = seedFiles(FILES);
    const written = new Map<string, string>();
    for (let i = 0; i < FILES; i++) {
      const seed = seeds[i % seeds.length];
      const path = join('mutated', `${i}-${seed.name.replace(/[\\/]/g, '_')}`);
      const { text } = mutate(seed.text, random, 1 + Math.floor(random() * 3));
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
      written.set(path, text);
    }
    const checked = cli(['check', 'mutated', '--format', 'json']);
    assert.ok(checked.status === 0 || checked.status === 1, `check: exit ${checked.status} ${checked.stderr}`);
    JSON.parse(checked.stdout);
    const fixed = cli(['check', '--fix', 'mutated', '--format', 'sarif']);
    assert.ok(fixed.status === 0 || fixed.status === 1, `--fix: exit ${fixed.status} ${fixed.stderr}`);
    JSON.parse(fixed.stdout);
    const applied = /applied (\d+) fix/.exec(fixed.stderr);
    assert.ok(applied, fixed.stderr);
    let changed = 0;
    for (const [path, before] of written) {
      const after = readFileSync(join(dir, path), 'utf8');
      if (after !== before) changed++;
      if (yamlErrors(before) === 0) assert.equal(yamlErrors(after), 0, `${path} no longer parses after --fix`);
    }
    const again = cli(['check', '--fix', 'mutated', '--fail-on', 'none']);
    assert.equal(again.status, 0);
    assert.equal(again.stderr, 'kube-resilience check: applied 0 fixes in 0 files\n', 'a second --fix changes nothing');
    recordRow({
      faultClass: 'mutated manifests: CLI check and --fix',
      tried: `${FILES} mutated files in one tree through \`check\`, \`check --fix\` (SARIF) and a second \`--fix\`, seed ${SEED}`,
      cases: FILES,
      result: `exit codes 0/1 only; JSON and SARIF parse; ${applied![1]} fixes in ${changed} files, a second --fix applies 0; no file that parsed stopped parsing`,
    });
  });

  it('a tree of links, FIFOs, devices, oversized, unreadable and read-only files: check --fix ends, changes only what it may, and says what it did', { skip: !posix }, () => {
    const tree = join(dir, 'hostile');
    const outside = join(dir, 'outside');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    mkdirSync(outside);
    const needsPdb = (name: string) => manifests.deployment({ name, spec: '  replicas: 3\n' });
    writeFileSync(join(outside, 'shared.yaml'), needsPdb('shared'));
    writeFileSync(join(tree, 'own.yaml'), needsPdb('own'));
    writeFileSync(join(tree, 'locked.yaml'), needsPdb('locked'));
    writeFileSync(join(tree, 'sub', 'target.yaml'), needsPdb('target'));
    writeFileSync(join(tree, 'huge.yaml'), Buffer.alloc(33 * 1024 * 1024, 0x61));
    const links: [string, string][] = [
      ['out.yaml', join(outside, 'shared.yaml')],
      ['in.yaml', join('sub', 'target.yaml')],
      ['dangling.yaml', 'missing.yaml'],
      ['self.yaml', 'self.yaml'],
      ['loop', '.'],
      ['zero.yaml', '/dev/zero'],
      ['random.yaml', '/dev/urandom'],
      ['null.yaml', '/dev/null'],
      ['out-dir', outside],
    ];
    for (const [name, target] of links) symlinkSync(target, join(tree, name));
    execFileSync('mkfifo', [join(tree, 'pipe.yaml')]);
    handOver(dir);
    makeReadOnly(join(tree, 'locked.yaml'));
    const sharedBefore = readFileSync(join(outside, 'shared.yaml'), 'utf8');
    const lockedBefore = readFileSync(join(tree, 'locked.yaml'), 'utf8');

    const run = cli(['check', '--fix', 'hostile', '--rule', 'replicas-not-spread=off', '--format', 'json'], unprivileged);
    assert.equal(run.signal, null, 'ended by itself');
    assert.equal(run.status, 2, run.stderr);
    assert.doesNotMatch(run.stderr, /this is a bug|EACCES|\n\s+at /);
    JSON.parse(run.stdout);
    assert.equal(readFileSync(join(outside, 'shared.yaml'), 'utf8'), sharedBefore, 'nothing outside the tree changed');
    assert.equal(readFileSync(join(tree, 'locked.yaml'), 'utf8'), lockedBefore, 'the read-only file is as it was');
    assert.match(readFileSync(join(tree, 'own.yaml'), 'utf8'), /PodDisruptionBudget/);
    assert.match(readFileSync(join(tree, 'sub', 'target.yaml'), 'utf8'), /PodDisruptionBudget/);
    assert.match(run.stderr, /unchanged hostile\/locked\.yaml: permission denied/);
    assert.match(run.stderr, /unchanged hostile\/out[^:]*: a link to .*, outside hostile: not written/);
    assert.match(run.stderr, /skipped hostile\/huge\.yaml: larger than 32 MB/);
    recordRow({
      faultClass: 'links',
      tried: 'in one tree: a link to a file outside it, a link to a folder outside it, a link inside it, a dangling link, a link to itself, a link to the tree itself',
      cases: 6,
      result: 'outside targets analysed, never written (named in the report, exit 2); the inside link\'s target fixed, the link kept; dangling, looping and repeated links skipped; no hang',
    });
    recordRow({
      faultClass: 'FIFOs and devices',
      tried: 'a FIFO named *.yaml, links named *.yaml to /dev/zero, /dev/urandom and /dev/null, in a tree and named on the command line, and to the language server (workspace scan, didClose, watched-file events)',
      cases: 4,
      result: 'never opened for reading in a tree (only regular files); named directly: exit 2 "not a regular file (a FIFO)"; the language server keeps serving',
    });
    recordRow({
      faultClass: 'sizes',
      tried: 'a 33 MB manifest in a tree, 40 MB on stdin, a file of exactly the cap and one byte more',
      cases: 4,
      result: 'the cap (32 MB) is enforced while reading, whatever stat said: the big file is skipped and named (exit 2), stdin refused with "larger than 32 MB" (exit 2), the cap itself read',
    });
    recordRow({
      faultClass: 'fixes that cannot be written',
      tried: 'a read-only file among writable ones (as a user who may not write it), a write cut off by a file-size limit (as on a full disk), a process killed mid-write',
      cases: 3,
      result: 'each file fully fixed or left as it was (temp file, fsync, rename; mode kept); the report lists changed and unchanged files with the reason; exit 2, never "this is a bug"',
    });
  });
});
