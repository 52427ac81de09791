import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, fchmodSync, fchownSync, fstatSync, fsyncSync, lstatSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { onInterrupt } from '../on-interrupt';

export interface AtomicWriteOptions {
  /** The file's permission bits. Default: those of the file it replaces, or 0o666 less the umask for a new file. */
  mode?: number;
  /**
   * Asked just before the rename: whether the file still holds what the new content was made from. When it
   * does not (someone saved it meanwhile), nothing is replaced and a ChangedMeanwhileError is thrown.
   */
  unchanged?: () => boolean;
}

/** The file changed between the read a new content was made from and the write: their change is kept. */
export class ChangedMeanwhileError extends Error {
  constructor(how: 'changed' | 'deleted' = 'changed') {
    super(how === 'changed' ? 'changed since it was read: not written (run again to fix it as it is now)' : 'deleted since it was read: not written');
    this.name = 'ChangedMeanwhileError';
  }
}

/**
 * The file's folder takes no new file: the temporary file a whole-file write starts with cannot be made there (a
 * folder the user may not write to), though the file itself may be writable. Said apart from a read-only file.
 */
export class TemporaryFileError extends Error {
  /** The system's error code, as the error it stands for had it (EACCES, EROFS, ENOSPC…): callers tell errors by it. */
  readonly code: string | undefined;

  constructor(
    folder: string,
    readonly reason: unknown,
  ) {
    super(`no temporary file can be made in ${folder}`);
    this.name = 'TemporaryFileError';
    this.code = (reason as NodeJS.ErrnoException).code;
  }
}

/**
 * Replaces the file at `path` so that it holds either its old content or all of `content`, never a
 * part: the content goes to a temporary file in the same folder (same file system, so the rename is
 * atomic), is flushed to disk, and is renamed over `path`. A failure removes the temporary file and
 * leaves `path` as it was. `path` is replaced as a name: a symbolic link there is replaced, not
 * followed (callers that mean the link's target resolve it first). A read-only file is refused
 * (EACCES) as an in-place write would be, though the folder would allow the rename.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array | Iterable<string | Uint8Array>, options: AtomicWriteOptions = {}): number {
  const existing = statOrUndefined(path);
  if (existing) accessSync(path, constants.W_OK);
  const temporary = join(dirname(path), temporaryName(basename(path)));
  // Ctrl-C waits for the write (it ended the process in the middle of one, the temporary file left behind).
  const covered = onInterrupt(() => rmSync(temporary, { force: true }));
  // Owner-only until the content is complete: a half-written snapshot is never readable by others.
  let fd: number;
  try {
    fd = openSync(temporary, 'wx', 0o600);
  } catch (error) {
    covered();
    throw new TemporaryFileError(dirname(path), error);
  }
  try {
    try {
      for (const chunk of typeof content === 'string' || content instanceof Uint8Array ? [content] : content) writeAll(fd, chunk);
      fchmodSync(fd, options.mode ?? existing?.mode ?? 0o666 & ~currentUmask());
      if (existing) keepOwner(fd, existing);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.unchanged && !options.unchanged()) throw new ChangedMeanwhileError(statOrUndefined(path) || existing === undefined ? 'changed' : 'deleted');
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Renamed already, or never created: nothing left behind.
    }
    throw error;
  } finally {
    covered();
  }
  syncFolder(dirname(path));
  // Replaced by name, the file parts from its other hard links, which keep the old content: how many, for saying so.
  return existing ? existing.links - 1 : 0;
}

/**
 * A hidden name beside the file's own: its name, this process, a random part. A name near the 255-byte limit of a
 * file name is cut so that the temporary one fits too (a 250-byte name could never be fixed: ENAMETOOLONG).
 */
function temporaryName(name: string): string {
  const suffix = `.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let kept = name;
  while (Buffer.byteLength(`.${kept}${suffix}`) > MAX_NAME_BYTES) kept = kept.slice(0, -1);
  return `.${kept}${suffix}`;
}

/** The longest file name most file systems take (ext4, APFS, NTFS in UTF-16 units), in bytes. */
const MAX_NAME_BYTES = 255;

function writeAll(fd: number, chunk: string | Uint8Array): void {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** The file at `path` itself (a link there is replaced, so neither its target's mode nor its permissions count). */
function statOrUndefined(path: string): { mode: number; uid: number; gid: number; links: number } | undefined {
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid, links: stat.nlink } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Another user's file edited by root keeps its owner and group. Anyone else cannot give a file away, but keeps its
 * group when they are in it: a shared file (group-writable, in the team's group) taken into the fixer's own group
 * locked its owner out of it.
 */
function keepOwner(fd: number, existing: { uid: number; gid: number }): void {
  const created = fstatSync(fd);
  if (created.uid === existing.uid && created.gid === existing.gid) return;
  try {
    fchownSync(fd, existing.uid, existing.gid);
    return;
  } catch {
    // Not permitted: the file now belongs to whoever fixed it, as with any editor's save.
  }
  if (created.gid === existing.gid) return;
  try {
    fchownSync(fd, -1, existing.gid);
  } catch {
    // Not one of their groups.
  }
}

function currentUmask(): number {
  // process.umask() without an argument is deprecated; worker threads cannot read it at all.
  try {
    return process.umask();
  } catch {
    return 0o022;
  }
}

/** Makes the rename itself durable; folders cannot be opened for this on Windows, where rename is durable already. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Best effort.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
