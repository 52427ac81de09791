import { realpathSync, statSync } from 'node:fs';

/** Whether `path` is a folder, links followed (false when nothing is there). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
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
