import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';
import { readRegularFileBounded } from '../files/read-bounded';

export const MANIFEST_EXTENSIONS = /\.(ya?ml|json)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '.cache', '.vscode-test']);
/** Files larger than this are not read as manifests: nothing written by hand is this big. */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/** Manifest files below `dir`, sorted, skipping dependency and build folders. */
export function findManifestFiles(dir: string, limit = 20_000): string[] {
  const found: string[] = [];
  // Symbolic links may lead back up the tree or to a file seen already: each directory and file counts once.
  const seen = new Set<string>();
  const firstVisit = (stat: { dev: number; ino: number }) => {
    const identity = `${stat.dev}:${stat.ino}`;
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  };
  const walk = (current: string) => {
    let names: string[];
    try {
      if (!firstVisit(statSync(current))) return;
      names = readdirSync(current).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (found.length >= limit) return;
      const path = join(current, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!SKIP_DIRS.has(name) && !name.startsWith('.')) walk(path);
      } else if (stat.isFile() && MANIFEST_EXTENSIONS.test(name) && stat.size <= MAX_MANIFEST_BYTES && firstVisit(stat)) {
        // Only regular files: a FIFO or a link to /dev/zero named *.yaml would be read forever.
        found.push(path);
      }
    }
  };
  walk(dir);
  return found;
}

/** How a manifest file was written on disk, so that a fix writes it back the same way. */
export type ManifestEncoding = 'utf8' | 'utf16le' | 'utf16be';

/**
 * A manifest's text: UTF-8, or UTF-16 when the file starts with its byte-order mark (PowerShell's
 * `kubectl get -o yaml > x.yaml` writes UTF-16), which read as UTF-8 would be binary noise.
 */
export function decodeManifest(bytes: Buffer): { text: string; encoding: ManifestEncoding } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: bytes.subarray(2).toString('utf16le'), encoding: 'utf16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    return { text: swapped.swap16().toString('utf16le'), encoding: 'utf16be' };
  }
  return { text: bytes.toString('utf8'), encoding: 'utf8' };
}

export function encodeManifest(text: string, encoding: ManifestEncoding): Buffer {
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return encoding === 'utf16le' ? bytes : bytes.swap16();
}

/** A manifest read from disk: a regular file of at most MAX_MANIFEST_BYTES, or an UnreadableFileError. */
export function readManifestFile(path: string): { text: string; encoding: ManifestEncoding } {
  return decodeManifest(readRegularFileBounded(path, MAX_MANIFEST_BYTES));
}

/** Replaces the file atomically: a failed or interrupted write leaves the old content whole. */
export function writeManifestFile(path: string, text: string, encoding: ManifestEncoding): void {
  writeFileAtomic(path, encodeManifest(text, encoding));
}
