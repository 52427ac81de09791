import { readdirSync, readFileSync } from 'node:fs';
import { totalmem } from 'node:os';

/** How often a running tool's memory is looked at. */
const WATCH_EVERY_MS = 100;

/**
 * The most memory a tool we run may hold: 2 GiB, or half the machine's where that is less. A hostile chart
 * took helm to 3.2 GB (a `range` of ten million) and 4.4 GB (a `tpl` calling itself) before its deadline,
 * and a 1 GB generator file took kubectl to 11.4 GB: enough for the system to kill the editor instead.
 */
export const DEFAULT_MAX_TOOL_MEMORY_BYTES = Math.min(2 * 1024 ** 3, Math.floor(totalmem() / 2));

/** The memory a process holds (its resident set), where the system tells it (Linux); undefined elsewhere or once it is gone. */
export function residentBytes(pid: number): number | undefined {
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(procFile(pid, 'status'))?.[1];
  return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
}

/**
 * The memory a process and every process under it hold: a tool run through a wrapper (a `helm.path` script that
 * starts helm without `exec`) is the wrapper's child.
 */
export function treeResidentBytes(pid: number): number | undefined {
  const own = residentBytes(pid);
  if (own === undefined) return undefined;
  let total = own;
  const tasks = procFolder(pid, 'task');
  for (const task of tasks) {
    for (const child of procFile(pid, `task/${task}/children`).split(' ').filter(Boolean)) total += treeResidentBytes(Number(child)) ?? 0;
  }
  return total;
}

function procFile(pid: number, name: string): string {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return '';
  }
}

function procFolder(pid: number, name: string): string[] {
  try {
    return readdirSync(`/proc/${pid}/${name}`);
  } catch {
    return [];
  }
}

/**
 * Calls `exceeded` once the process and those it started hold more than `limit` bytes, looking every 100 ms;
 * returns how to stop looking. Where the system does not tell a process's memory, it never calls.
 */
export function watchMemory(pid: number, limit: number, exceeded: () => void): () => void {
  if (residentBytes(process.pid) === undefined) return () => undefined;
  const timer = setInterval(() => {
    const held = treeResidentBytes(pid);
    if (held === undefined || held <= limit) return;
    clearInterval(timer);
    exceeded();
  }, WATCH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
