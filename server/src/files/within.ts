import { basename, dirname, relative, sep } from 'node:path';

/** Whether `path` is `folder` or lies below it (both absolute, spelled alike). */
export function within(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Whether a path is one of `folders` or lies below one, found by its own folders: a walk of the list for each path was quadratic. */
export function withinAny(folders: readonly string[]): (path: string) => boolean {
  if (folders.length === 0) return () => false;
  if (folders.length === 1) return (path) => within(folders[0], path);
  const innermost = innermostOf(folders);
  return (path) => innermost(path) !== undefined;
}

/** The innermost of `folders` a path is or lies below, found by walking up the path's own folders. */
export function innermostOf(folders: readonly string[]): (path: string) => string | undefined {
  const byPath = new Map(folders.map((folder) => [folder.length > 1 && folder.endsWith(sep) ? folder.slice(0, -1) : folder, folder]));
  return (path) => {
    for (let at = path; ; ) {
      const found = byPath.get(at);
      if (found !== undefined) return found;
      const up = dirname(at);
      if (up === at) return undefined;
      at = up;
    }
  };
}

/** A path as a message names it: relative to `folder`, or by its own name when it is the folder itself. */
export function shownWithin(folder: string, path: string): string {
  return relative(folder, path) || basename(path);
}
