// What the installers into the shared cache folders have in common: a lock so that two runs at once (two
// worktrees, parallel CI jobs on one runner) never install over each other, and running a program.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs a program and returns its stdout; throws with its stderr when it fails. */
export function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.error?.message ?? result.signal}):\n${result.stderr ?? ''}`);
  return result.stdout;
}

/** Holds a lock folder inside `root` while `work` runs; a lock whose holder is gone is taken over. */
export async function withLock(root, work) {
  mkdirSync(root, { recursive: true });
  const lock = join(root, '.lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (lockHolderIsGone(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is held by another install for over 10 minutes`);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockHolderIsGone(lock) {
  let pid;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false; // being written right now
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
}
