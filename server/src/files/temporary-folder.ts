import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onInterrupt } from '../on-interrupt';

/** A folder of the system's temporary ones, and how to remove it. */
export interface TemporaryFolder {
  path: string;
  remove(): void;
}

/**
 * A new temporary folder, removed by `remove`, or when the process ends before that (Ctrl-C, a signal, an exit):
 * a render's `finally` never ran then, and each left its folder behind (40 of them when a server exited mid-render).
 */
export function temporaryFolder(prefix: string): TemporaryFolder {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const removeNow = () => rmSync(path, { recursive: true, force: true });
  const forget = onInterrupt(removeNow);
  return {
    path,
    remove: () => {
      forget();
      removeNow();
    },
  };
}

/** Why no temporary folder could be made, in words for whoever asked for the render. */
export function noTemporaryFolder(error: unknown): string {
  return `no temporary folder can be made in ${tmpdir()} (${(error as Error).message}): set TMPDIR to a folder that takes new files`;
}
