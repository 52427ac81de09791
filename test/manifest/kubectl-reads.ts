import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** What kubectl makes of a manifest, offline (no cluster): the JSON `kubectl apply` would send the API server. */
export function kubectlReads(text: string, kubectl: string): Record<string, unknown> {
  const result = spawnSync(kubectl, ['annotate', '--local', '-f', '-', 'read=1', '-o', 'json'], { input: text, encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/dev/null' }, timeout: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}
