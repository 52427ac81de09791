import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path a `file:` uri names; undefined for other schemes and for uris that name no path. */
export function pathOf(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path with its links resolved: one file reached through a link (or a workspace opened through one) and by
 * its own path is one file, not two (its PDB was its own second budget). A path that is gone resolves through
 * its folder; one that cannot be resolved stays as written.
 */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}
