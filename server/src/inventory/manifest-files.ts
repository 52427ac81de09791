import { isUtf8 } from 'node:buffer';
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';
import { realPathOrUndefined } from '../files/file-kind';
import { readRegularFileBounded, UnreadableFileError, withUnreadableName } from '../files/read-bounded';
import { VERSION_CONTROL_FOLDERS } from '../files/version-control';
import { within } from '../files/within';
import { compareCodeUnits } from '../sorted';
import { runSteps, type Steps } from '../steps';

export const MANIFEST_EXTENSIONS = /\.(ya?ml|json)$/i;

/** Whether a file of this name (or at this path) holds manifests: YAML or JSON, or a Kustomize root's `Kustomization`, which has no extension. */
export function isManifestName(path: string): boolean {
  return MANIFEST_EXTENSIONS.test(path) || /(^|[\\/])Kustomization$/.test(path);
}
const SKIP_DIRS = new Set(['node_modules', ...VERSION_CONTROL_FOLDERS, 'dist', 'out', '.cache', '.vscode-test']);
/** Whether a walk for manifests passes a folder of this name by: dependencies, builds, hidden folders. */
export function isSkippedFolder(name: string): boolean {
  return SKIP_DIRS.has(name) || name.startsWith('.');
}

/** Whether a walk for manifests from `root` enters `folder` (itself, or below it and in no folder it passes by). */
export function walkEnters(root: string, folder: string): boolean {
  return within(root, folder) && !relative(root, folder).split(sep).some((name) => name !== '' && isSkippedFolder(name));
}

/** Whether a walk for manifests from `root` would find the file at `path` (what is on disk is not looked at). */
export function walkReaches(root: string, path: string): boolean {
  return path !== root && isManifestName(path) && walkEnters(root, dirname(path));
}

/** The most manifests a walk of one folder finds: past it, the caller says that the rest is left out. */
export const MAX_MANIFESTS_PER_WALK = 20_000;

/** Files larger than this are not read as manifests: nothing written by hand is this big. */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/**
 * Manifest files below `dir`, sorted, skipping dependency and build folders. A folder that cannot be listed,
 * and a manifest that cannot be looked at or is too large, is passed to `unreadable` (by default, left out).
 */
export function findManifestFiles(dir: string, limit = MAX_MANIFESTS_PER_WALK, unreadable: UnreadableInWalk = () => undefined): string[] {
  return runSteps(manifestFilesInSteps(dir, limit, unreadable));
}

/**
 * Told of what a walk cannot read, and why: a folder it cannot list, a manifest it cannot stat (a folder that
 * lists but cannot be entered) or will not read (larger than MAX_MANIFEST_BYTES). It may throw to stop the walk.
 */
export type UnreadableInWalk = (path: string, error: unknown, what: 'folder' | 'file') => void;

/**
 * findManifestFiles, pausing after each entry of a folder: a server walking a workspace of 70,000 files
 * (1 s) answers requests meanwhile. It enters no linked folder that leads outside `boundary`. Depth first in name
 * order, with a stack of its own rather than recursion, so that a tree nested thousands deep cannot overflow the
 * call stack.
 */
export function* manifestFilesInSteps(dir: string, limit = MAX_MANIFESTS_PER_WALK, unreadable: UnreadableInWalk = () => undefined, boundary = dir): Steps<string[]> {
  const found: string[] = [];
  // Symbolic links may lead back up the tree or to a file seen already: each directory and file counts once.
  const seen = new Set<string>();
  const firstVisit = (stat: Stats) => {
    const identity = `${stat.dev}:${stat.ino}`;
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  };
  const folders: { path: string; entries: Dirent[]; next: number }[] = [];
  // The folder the walk stays in: the one walked, or the workspace folder a folder created below it belongs to (a
  // linked folder renamed in the editor was walked wherever it led).
  const realRoot = realPathOrUndefined(boundary);
  if (dir !== boundary && !leadsInside(realRoot, dir)) return found;
  const enter = (path: string) => {
    let entries: Dirent[];
    try {
      if (!firstVisit(statSync(path))) return;
      entries = readdirSync(path, { withFileTypes: true });
    } catch (error) {
      unreadable(path, withUnreadableName(path, error), 'folder');
      return;
    }
    folders.push({ path, entries: entries.sort(byName), next: 0 });
  };
  enter(dir);
  while (folders.length > 0 && found.length < limit) {
    const folder = folders[folders.length - 1];
    const entry = folder.entries[folder.next++];
    if (!entry) {
      folders.pop();
      continue;
    }
    const path = join(folder.path, entry.name);
    const kind = kindOf(entry, path, unreadable);
    if (kind === 'folder') {
      // A linked folder outside the one walked is not entered, as kubectl does not enter linked folders: a link to
      // / walked the whole machine (and stopped at the first folder it could not read).
      if (!isSkippedFolder(entry.name) && (!entry.isSymbolicLink() || leadsInside(realRoot, path))) enter(path);
    } else if (kind && kind.isFile() && firstVisit(kind)) {
      // Only regular files: a FIFO or a link to /dev/zero named *.yaml would be read forever.
      if (kind.size <= MAX_MANIFEST_BYTES) found.push(path);
      else unreadable(path, new UnreadableFileError('ETOOLARGE', `larger than ${MAX_MANIFEST_BYTES / 2 ** 20} MB`), 'file');
    }
    yield;
  }
  return found;
}

