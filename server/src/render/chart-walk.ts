import { readdirSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { VERSION_CONTROL_FOLDERS } from '../files/version-control';

/** More files and folders than any chart holds. */
const MAX_CHART_ENTRIES = 10_000;

/**
 * Visits each entry under a chart's folder (its subcharts' too, in the folders it `enters`), links not followed,
 * until `visit` returns true; false when it holds more than MAX_CHART_ENTRIES (then not all were visited). By
 * default it enters no version control folder: a chart at the root of its repository has git's own files, which
 * change with every status and may outnumber the chart's.
 */
export function walkChart(root: string, visit: (path: string, entry: Dirent) => boolean | void, enters: (path: string) => boolean = (path) => !VERSION_CONTROL_FOLDERS.has(basename(path))): boolean {
  const folders = [root];
  let entries = 0;
  while (folders.length) {
    const folder = folders.pop()!;
    let found: Dirent[];
    try {
      found = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of found) {
      if (++entries > MAX_CHART_ENTRIES) return false;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (enters(path)) folders.push(path);
      } else if (visit(path, entry)) return true;
    }
  }
  return true;
}
