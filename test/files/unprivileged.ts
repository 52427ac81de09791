import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Root may write any file, so a read-only file only stays read-only for someone else: as root, tests
 * run the program as `nobody` over a tree `nobody` owns, and a read-only file belongs to root.
 */
export const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

export const unprivileged: { uid?: number; gid?: number } = asRoot ? { uid: NOBODY, gid: NOBODY } : {};

/** Lets the unprivileged runner own `dir` and everything in it. */
export function handOver(dir: string): void {
  if (!asRoot) return;
  chownSync(dir, NOBODY, NOBODY);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) handOver(path);
    else if (!entry.isSymbolicLink()) chownSync(path, NOBODY, NOBODY);
  }
}

/** A file the unprivileged runner can read but not write. */
export function makeReadOnly(path: string): void {
  if (asRoot) {
    chownSync(path, 0, 0);
    chmodSync(path, 0o644);
  } else chmodSync(path, 0o444);
}

/**
 * A node the unprivileged runner can start: this one, or else one on PATH (a Node kept in root's home,
 * as the Node 22 pass's is, cannot be reached by `nobody`). What is tested is our code, not the Node.
 */
export const unprivilegedNode: string = !asRoot
  ? process.execPath
  : [process.execPath, ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'].find(
      (node) => spawnSync(node, ['--version'], { ...unprivileged, timeout: 10_000 }).status === 0,
    ) ?? process.execPath;
