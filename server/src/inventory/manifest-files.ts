import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
      } else if (MANIFEST_EXTENSIONS.test(name) && stat.size <= MAX_MANIFEST_BYTES && firstVisit(stat)) {
        found.push(path);
      }
    }
  };
  walk(dir);
  return found;
}
