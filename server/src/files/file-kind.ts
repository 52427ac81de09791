import { lstatSync, realpathSync, statSync } from 'node:fs';

/** Whether `path` is a folder, links followed (false when nothing is there). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether anything sits at `path`, a link that leads nowhere included: a name a new file may not take. A dangling
 * link counted as free, and a fix's new file replaced it.
 */
export function nameTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `path` with its links resolved, or undefined when it leads nowhere. */
export function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** realPathOrUndefined looking each path up once: for a run over many files in few folders, or each file named twice. */
export function cachedRealPaths(): (path: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (path) => {
    if (!known.has(path)) known.set(path, realPathOrUndefined(path));
    return known.get(path);
  };
}
