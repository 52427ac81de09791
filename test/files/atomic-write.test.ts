import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ChangedMeanwhileError, writeFileAtomic } from '../../server/src/files/atomic-write';
import { asRoot, handOver, makeReadOnly, unprivileged, unprivilegedNode } from './unprivileged';

// Two users and the group they share, none of them this process's.
const OWNER = 64001;
const FIXER = 64002;
const TEAM = 64003;

const posix = process.platform !== 'win32';

describe('writeFileAtomic', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-atomic-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces the content and leaves no temporary file behind', () => {
    const path = join(dir, 'a.yaml');
    writeFileSync(path, 'old\n');
    writeFileAtomic(path, 'new\n');
    assert.equal(readFileSync(path, 'utf8'), 'new\n');
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('a.yaml')), ['a.yaml']);
  });

  it('writes chunks given one by one (a snapshot streamed out)', () => {
    const path = join(dir, 'chunks.json');
    writeFileAtomic(path, ['[', Buffer.from('1,'), '2]']);
    assert.equal(readFileSync(path, 'utf8'), '[1,2]');
  });

  it('a failure while writing leaves the old content whole and removes the temporary file', () => {
    const path = join(dir, 'fails.yaml');
    writeFileSync(path, 'kept: true\n');
    function* failing() {
      yield 'half of the new ';
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    }
    assert.throws(() => writeFileAtomic(path, failing()), { code: 'ENOSPC' });
    assert.equal(readFileSync(path, 'utf8'), 'kept: true\n');
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('fails.yaml')), ['fails.yaml']);
  });

  it('a process killed in the middle of the write leaves the old content whole', { skip: !posix }, () => {
    const path = join(dir, 'killed.yaml');
    writeFileSync(path, 'kept: true\n');
    const script = `
      const { writeFileAtomic } = require(${JSON.stringify(require.resolve('../../server/src/files/atomic-write'))});
      writeFileAtomic(${JSON.stringify(path)}, (function* () { yield 'x'.repeat(100000); process.kill(process.pid, 'SIGKILL'); })());`;
    const child = spawnSync(unprivilegedNode, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(child.signal, 'SIGKILL', child.stderr);
    assert.equal(readFileSync(path, 'utf8'), 'kept: true\n');
  });

  it('Ctrl-C in the middle of the write waits for it: the file is replaced whole, nothing is left behind, and the process then ends as interrupted (130)', { skip: !posix }, () => {
    const path = join(dir, 'interrupted.yaml');
    writeFileSync(path, 'kept: true\n');
    const script = `
      const { writeFileAtomic } = require(${JSON.stringify(require.resolve('../../server/src/files/atomic-write'))});
      writeFileAtomic(${JSON.stringify(path)}, (function* () { yield 'written: '; process.kill(process.pid, 'SIGINT'); yield 'whole\\n'; })());
      setTimeout(() => process.stdout.write('ran on after Ctrl-C'), 200);`;
    const child = spawnSync(unprivilegedNode, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.deepEqual([child.status, child.signal, child.stdout], [130, null, ''], child.stderr);
    assert.equal(readFileSync(path, 'utf8'), 'written: whole\n');
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('interrupted.yaml')), ['interrupted.yaml'], 'it left its temporary file');
  });

  it("someone who may not give the file away keeps its group when they are in it (it took the fixer's group, locking its owner out)", { skip: !asRoot && 'needs root to set up two users and a shared group' }, () => {
    const shared = mkdtempSync(join(tmpdir(), 'kr-shared-'));
    const path = join(shared, 'team.yaml');
    writeFileSync(path, 'kept: true\n');
    chownSync(shared, 0, TEAM);
    chmodSync(shared, 0o775);
    chownSync(path, OWNER, TEAM);
    chmodSync(path, 0o664);
    const script = `
      process.setgroups([${TEAM}]); process.setgid(${FIXER}); process.setuid(${FIXER});
      require(${JSON.stringify(require.resolve('../../server/src/files/atomic-write'))}).writeFileAtomic(${JSON.stringify(path)}, 'fixed: true\\n');`;
    const child = spawnSync(unprivilegedNode, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const stat = statSync(path);
    assert.deepEqual([readFileSync(path, 'utf8'), stat.uid, stat.gid, stat.mode & 0o777], ['fixed: true\n', FIXER, TEAM, 0o664]);
    rmSync(shared, { recursive: true, force: true });
  });

  it('says how many other hard links the file it replaced had (they keep the old content)', { skip: !posix }, () => {
    const path = join(dir, 'linked.yaml');
    writeFileSync(path, 'kept: true\n');
    linkSync(path, join(dir, 'linked.yaml.orig'));
    assert.equal(writeFileAtomic(path, 'fixed: true\n'), 1);
    assert.equal(readFileSync(join(dir, 'linked.yaml.orig'), 'utf8'), 'kept: true\n');
    assert.equal(writeFileAtomic(path, 'again: true\n'), 0, 'parted already');
    assert.equal(writeFileAtomic(join(dir, 'new.yaml'), 'x: 1\n'), 0);
  });

  it('keeps the mode of the file it replaces', { skip: !posix }, () => {
    const path = join(dir, 'script.yaml');
    writeFileSync(path, 'a\n');
    chmodSync(path, 0o640);
    writeFileAtomic(path, 'b\n');
    assert.equal(statSync(path).mode & 0o777, 0o640);
  });

  it('sets the mode it is given, also over an existing file', { skip: !posix }, () => {
    const path = join(dir, 'private.json');
    writeFileSync(path, '{}');
    chmodSync(path, 0o644);
    writeFileAtomic(path, '[]', { mode: 0o600 });
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const fresh = join(dir, 'fresh.json');
    writeFileAtomic(fresh, '[]', { mode: 0o600 });
    assert.equal(statSync(fresh).mode & 0o777, 0o600);
  });

  it('replaces a symbolic link by name, leaving its target alone', { skip: !posix }, () => {
    const target = join(dir, 'target.yaml');
    const link = join(dir, 'link.yaml');
    writeFileSync(target, 'target\n');
    symlinkSync(target, link);
    writeFileAtomic(link, 'new\n');
    assert.equal(readFileSync(target, 'utf8'), 'target\n');
    assert.equal(readFileSync(link, 'utf8'), 'new\n');
    assert.throws(() => readlinkSync(link), { code: 'EINVAL' });
  });

  it('a read-only file in a writable folder is refused (EACCES) and keeps its content', { skip: !posix }, () => {
    const folder = mkdtempSync(join(dir, 'readonly-'));
    const path = join(folder, 'a.yaml');
    writeFileSync(path, 'kept\n');
    handOver(folder);
    makeReadOnly(path);
    const script = `
      const { writeFileAtomic } = require(${JSON.stringify(require.resolve('../../server/src/files/atomic-write'))});
      try { writeFileAtomic(${JSON.stringify(path)}, 'new'); } catch (error) { process.stdout.write(error.code); }`;
    const child = spawnSync(unprivilegedNode, ['--import', 'tsx', '-e', script], { encoding: 'utf8', ...unprivileged });
    assert.equal(child.stdout, 'EACCES', child.stderr);
    assert.equal(readFileSync(path, 'utf8'), 'kept\n');
    assert.deepEqual(readdirSync(folder), ['a.yaml']);
  });

  it('replaces a file whose name is near the 255-byte limit (its temporary name is cut to fit; it failed with ENAMETOOLONG)', () => {
    const path = join(dir, `${'é'.repeat(120)}${'a'.repeat(5)}.yaml`);
    writeFileSync(path, 'old\n');
    writeFileAtomic(path, 'new\n');
    assert.equal(readFileSync(path, 'utf8'), 'new\n');
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('.é')), [], 'no temporary file left');
  });

  it('a file deleted since its new content was made is not made again, and says it was deleted', () => {
    const path = join(dir, 'deleted-meanwhile.yaml');
    writeFileSync(path, 'read: 1\n');
    const unchanged = () => existsSync(path) && readFileSync(path, 'utf8') === 'read: 1\n';
    const write = () => writeFileAtomic(path, 'fixed: 2\n', { unchanged: () => (rmSync(path), unchanged()) });
    assert.throws(write, (error: Error) => error instanceof ChangedMeanwhileError && error.message === 'deleted since it was read: not written');
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('deleted-meanwhile')), [], 'nothing made, nothing left behind');
  });

  it('what was no file of its own when the write began (nothing there, or a symbolic link) is said to have changed, never to have been deleted', { skip: !posix }, () => {
    const changed = (error: Error) => error instanceof ChangedMeanwhileError && error.message === 'changed since it was read: not written (run again to fix it as it is now)';
    const fresh = join(dir, 'new-meanwhile.yaml');
    assert.throws(() => writeFileAtomic(fresh, 'fixed: 2\n', { unchanged: () => false }), changed);
    assert.equal(existsSync(fresh), false);
    const target = join(dir, 'linked-meanwhile-target.yaml');
    const link = join(dir, 'linked-meanwhile.yaml');
    writeFileSync(target, 'read: 1\n# their edit\n');
    symlinkSync(target, link);
    assert.throws(() => writeFileAtomic(link, 'fixed: 2\n', { unchanged: () => false }), changed);
    assert.equal(readlinkSync(link), target);
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('meanwhile') && !n.startsWith('deleted') && !n.startsWith('saved')).sort(), ['linked-meanwhile-target.yaml', 'linked-meanwhile.yaml'], 'nothing left behind');
  });

  it('a file saved by someone else since its new content was made is left with their save, and nothing is left behind', () => {
    const path = join(dir, 'saved-meanwhile.yaml');
    writeFileSync(path, 'read: 1\n');
    const unchanged = () => readFileSync(path, 'utf8') === 'read: 1\n';
    writeFileSync(path, 'read: 1\n# their edit\n');
    assert.throws(() => writeFileAtomic(path, 'fixed: 2\n', { unchanged }), (error: Error) => error instanceof ChangedMeanwhileError && error.message === 'changed since it was read: not written (run again to fix it as it is now)');
    assert.equal(readFileSync(path, 'utf8'), 'read: 1\n# their edit\n');
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('saved-meanwhile')), ['saved-meanwhile.yaml']);
    writeFileAtomic(path, 'fixed: 2\n', { unchanged: () => true });
    assert.equal(readFileSync(path, 'utf8'), 'fixed: 2\n');
  });
});
