import { sep } from 'node:path';

/** Whether `path` is `folder` or lies below it (both absolute, spelled alike). */
export function within(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
