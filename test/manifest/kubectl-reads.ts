import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** What kubectl makes of a manifest, offline (no cluster): the JSON `kubectl apply` would send the API server. */
export function kubectlReads(text: string, kubectl: string): Record<string, unknown> {
  const result = annotateOffline(text, kubectl);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** Why kubectl refuses a manifest, offline (its message), or undefined when it reads it. */
export function kubectlRefuses(text: string, kubectl: string): string | undefined {
  const result = annotateOffline(text, kubectl);
  return result.status === 0 ? undefined : result.stderr;
}

/** The names of the resources kubectl reads from a manifest, offline, in order. */
export function kubectlNames(text: string, kubectl: string): string[] {
  const result = annotateOffline(text, kubectl, 'name');
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split('\n').filter(Boolean).map((line) => line.slice(line.indexOf('/') + 1));
}

function annotateOffline(text: string, kubectl: string, output = 'json') {
  return spawnSync(kubectl, ['annotate', '--local', '-f', '-', 'read=1', '-o', output], { input: text, encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/dev/null' }, timeout: 60_000 });
}
