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
 * its own path is one file, not two. A path that is gone resolves through its nearest folder still there; one
 * that cannot be resolved stays as written.
 */
export function realPathOf(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest);
    } catch {
      if (dirname(at) === at) return path;
      rest.unshift(basename(at));
    }
  }
}
