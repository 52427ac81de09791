import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveKubeconfig } from '../../server/src/cluster/kubeconfig';
import { runCheck } from '../../server/src/commands/check';
import { tempDir, writeKubeconfig } from './kubeconfig-fixtures';

function clientNodeLoaded(): boolean {
  return Object.keys(require.cache).some((path) => path.includes('@kubernetes/client-node'));
}

describe('client-node', () => {
  it('is loaded once a kubeconfig is read, and not before: a check of files alone goes without it', async () => {
    const dir = tempDir();
    const manifest = join(dir, 'app.yaml');
    writeFileSync(manifest, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n');
    const out: string[] = [];
    const io = { stdout: (text: string) => out.push(text), stderr: () => undefined, readStdin: () => '', isTty: false, version: 'test' };
    assert.equal(await runCheck([manifest, '--format', 'json', '--fail-on', 'none'], io), 0);
    assert.match(out.join(''), /single-replica/);
    assert.equal(clientNodeLoaded(), false);

    const kubeconfig = writeKubeconfig(join(dir, 'config'), [{ name: 'prod', server: 'https://prod.example:6443' }], 'prod');
    assert.equal(resolveKubeconfig({ env: { KUBECONFIG: kubeconfig } }).cluster.server, 'https://prod.example:6443');
    assert.equal(clientNodeLoaded(), true);
  });
});
