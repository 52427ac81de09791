import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { ChangedMeanwhileError, TemporaryFileError } from './atomic-write';

/** Why a file was not read; `code` lets callers tell these apart from the system's own errors (ENOENT, EACCES). */
export class UnreadableFileError extends Error {
  constructor(
    readonly code: 'ENOTREGULAR' | 'ENOTREADY' | 'ETOOLARGE' | 'EBADNAME',
    message: string,
  ) {
    super(message);
  }
}

const CHUNK_BYTES = 64 * 1024;
// A FIFO opened for reading blocks until someone writes to it; non-blocking, open returns and fstat refuses it.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of the regular file at `path` (links followed), at most `maxBytes` of them. A FIFO, a
 * device (`/dev/zero`), a socket or a folder is refused without reading; a file that grows past the
 * cap while it is read is refused at the cap, whatever its size said before.
 */
export function readRegularFileBounded(path: string, maxBytes: number): Buffer {
  // Looked at before it is opened: opening a FIFO lets a writer blocked on it go on, and what it writes is lost.
  refuseIrregular(statSync(path));
  const fd = openSync(path, OPEN_FLAGS);
  try {
    refuseIrregular(fstatSync(fd));
    return readBoundedFd(fd, maxBytes, { waitsForWriter: false });
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `fd` to its end, refusing at more than `maxBytes`. Stdin given as a pipe waits for its writer; a file that
 * says nothing is ready yet (a kernel interface such as /proc/kmsg, opened non-blocking) is refused, as it would
 * be read for ever.
 */
export function readBoundedFd(fd: number, maxBytes: number, { waitsForWriter = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    let read: number;
    try {
      read = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      // Not ENOTREGULAR, whose advice is to pipe the file to stdin: piped, it would be read for ever there.
      if (!waitsForWriter) throw new UnreadableFileError('ENOTREADY', 'it says nothing is ready to read, as a kernel interface does (/proc/kmsg): not a file\'s contents');
      pause(5);
      continue;
    }
    if (read === 0) break;
    total += read;
    if (total > maxBytes) throw new UnreadableFileError('ETOOLARGE', `larger than ${formatBytes(maxBytes)}`);
    chunks.push(chunk.subarray(0, read));
  }
  return Buffer.concat(chunks, total);
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Why the file at `path` cannot be read as a regular file (gone, a FIFO, a folder…), looked at without opening it; undefined when it can. */
export function unreadableFile(path: string): string | undefined {
  try {
    refuseIrregular(statSync(path));
    return undefined;
  } catch (error) {
    return describeFileError(error);
  }
}

function refuseIrregular(stat: Stats): void {
  if (!stat.isFile()) throw new UnreadableFileError('ENOTREGULAR', `not a regular file (${fileKind(stat)})`);
}

function fileKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a file';
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * The error of a path whose name the file system holds in bytes that are not UTF-8 (a Latin-1 name from an old
 * archive): Node reads such a name with U+FFFD in place of those bytes, and the path it makes leads nowhere.
 * Said as such, not as "no such file"; any other error as it is.
 */
export function withUnreadableName(path: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !path.includes('\uFFFD')) return error;
  return new UnreadableFileError('EBADNAME', 'its name is not valid UTF-8, and no path to it can be given here: rename it to check it');
}

/** The errors of a folder that refuses new files (a folder that is not there, or full, says so as it is). */
const FOLDER_REFUSALS = new Set(['EACCES', 'EPERM', 'EROFS']);

/** "no such file", "permission denied", "not a regular file (a FIFO)": a file error as a person reads it. */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof UnreadableFileError || error instanceof ChangedMeanwhileError) return error.message;
  // The file may be writable: its folder is not, and a whole-file write starts with a new file there.
  if (error instanceof TemporaryFileError) return `${describeFileError(error.reason)}${FOLDER_REFUSALS.has(error.code ?? '') ? ' to make a file in its folder, which writing it whole needs' : ''}`;
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'is a folder',
    ENOTDIR: 'a part of the path is not a folder',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'file too large for this system\'s limits',
    ELOOP: 'too many levels of symbolic links',
    EMFILE: 'too many open files',
    EBUSY: 'the file is busy',
    EIO: 'input/output error',
    ENAMETOOLONG: 'the file name is too long',
    ENXIO: 'not a file that can be read (a socket, or a device without its driver)',
    EINVAL: 'the system refuses to read it as a file (a kernel interface such as /proc/self/pagemap)',
  };
  return (code && known[code]) ?? code ?? (error as Error).message;
}
