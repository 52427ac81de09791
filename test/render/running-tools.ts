import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

/** Whether processes can be listed here (through /proc). */
export const canListProcesses = (() => {
  try {
    readFileSync('/proc/self/cmdline');
    return true;
  } catch {
    return false;
  }
})();

/** The ids of the running `program` processes whose command line holds `marker` (a release name made for the test). */
export function runningTools(program: string, marker: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    const argv = commandLine(pid);
    return argv.includes(marker) && new RegExp(`(^|/)${program}$`).test(argv.split('\0')[0]);
  });
}

function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Waits until `holds`, failing with `what` after `timeoutMs`. */
export async function until(holds: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > end) assert.fail(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