/**
 * A folder, a manifest file's stat, or nothing to read. Only manifests and symbolic links are stat'ed:
 * the listing tells folders and other files apart, which in a tree of 70,000 files saves most of the walk.
 */
function kindOf(entry: Dirent, path: string, unreadable: UnreadableInWalk): 'folder' | Stats | undefined {
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink() && !(entry.isFile() && isManifestName(entry.name))) return undefined;
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    // A link that leads nowhere (or round in a loop) is no manifest; one that cannot be looked at is said to be.
    const said = withUnreadableName(path, error);
    const code = (said as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ELOOP' && isManifestName(entry.name)) unreadable(path, said, 'file');
    return undefined;
  }
  if (stat.isDirectory()) return 'folder';
  return isManifestName(entry.name) ? stat : undefined;
}

/** Whether the link at `path` leads to `realRoot` or below it. */
function leadsInside(realRoot: string | undefined, path: string): boolean {
  const target = realPathOrUndefined(path);
  return realRoot !== undefined && target !== undefined && within(realRoot, target);
}

function byName(a: Dirent, b: Dirent): number {
  return compareCodeUnits(a.name, b.name);
}

/** How a manifest file was written on disk, so that a fix writes it back the same way. */
/**
 * How a manifest's bytes became its text; `not-utf8` text was decoded with replacement characters, and `odd-utf16`
 * UTF-16 lost its odd last byte: neither is ever written back.
 */
export type ManifestEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'not-utf8' | 'odd-utf16';

const ODD_UTF16 = 'UTF-16 text with an odd number of bytes: written back, its last byte would be lost, so it is left as it was';
const NOT_UTF8 = 'not UTF-8 text (a Latin-1 comment, say): written back, its other bytes would be lost, so it is left as it was';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A manifest's text: UTF-8, or UTF-16 when the file starts with its byte-order mark (PowerShell's
 * `kubectl get -o yaml > x.yaml` writes UTF-16), which read as UTF-8 would be binary noise. A byte-order
 * mark is not part of the text (editors leave it out, so a range on the first line counted it one column too far)
 * and is written back.
 */
export function decodeManifest(bytes: Buffer): { text: string; encoding: ManifestEncoding } {
  if (bytes.subarray(0, 3).equals(UTF8_BOM)) return { text: bytes.subarray(3).toString('utf8'), encoding: isUtf8(bytes) ? 'utf8-bom' : 'not-utf8' };
  const odd = bytes.length % 2 === 1;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: bytes.subarray(2).toString('utf16le'), encoding: odd ? 'odd-utf16' : 'utf16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    return { text: swapped.swap16().toString('utf16le'), encoding: odd ? 'odd-utf16' : 'utf16be' };
  }
  return { text: bytes.toString('utf8'), encoding: isUtf8(bytes) ? 'utf8' : 'not-utf8' };
}

export function encodeManifest(text: string, encoding: ManifestEncoding): Buffer {
  if (encoding === 'not-utf8') throw new Error(NOT_UTF8);
  if (encoding === 'odd-utf16') throw new Error(ODD_UTF16);
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  if (encoding === 'utf8-bom') return Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]);
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return encoding === 'utf16le' ? bytes : bytes.swap16();
}

/** A manifest read from disk: a regular file of at most MAX_MANIFEST_BYTES, or an UnreadableFileError. */
export function readManifestFile(path: string): { text: string; encoding: ManifestEncoding } {
  return decodeManifest(readRegularFileBounded(path, MAX_MANIFEST_BYTES));
}

/**
 * Replaces the file atomically: a failed or interrupted write leaves the old content whole. With `madeFrom`, the
 * text the new one was made from, a file that holds anything else by then is left as it is (ChangedMeanwhileError).
 * Returns how many other hard links it parted from.
 */
export function writeManifestFile(path: string, text: string, encoding: ManifestEncoding, madeFrom?: string): number {
  return writeFileAtomic(path, encodeManifest(text, encoding), { unchanged: madeFrom === undefined ? undefined : () => holds(path, madeFrom) });
}

function holds(path: string, text: string): boolean {
  try {
    return readManifestFile(path).text === text;
  } catch {
    return false;
  }
}
