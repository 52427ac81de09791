import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeFileError, readBoundedFd, readRegularFileBounded, UnreadableFileError } from '../../server/src/files/read-bounded';

const posix = process.platform !== 'win32';

describe('readRegularFileBounded', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-read-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file, and one behind a symbolic link', () => {
    writeFileSync(join(dir, 'a.yaml'), 'kind: x\n');
    assert.equal(readRegularFileBounded(join(dir, 'a.yaml'), 1024).toString(), 'kind: x\n');
    if (posix) {
      symlinkSync('a.yaml', join(dir, 'b.yaml'));
      assert.equal(readRegularFileBounded(join(dir, 'b.yaml'), 1024).toString(), 'kind: x\n');
    }
  });

  it('a file of exactly the cap is read; one byte more is refused', () => {
    writeFileSync(join(dir, 'cap.yaml'), 'x'.repeat(100));
    assert.equal(readRegularFileBounded(join(dir, 'cap.yaml'), 100).length, 100);
    assert.throws(() => readRegularFileBounded(join(dir, 'cap.yaml'), 99), (error: unknown) => error instanceof UnreadableFileError && error.code === 'ETOOLARGE' && error.message === 'larger than 99 bytes');
  });

  it('a symbolic link to /dev/zero is refused without reading (it never ends)', { skip: !posix }, () => {
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    assert.throws(() => readRegularFileBounded(join(dir, 'zero.yaml'), 1024), { code: 'ENOTREGULAR', message: 'not a regular file (a device)' });
  });

  it('a FIFO with no writer is refused at once instead of waiting forever', { skip: !posix }, () => {
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    assert.throws(() => readRegularFileBounded(join(dir, 'pipe.yaml'), 1024), { code: 'ENOTREGULAR', message: 'not a regular file (a FIFO)' });
  });

  it('a FIFO a writer waits on is refused without opening it: the writer goes on waiting, nothing it writes is taken and lost', { skip: !posix }, async () => {
    const pipe = join(dir, 'stream.yaml');
    execFileSync('mkfifo', [pipe]);
    const writer = spawn('sh', ['-c', `echo "kind: ConfigMap" > '${pipe}'`], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.throws(() => readRegularFileBounded(pipe, 1024), { code: 'ENOTREGULAR', message: 'not a regular file (a FIFO)' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(writer.exitCode, null, 'the writer still waits for a reader');
    } finally {
      writer.kill();
    }
  });

  it('what says nothing is ready yet is refused when read as a file, not read for ever (as /proc/kmsg is, opened non-blocking)', { skip: !posix }, () => {
    // A FIFO with a writer that writes nothing answers reads as /proc/kmsg does: EAGAIN, again and again.
    const fifo = join(dir, 'quiet');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      assert.throws(() => readBoundedFd(reader, 1024, { waitsForWriter: false }), (error: unknown) => error instanceof UnreadableFileError && error.code === 'ENOTREADY' && /nothing is ready to read/.test(error.message));
      writeFileSync(writer, 'kind: x\n');
      closeSync(writer);
      assert.equal(readBoundedFd(reader, 1024).toString(), 'kind: x\n', 'stdin, a pipe, waits for its writer');
    } finally {
      closeSync(reader);
    }
  });

  it('a folder is refused', () => {
    assert.throws(() => readRegularFileBounded(dir, 1024), (error: unknown) => ['ENOTREGULAR', 'EISDIR'].includes((error as { code: string }).code));
  });

  it('describes errors as a person reads them', () => {
    assert.throws(() => readRegularFileBounded(join(dir, 'missing.yaml'), 1024), (error: unknown) => describeFileError(error) === 'no such file or directory');
    assert.equal(describeFileError(Object.assign(new Error('EACCES: permission denied, open x'), { code: 'EACCES' })), 'permission denied');
    assert.equal(describeFileError(new UnreadableFileError('ETOOLARGE', 'larger than 32 MB')), 'larger than 32 MB');
  });
});
