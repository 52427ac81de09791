import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { FakeApiServer } from '../cluster/fake-apiserver';
import { tempDir, writeKubeconfig } from '../cluster/kubeconfig-fixtures';

const CLI = resolve('dist/cli.js');

function check(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.KUBECONFIG;
    const child = spawn(process.execPath, [CLI, 'check', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** The demo cluster with worker-a2's kube-proxy pod gone and a log agent of its own that tolerates the control plane only. */
function liveObjects(): any[] {
  const labels = { app: 'fluent-bit' };
  const podSpec = { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }], containers: [{ name: 'fluent-bit', image: 'cr.fluentbit.io/fluent/fluent-bit:3.2' }] };
  const fluentBit = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'fluent-bit', namespace: 'logging' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } } };
  return [...demoObjects().filter((o) => !(o.kind === 'Pod' && o.metadata.name.startsWith('kube-proxy-') && o.spec.nodeName === 'worker-a2')), fluentBit];
}

describe('node agents read from a live cluster', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let api: FakeApiServer;
  let kubeconfig: string;

  before(async () => {
    api = await FakeApiServer.start(liveObjects());
    kubeconfig = writeKubeconfig(join(tempDir('kr-node-agents-'), 'kubeconfig'), [{ name: 'staging', server: api.url, ca: api.ca, token: 't' }], 'staging');
  });
  after(async () => {
    assert.deepEqual(api.writes(), [], 'nothing but GET may reach the cluster');
    await api.stop();
  });

  it('reports the node without kube-proxy, and judges the live DaemonSets with the manifest rules', async () => {
    const result = await check(['examples/node-agents.yaml', '--kubeconfig', kubeconfig, '--format', 'json', '--fail-on', 'none']);
    assert.equal(result.status, 0, result.stderr);
    const findings = (JSON.parse(result.stdout).findings as { ruleId: string; file: string | null; resource: { kind: string; namespace: string; name: string } | null; message: string }[])
      .filter((f) => f.file === null)
      .map((f) => [f.ruleId, `${f.resource?.kind}/${f.resource?.namespace}/${f.resource?.name}`, f.message]);
    const byRule = (id: string) => findings.filter((f) => f[0] === id);
    assert.deepEqual(byRule('node-agent-missing'), [
      [
        'node-agent-missing',
        'DaemonSet/kube-system/kube-proxy',
        'DaemonSet kube-system/kube-proxy is missing on 1 of 5 nodes: they have no Service routing. DaemonSet kube-system/kube-proxy in cluster staging should run on worker-a2 (no pod), but does not, while the scheduler keeps placing pods there.',
      ],
    ]);
    assert.deepEqual(byRule('node-agent-priority').map((f) => f[1]), ['DaemonSet/logging/fluent-bit']);
    const [untolerated] = byRule('node-agent-untolerated');
    assert.equal(untolerated?.[1], 'DaemonSet/logging/fluent-bit');
    assert.match(untolerated[2], /tolerates only node-role\.kubernetes\.io\/control-plane:NoSchedule: in cluster staging, 1 node runs without it: gpu-b1 \(nvidia\.com\/gpu=present:NoSchedule\), and pods there get no log collection\./);
  });
});
