import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CLI } from './run-cli';

// /dev/full takes no byte: every write fails with ENOSPC, as a report redirected to a full disk does.
const noDevFull = !existsSync('/dev/full');

function runIntoFullDisk(args: string[]): { status: number | null; stderr: string } {
  const full = openSync('/dev/full', 'w');
  try {
    const run = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '' } });
    return { status: run.status, stderr: run.stderr };
  } finally {
    closeSync(full);
  }
}

describe('a report that cannot be written whole fails the run', { skip: noDevFull }, () => {
  for (const args of [
    ['check', 'examples', '--format', 'json', '--fail-on', 'none'],
    ['check', 'examples', '--format', 'sarif', '--fail-on', 'none'],
    ['simulate', '--demo', '--fail', 'apiserver'],
    ['snapshot', '--demo'],
  ]) {
    it(`${args.join(' ')} > a full disk: exit 2, and stderr says the output was cut short`, () => {
      const { status, stderr } = runIntoFullDisk(args);
      assert.equal(status, 2, stderr);
      assert.match(stderr, /^kube-resilience: the output could not be written whole: no space left on the device$/m);
      assert.doesNotMatch(stderr, /bug in kube-resilience|Unhandled|at .*\.js:\d+/);
    });
  }
});
