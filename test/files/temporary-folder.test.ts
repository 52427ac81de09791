import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { temporaryFolder } from '../../server/src/files/temporary-folder';

const MODULE = pathToFileURL(resolve('server/src/files/temporary-folder.ts')).toString();

/** A process that makes a temporary folder, says where, and ends as `end` ends it before removing it. */
function endedWhileHolding(end: string): { path: string; status: number | null } {
  const code = `const loaded = await import(${JSON.stringify(MODULE)}); const { temporaryFolder } = loaded.default ?? loaded; const folder = temporaryFolder('kr-held-'); console.log(folder.path); ${end}`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
  return { path: child.stdout.trim(), status: child.status };
}

describe('temporaryFolder', () => {
  it('makes a folder that remove takes away, and forgets it then', async () => {
    const listeners = () => process.listenerCount('exit') + process.listenerCount('SIGTERM');
    const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settled();
    const before = listeners();
    const folder = temporaryFolder('kr-folder-');
    assert.ok(existsSync(folder.path));
    folder.remove();
    assert.ok(!existsSync(folder.path));
    for (let i = 0; i < 3; i++) temporaryFolder('kr-folder-').remove();
    // The signals are given back two turns of the event loop later (see onInterrupt): a timer that ends a blocked poll
    // runs before the second, so one wait was not always enough.
    for (let turn = 0; turn < 50 && listeners() !== before; turn++) await settled();
    assert.equal(listeners(), before, 'removed, it no longer waits for the process to end (one cleanup a render piled up)');
  });

  it('is taken away when the process ends first, by a signal or an exit (a render\'s folder stayed behind)', { skip: process.platform === 'win32' && 'no POSIX signals' }, () => {
    for (const [end, status] of [['process.kill(process.pid, "SIGTERM"); await new Promise((r) => setTimeout(r, 5000));', 143], ['process.exit(3);', 3]] as const) {
      const ended = endedWhileHolding(end);
      assert.equal(ended.status, status, end);
      assert.ok(ended.path.includes('kr-held-'), ended.path);
      assert.ok(!existsSync(ended.path), `${end}: ${ended.path} is gone`);
    }
  });
});
