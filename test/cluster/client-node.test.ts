import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from './kubeconfig-fixtures';

/**
 * Runs the CLI from its sources with `args`, and says whether client-node was loaded by the time it
 * exited (its modules are listed in require.cache when loaded), with the exit code.
 */
function runCli(dir: string, args: string[]): { loaded: boolean; status: number | null; stderr: string } {
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, "process.on('exit', () => process.stdout.write(`\\nloaded:${Object.keys(require.cache).some((path) => path.includes('@kubernetes/client-node'))}`));\n");
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--require', probe, join('server', 'src', 'cli.ts'), ...args], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: join(dir, 'none') } });
  const loaded = /loaded:(true|false)$/.exec(result.stdout)?.[1];
  assert.ok(loaded, `the probe did not report: ${result.stdout.slice(-300)} ${result.stderr}`);
  return { loaded: loaded === 'true', status: result.status, stderr: result.stderr };
}

describe('client-node', () => {
  const dir = tempDir();
  const manifest = join(dir, 'app.yaml');
  writeFileSync(manifest, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n');

  it('is not loaded by a check of files alone', () => {
    const { loaded, status } = runCli(dir, ['check', manifest, '--format', 'json', '--fail-on', 'none']);
    assert.equal(status, 0);
    assert.equal(loaded, false);
  });

  it('is loaded once a kubeconfig is read', () => {
    const kubeconfig = join(dir, 'empty-kubeconfig');
    writeFileSync(kubeconfig, '');
    const { loaded, status, stderr } = runCli(dir, ['check', manifest, '--kubeconfig', kubeconfig]);
    assert.equal(status, 2);
    assert.match(stderr, /current-context/);
    assert.equal(loaded, true);
  });
});
