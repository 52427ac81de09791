// With the Kubernetes extension installed (a fixture publishing its configuration API), the packaged
// extension reads that extension's kubeconfig and context, and follows its context changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codeServerBinary, startCodeServer, type RunningCodeServer } from '../../scripts/editors';
import { editorsUnavailable } from './availability';
import { repoRoot } from './cli-findings';
import { ARTIFACTS, CHROMIUM, packageVsix, Workbench } from './workbench';

const unavailable = editorsUnavailable([
  ['code-server', !!codeServerBinary()],
  ['chromium', existsSync(CHROMIUM)],
  ['the bundles (npm run build)', existsSync(join(repoRoot, 'dist', 'extension.js'))],
]);

const KUBECONFIG = `apiVersion: v1
kind: Config
current-context: ctx-a
clusters:
  - name: cluster-a
    cluster: { server: "https://127.0.0.1:9" }
  - name: cluster-b
    cluster: { server: "https://127.0.0.1:9" }
users:
  - name: reader
    user: { token: not-a-real-token }
contexts:
  - name: ctx-a
    context: { cluster: cluster-a, user: reader }
  - name: ctx-b
    context: { cluster: cluster-b, user: reader }
`;

function packageFixture(out: string): string {
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const packed = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], {
    cwd: join(__dirname, 'fake-kubernetes-extension'),
    encoding: 'utf8',
  });
  assert.equal(packed.status, 0, `packaging the Kubernetes extension fixture failed:\n${packed.stdout}${packed.stderr}`);
  return out;
}

describe('VS Code with the Kubernetes extension installed', { skip: unavailable }, () => {
  let scratch: string;
  let server: RunningCodeServer;
  let workbench: Workbench;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'kr-k8s-ext-'));
    const workspace = join(scratch, 'workspace');
    mkdirSync(workspace);
    copyFileSync(join(repoRoot, 'examples', 'admin.yaml'), join(workspace, 'admin.yaml'));
    const kubeconfig = join(scratch, 'kubernetes-extension-kubeconfig');
    writeFileSync(kubeconfig, KUBECONFIG);
    server = await startCodeServer({
      workspace,
      vsix: packageVsix(join(scratch, 'kube-resilience.vsix')),
      otherExtensions: [packageFixture(join(scratch, 'fake-kubernetes.vsix'))],
      env: { FAKE_KUBERNETES_KUBECONFIG: kubeconfig },
    });
    workbench = await Workbench.open(server.url);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("reads the Kubernetes extension's kubeconfig and context, and follows its context changes", async () => {
    await workbench.statusBarItem('⎈ ctx-a').waitFor();
    await workbench.runCommand('Fake Kubernetes: Use Context ctx-b');
    await workbench.statusBarItem('⎈ ctx-b').waitFor();
    await workbench.screenshot('vscode-kubernetes-extension-status');
  });

  it('reads the cluster again on "Kube Resilience: Refresh Cluster" and keeps the context', async () => {
    await workbench.runCommand('Kube Resilience: Refresh Cluster');
    await workbench.page.waitForTimeout(1000);
    await workbench.statusBarItem('⎈ ctx-b').waitFor();
    assert.equal(await workbench.page.locator('.notification-toast', { hasText: 'cannot refresh' }).count(), 0);
  });

  it("lists the contexts of the Kubernetes extension's kubeconfig in Select Context", async () => {
    await workbench.statusBarItem('⎈').click();
    const rows = workbench.page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'ctx-a' }).waitFor();
    assert.match(await rows.filter({ hasText: 'ctx-b' }).innerText(), /in use/);
    assert.match(await rows.filter({ hasText: 'ctx-a' }).innerText(), /current-context/);
    await workbench.screenshot('vscode-kubernetes-extension-contexts');
    await workbench.page.keyboard.press('Escape');
  });
});
