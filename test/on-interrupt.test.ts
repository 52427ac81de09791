import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'kr-interrupt-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the process in `mode`, sends it `signal` once it is ready, and says how it ended and what it did first. */
async function interrupt(mode: 'pending' | 'forgotten' | 'signalled-while-pending' | 'busy-after-forgotten', signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; done: string[] }> {
  const log = join(dir, `${mode}-${signal ?? 'none'}.log`);
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'interrupted-process.ts'), mode, log], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, how) => done({ code, signal: how })));
  if (signal) {
    await new Promise<void>((ready) => child.stdout.once('data', () => ready()));
    child.kill(signal);
  }
  const how = await ended;
  return { ...how, done: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [] };
}

describe('onInterrupt: work done before the process ends, however it ends', { skip: process.platform === 'win32' && 'POSIX signals' }, () => {
  it('Ctrl-C does the pending work, the last registered first (even past one that fails), then exits 130 as a shell reports it', async () => {
    assert.deepEqual(await interrupt('pending', 'SIGINT'), { code: 130, signal: null, done: ['last registered', 'first registered'] });
  });

  it('so do a cancelled job (SIGTERM, 143) and a closing terminal (SIGHUP, 129)', async () => {
    assert.deepEqual(await interrupt('pending', 'SIGTERM'), { code: 143, signal: null, done: ['last registered', 'first registered'] });
    assert.deepEqual(await interrupt('pending', 'SIGHUP'), { code: 129, signal: null, done: ['last registered', 'first registered'] });
  });

  it('a signal that comes while work is pending, whose cleanup is forgotten before the signal is handled, still ends the process (it was lost: the run went on)', async () => {
    assert.deepEqual(await interrupt('signalled-while-pending'), { code: 130, signal: null, done: [] });
  });

  it('with nothing pending, leaves the signal its default (a long synchronous run is stopped at once)', async () => {
    assert.deepEqual(await interrupt('forgotten', 'SIGINT'), { code: null, signal: 'SIGINT', done: [] });
  });

  it('synchronous work started once interruptibleAgain answers is stopped at once by Ctrl-C (the analysis after a render kept it waiting to its end)', async () => {
    const started = Date.now();
    assert.deepEqual(await interrupt('busy-after-forgotten', 'SIGINT'), { code: null, signal: 'SIGINT', done: [] });
    assert.ok(Date.now() - started < 15_000, `ended after ${Date.now() - started} ms, not once the 20 s of work were done`);
  });
});
