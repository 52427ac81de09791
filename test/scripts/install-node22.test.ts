import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

interface Node22Install {
  version: string;
  binary: string;
  installed: string | null;
}

/** What scripts/install-node22.mjs knows, asked of the module itself with the given environment. */
function node22Install(env: NodeJS.ProcessEnv = process.env): Node22Install {
  const script = `const m = await import('./scripts/install-node22.mjs');
    console.log(JSON.stringify({ version: m.NODE22_VERSION, binary: m.node22Binary(), installed: m.installedNode22() ?? null }));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as Node22Install;
}

function runTests(args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, ['scripts/test.mjs', ...args], { encoding: 'utf8', env });
}

describe('the Node 22 pass', () => {
  it('runs every suite on one Node: a `node` spawned from PATH is the Node running the tests', () => {
    const fromPath = spawnSync('node', ['-p', 'process.version'], { encoding: 'utf8' });
    assert.equal(fromPath.status, 0, fromPath.stderr);
    assert.equal(fromPath.stdout.trim(), process.version);
  });

  it('pins one exact Node 22 version', () => {
    assert.match(node22Install().version, /^22\.\d+\.\d+$/);
  });

  describe('without Node 22 installed', () => {
    let emptyCache: string;
    before(() => {
      emptyCache = mkdtempSync(join(tmpdir(), 'kr-node22-'));
    });
    after(() => rmSync(emptyCache, { recursive: true, force: true }));

    it('is skipped with the command that installs it, and passes, on a developer machine', () => {
      const result = runTests(['--node22'], { ...process.env, KUBE_RESILIENCE_NODE22: emptyCache, CI: '' });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /Node 22\.\d+\.\d+ is not installed.*node scripts\/install-node22\.mjs/);
    });

    it('fails under CI, where it must run', () => {
      const result = runTests(['--node22'], { ...process.env, KUBE_RESILIENCE_NODE22: emptyCache, CI: 'true' });
      assert.equal(result.status, 1);
      assert.match(result.stdout, /is not installed/);
    });

    it('does not take a binary of another version for Node 22', () => {
      const { version, binary } = node22Install({ ...process.env, KUBE_RESILIENCE_NODE22: emptyCache });
      assert.ok(binary.startsWith(emptyCache), `${binary} is inside KUBE_RESILIENCE_NODE22`);
      mkdirSync(join(binary, '..'), { recursive: true });
      writeFileSync(binary, '#!/bin/sh\necho v20.0.0\n', { mode: 0o755 });
      assert.equal(node22Install({ ...process.env, KUBE_RESILIENCE_NODE22: emptyCache }).installed, null, `v20.0.0 is not v${version}`);
    });
  });

  const { version, installed } = node22Install();
  it(`installs a Node that answers v${version}`, { skip: installed ? false : 'Node 22 is not installed (node scripts/install-node22.mjs)' }, () => {
    const reported = spawnSync(installed!, ['--version'], { encoding: 'utf8' });
    assert.equal(reported.stdout.trim(), `v${version}`);
    const again = spawnSync(process.execPath, ['scripts/install-node22.mjs'], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /into/, 'an installed Node is not installed again');
    assert.match(again.stdout, /ready/);
  });
});
