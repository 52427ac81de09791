// The packaged extension in a real VS Code (code-server 4.100.3) driven in headless Debian Chromium:
// Problems panel, hover card, a Quick Fix, the simulation webview, the status bar, and workspace trust.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { HEADLINE_LIMIT, splitMessage } from '../../server/src/rules/message-parts';
import { readLabels } from '../webview/label-boxes';
import { CONTAINERS, cutOffLabels, LABELS, overlappingLabels } from '../webview/layout-checks';
import { codeServerBinary, startCodeServer, type RunningCodeServer } from '../../scripts/editors';
import { editorsUnavailable } from './availability';
import { cliFindings, repoRoot, type CliFinding } from './cli-findings';
import { ARTIFACTS, CHROMIUM, packageVsix, Workbench } from './workbench';

const root = repoRoot;

const unavailable = editorsUnavailable([
  ['code-server', !!codeServerBinary()],
  ['chromium', existsSync(CHROMIUM)],
  ['the bundles (npm run build)', existsSync(join(root, 'dist', 'extension.js')) && existsSync(join(root, 'dist', 'cli.js'))],
]);

interface ExpectedFinding {
  file: string;
  ruleId: string;
  line: number;
  column: number;
}

function asExpected(findings: CliFinding[]): ExpectedFinding[] {
  return findings.map((f) => ({ file: f.file ?? '', ruleId: f.ruleId, line: f.range!.start.line + 1, column: f.range!.start.character + 1 })).sort(byPlace);
}

function manifestNames(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort();
}

function byPlace(a: ExpectedFinding, b: ExpectedFinding): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId);
}

/** The screenshots worth a place in the README (UPDATE_DOC_IMAGES=1 refreshes them in docs/images). */
const DOC_IMAGES = ['restricted-status', 'problems', 'hover', 'field-hover', 'quick-fix', 'select-context', 'cluster-findings', 'webview'];

/** A related-information row of the Problems panel: `billing.yaml[Ln 3, Col 1]: …`. */
const RELATED_ROW = /^\S+\[Ln \d+, Col \d+\]:/;

function saveDocImage(from: string, to: string): void {
  // pngquant makes them about a third of the size; without it they are kept as taken.
  const quantized = spawnSync('pngquant', ['--quality', '70-90', '--speed', '1', '--force', '--output', to, from]);
  if (quantized.status !== 0) copyFileSync(from, to);
}

/** An exec credential plugin that leaves a marker file behind when anything runs it. */
function writeExecKubeconfig(dir: string): { kubeconfig: string; marker: string } {
  const marker = join(dir, 'exec-plugin-ran');
  const plugin = join(dir, 'credential-plugin.sh');
  writeFileSync(
    plugin,
    `#!/bin/sh\ntouch '${marker}'\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'\n`,
  );
  chmodSync(plugin, 0o755);
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: exec-test',
      'clusters:',
      '  - name: unreachable',
      '    cluster: { server: "https://127.0.0.1:9" }',
      'users:',
      '  - name: plugin-user',
      '    user:',
      `      exec: { apiVersion: client.authentication.k8s.io/v1, command: "${plugin}", interactiveMode: Never }`,
      'contexts:',
      '  - name: exec-test',
      '    context: { cluster: unreachable, user: plugin-user }',
      '',
    ].join('\n'),
  );
  return { kubeconfig, marker };
}

describe('VS Code (code-server) with the packaged extension', { skip: unavailable }, () => {
  let server: RunningCodeServer;
  let workbench: Workbench;
  let page: Page;
  let workspace: string;
  let scratch: string;
  let exec: { kubeconfig: string; marker: string };
  let expected: CliFinding[];
  const started = Date.now();

  async function shot(name: string): Promise<void> {
    const file = await workbench.screenshot(`vscode-${name}`);
    if (process.env.UPDATE_DOC_IMAGES && DOC_IMAGES.includes(name)) saveDocImage(file, join(root, 'docs', 'images', `vscode-${name}.png`));
  }

  /** What the Problems panel lists, as file / rule id / line / column. */
  async function problems(): Promise<ExpectedFinding[]> {
    const rows = await allRows('.markers-panel');
    const listed: ExpectedFinding[] = [];
    let file = '';
    for (const row of rows) {
      const marker = /kube-resilience\s*\(?([a-z0-9-]+)\)?\s*\[Ln (\d+), Col (\d+)\]/.exec(row.replace(/\n/g, ' '));
      if (marker) listed.push({ file, ruleId: marker[1], line: Number(marker[2]), column: Number(marker[3]) });
      // A related-information row ("billing.yaml[Ln 3, Col 1]: why…") belongs to the problem above it.
      else if (!RELATED_ROW.test(row)) file = row.split('\n')[0].trim();
    }
    return listed.sort(byPlace);
  }

  async function waitForProblems(want: ExpectedFinding[], timeoutMs = 20_000): Promise<void> {
    // The list is virtualised: maximised, the panel renders every row.
    await workbench.runCommand('View: Toggle Maximized Panel');
    const deadline = Date.now() + timeoutMs;
    let seen: ExpectedFinding[] = [];
    while (Date.now() < deadline) {
      seen = await problems();
      if (JSON.stringify(seen) === JSON.stringify(want)) break;
      await page.waitForTimeout(250);
    }
    await workbench.runCommand('View: Toggle Maximized Panel');
    assert.deepEqual(seen, want, 'the Problems panel lists what the CLI finds');
  }

  /** Every row of a virtualised list, scrolled through from the top (a maximised panel may still not hold them all). */
  async function allRows(container: string): Promise<string[]> {
    const read = () => page.locator(`${container} .monaco-list-row`).evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('data-index')), (r as HTMLElement).innerText] as const));
    await scrollToTop(container);
    const seen = new Map<number, string>();
    for (let turn = 0; turn < 50; turn++) {
      const before = seen.size;
      for (const [index, text] of await read()) seen.set(index, text);
      if (turn > 0 && seen.size === before) break;
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(50);
    }
    await scrollToTop(container);
    return [...seen].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
  }

  async function scrollToTop(container: string): Promise<void> {
    await page.locator(`${container} .monaco-list`).first().hover();
    await page.mouse.wheel(0, -100_000);
    await page.waitForTimeout(200);
  }

  /** Problem rows whose message the panel cuts short (an ellipsis), and messages longer than the limit. */
  async function messagesNotShownWhole(): Promise<string[]> {
    const shown = await page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) =>
      rows
        .filter((row) => (row.textContent ?? '').includes('kube-resilience'))
        .flatMap((row) =>
          Array.from(row.querySelectorAll<HTMLElement>('*'))
            .filter((e) => e.children.length === 0 && !(e.textContent ?? '').includes('kube-resilience') && (e.textContent ?? '').length > 20)
            .map((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth + 1 || (e.parentElement?.scrollWidth ?? 0) > (e.parentElement?.clientWidth ?? 0) + 1 })),
        ),
    );
    assert.ok(shown.length >= expected.length, `the problem rows show their messages (${shown.length})`);
    return shown.filter((m) => m.cut || m.text.length > HEADLINE_LIMIT).map((m) => m.text);
  }

  /** Picks a Quick Fix by its title with the keyboard, as a user would (the menu re-renders under the mouse). */
  async function chooseCodeAction(title: string): Promise<void> {
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    for (let step = 0; step < 20; step++) {
      if ((await focused.getAttribute('aria-label')) === title) {
        await page.keyboard.press('Enter');
        return;
      }
      await page.keyboard.press('ArrowDown');
    }
    assert.fail(`no Quick Fix titled "${title}"`);
  }

  /** A step of the session: on failure its screenshot is kept as `vscode-failed-<n>.png`. */
  let steps = 0;
  function step(title: string, body: () => Promise<void>): void {
    const number = ++steps;
    it(title, async () => {
      try {
        await body();
      } catch (error) {
        await workbench?.screenshot(`vscode-failed-${number}`).catch(() => undefined);
        throw error;
      }
    });
  }

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    scratch = mkdtempSync(join(tmpdir(), 'kr-vscode-'));
    workspace = join(scratch, 'shop');
    cpSync(join(root, 'examples'), workspace, { recursive: true });
    expected = cliFindings(workspace, ['.']).filter((f) => f.file !== null);
    exec = writeExecKubeconfig(scratch);
    const vsix = packageVsix(join(scratch, 'kube-resilience.vsix'));
    server = await startCodeServer({
      workspace,
      vsix,
      workspaceTrust: true,
      settings: { 'kubeResilience.kubeconfig': exec.kubeconfig, 'files.autoSave': 'off', 'editor.hover.delay': 100 },
    });
    workbench = await Workbench.open(server.url);
    page = workbench.page;
  });

  after(async () => {
    if (process.env.KEEP_EDITOR_LOGS) cpSync(join(server.root, 'user-data', 'logs'), join(ARTIFACTS, 'vscode-logs'), { recursive: true });
    await workbench?.close();
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    console.log(`vscode editor test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  step('opens the untrusted folder in Restricted Mode and runs no exec credential plugin there', async () => {
    await page.locator('#workbench\\.parts\\.statusbar', { hasText: 'Restricted Mode' }).waitFor();
    // The server has read (or given up on) the kubeconfig once the status leaves "⎈ …".
    await page.waitForFunction(() => Array.from(document.querySelectorAll(".statusbar-item")).some((e) => /⎈ (?!…)/.test(e.textContent ?? '')));
    await shot('restricted-status');
    assert.equal(existsSync(exec.marker), false, 'no exec credential plugin may run in an untrusted workspace');
  });

  step('lists the findings of the example files in the Problems panel, with rule ids', async () => {
    // The server reports on open documents, as VS Code's own language features do.
    for (const name of manifestNames(workspace)) await workbench.openFile(name);
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel').waitFor();
    await waitForProblems(asExpected(expected));
    await workbench.runCommand('View: Toggle Maximized Panel');
    assert.deepEqual(await messagesNotShownWhole(), [], `every message is one sentence of at most ${HEADLINE_LIMIT} characters, shown whole`);
    await workbench.runCommand('View: Toggle Maximized Panel');
    await page.locator('.markers-panel .monaco-list').first().focus();
    await page.keyboard.press('Home');
    await page.mouse.move(0, 0);
    await shot('problems');
  });

  /**
   * Hovers the first Deployment's kind and waits for the resilience card. The code lens drawn above the kind
   * pushes its line down: a pointer placed before that is left over the lens, and is placed again. Each time
   * from elsewhere: a hover where the pointer already is moves it nowhere, and the editor shows nothing.
   */
  async function hoverDeploymentKind() {
    const kind = page.locator('.view-line', { hasText: /^kind:\s*Deployment/ }).locator('span span', { hasText: 'Deployment' }).first();
    const hover = page.locator('.monaco-hover:visible', { hasText: 'What happens' });
    await page.locator('.codelens-decoration a', { hasText: 'What if the control plane dies?' }).first().waitFor();
    for (let attempt = 1; ; attempt++) {
      await page.mouse.move(0, 0);
      await kind.hover();
      try {
        await hover.waitFor({ timeout: 5_000 });
        return hover;
      } catch (error) {
        if (attempt === 4) throw error;
      }
    }
  }

  step("shows the resilience card when hovering a workload's kind", async () => {
    await workbench.openFile('billing.yaml');
    const hover = await hoverDeploymentKind();
    const text = await hover.innerText();
    assert.match(text, /Deployment legacy\/billing: one node drain can take all 3 pods offline/);
    assert.deepEqual(await hover.locator('del, s').allInnerTexts(), [], 'no text struck through: each "~" is literal');
    await shot('hover-under-a-finding');
    await page.keyboard.press('Escape');
  });

  step("the card of a workload fits its hover without scrolling, at VS Code's default hover size", async () => {
    // orders-api has findings, none on its kind line: the hover holds the card alone.
    await workbench.openFile('orders-api.yaml');
    const hover = await hoverDeploymentKind();
    assert.match(await hover.innerText(), /Deployment shop\/orders-api/);
    assert.deepEqual(await overflowOf(hover), { down: 0, across: 0 });
    await shot('hover');
    await page.keyboard.press('Escape');
  });

  step('a hover over a field with a finding shows the diagnostic once: ours names the rule, never the message again', async () => {
    const spread = expected.find((f) => f.ruleId === 'replicas-not-spread' && f.file === 'billing.yaml');
    assert.ok(spread, 'the CLI reports replicas-not-spread for billing.yaml');
    await workbench.openFile('billing.yaml');
    await page.locator('.view-line', { hasText: /^\s*replicas:\s*3/ }).locator('span span', { hasText: 'replicas' }).first().hover();
    const hover = page.locator('.monaco-hover:visible', { hasText: 'replicas-not-spread' });
    await hover.waitFor();
    const text = await hover.innerText();
    const { headline, details } = splitMessage(spread.message);
    assert.equal(text.split(headline).length - 1, 1, `the message appears once, in VS Code's own part of the hover:\n${text}`);
    assert.ok(text.split(details.slice(0, 60)).length - 1 <= 1, 'the rest of it at most once, as related information');
    await shot('field-hover');
    await page.keyboard.press('Escape');
  });

  step('applies the pdb-missing Quick Fix and the finding disappears', async () => {
    const pdbMissing = expected.find((f) => f.ruleId === 'pdb-missing' && f.file === 'billing.yaml');
    assert.ok(pdbMissing, 'the CLI reports pdb-missing for billing.yaml');
    const fix = pdbMissing.fixes.find((f) => f.preferred);
    assert.ok(fix, 'pdb-missing has a preferred fix');
    await workbench.openFile('billing.yaml');
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(`:${pdbMissing.range!.start.line + 1}:${pdbMissing.range!.start.character + 1}`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+.');
    const action = page.locator('.action-widget .monaco-list-row', { hasText: fix.title });
    await action.waitFor();
    await shot('quick-fix');
    await chooseCodeAction(fix.title);
    await page.locator('.tabs-container .tab.active.dirty', { hasText: 'billing.yaml' }).waitFor();
    await page.keyboard.press('Control+S');
    const file = join(workspace, 'billing.yaml');
    await waitUntil(() => readFileSync(file, 'utf8').includes('kind: PodDisruptionBudget'), 10_000, 'the fix is saved to billing.yaml');
    assert.match(readFileSync(file, 'utf8'), /^# The legacy billing app server/, 'comments are kept');
    await waitForProblems(asExpected(expected.filter((f) => f !== pdbMissing)));
  });

  step('reads the workspace again from the command palette: the extension registers the command, and the findings stay', async () => {
    await workbench.runCommand('Kube Resilience: Read the Workspace Again');
    await page.waitForTimeout(1_000);
    // A command nobody registered is an error VS Code shows in a dialog: "command '…' not found".
    assert.equal(await page.locator('.monaco-dialog-box, .notification-toast', { hasText: 'not found' }).count(), 0, 'VS Code found the command');
    await waitForProblems(asExpected(expected.filter((f) => !(f.ruleId === 'pdb-missing' && f.file === 'billing.yaml'))));
  });

  step('runs the exec credential plugin only once the folder is trusted (trust is pushed to the server)', async () => {
    await workbench.runCommand('Workspaces: Manage Workspace Trust');
    await page.locator('.workspace-trust-editor a.monaco-button', { hasText: /^Trust$/ }).click();
    await waitUntil(() => existsSync(exec.marker), 20_000, 'after trust is granted the server reads the cluster with the exec plugin');
    await page.keyboard.press('Control+W');
  });

  step('switches to the embedded demo cluster with Select Context and shows it in the status bar', async () => {
    await workbench.statusBarItem('⎈').click();
    const demo = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Embedded demo cluster' });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'exec-test' }).waitFor();
    await shot('select-context');
    await demo.click();
    await workbench.statusBarItem('⎈ demo').waitFor();
    await shot('status-demo');
  });

  step('lists the demo cluster\'s own findings in the Cluster Findings view', async () => {
    await workbench.runCommand('Focus on Cluster Findings View');
    const tree = page.locator('.monaco-list[aria-label="Cluster Findings"]');
    await tree.locator('.monaco-list-row', { hasText: 'Node cp-1' }).first().waitFor();
    await tree.locator('.monaco-list-row', { hasText: 'control-plane-single' }).first().waitFor();
    await shot('cluster-findings');
  });

  step('reveals a cluster finding on click: the live object, read-only, when no manifest defines it', async () => {
    const tree = page.locator('.monaco-list[aria-label="Cluster Findings"]');
    await tree.locator('.monaco-list-row', { hasText: 'control-plane-single' }).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'cp-1.yaml' }).waitFor();
    await page.locator('.view-line', { hasText: 'Live Node cp-1 in demo (read-only)' }).waitFor();
    await page.keyboard.press('Control+W');
  });

  step('tells an open live object again with each view of the cluster: another context\'s has no such object', async () => {
    const tree = page.locator('.monaco-list[aria-label="Cluster Findings"]');
    await tree.locator('.monaco-list-row', { hasText: 'control-plane-single' }).first().click();
    await page.locator('.view-line', { hasText: 'Live Node cp-1 in demo (read-only)' }).waitFor();
    const choose = async (context: string) => {
      await workbench.statusBarItem('⎈').click();
      await page.locator('.quick-input-list .monaco-list-row', { hasText: context }).click();
    };
    await choose('exec-test');
    await page.locator('.view-line', { hasText: 'Node cp-1 is not in the cluster view any more.' }).waitFor();
    await choose('Embedded demo cluster');
    await workbench.statusBarItem('⎈ demo').waitFor();
    await page.locator('.view-line', { hasText: 'Live Node cp-1 in demo (read-only)' }).waitFor();
    await page.keyboard.press('Control+W');
  });

  step('opens "What if the control plane dies?" and renders the demo cluster\'s timeline', async () => {
    await workbench.runCommand('Kube Resilience: What if the control plane dies?');
    const view = page.frameLocator('iframe.webview').frameLocator('#active-frame');
    await view.locator('section.timeline').waitFor({ timeout: 30_000 });
    await view.locator('#cluster-title', { hasText: 'demo' }).waitFor();
    assert.ok((await view.locator('section.timeline').innerText()).length > 20, 'the timeline has rows');
    await shot('webview');
  });

  step('the simulator reads cleanly 800, 1200 and 2000 px wide: no label overlaps another or runs out of its box', async () => {
    await workbench.runCommand('View: Close Primary Side Bar');
    await workbench.runCommand('View: Single Column Editor Layout');
    const frame = await simulatorFrame();
    const pageWidth = () => frame.evaluate(() => window.innerWidth);
    for (const width of [800, 1200, 2000]) {
      // The workbench around the webview takes its share: widen the window until the page is as wide as asked.
      let window = (await page.viewportSize())!.width + width - (await pageWidth());
      for (let turn = 0; turn < 5 && Math.abs((await pageWidth()) - width) > 2; turn++) {
        await page.setViewportSize({ width: window, height: 1000 });
        await page.waitForTimeout(500);
        window += width - (await pageWidth());
      }
      assert.ok(Math.abs((await pageWidth()) - width) <= 2, `the simulator page is ${await pageWidth()} px wide, not ${width}`);
      await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const labels = await readLabels(frame, LABELS, CONTAINERS);
      assert.ok(labels.some((l) => l.kind === 'axis tick'), `${width} px: the axis has ticks`);
      assert.deepEqual(overlappingLabels(labels), [], `${width} px: no two labels overlap`);
      assert.deepEqual(cutOffLabels(labels), [], `${width} px: no label runs out of its box`);
      await shot(`webview-${width}`);
    }
    await page.setViewportSize({ width: 1600, height: 1000 });
  });

  step('a lens above a workload\'s kind opens the simulator on that workload', async () => {
    await workbench.openFile('billing.yaml');
    const lens = page.locator('.codelens-decoration a', { hasText: 'What if the control plane dies?' }).first();
    await lens.waitFor();
    await lens.click();
    const view = page.frameLocator('iframe.webview').frameLocator('#active-frame');
    await view.locator('.timeline .row.focused[aria-label="legacy/billing"]').waitFor({ timeout: 30_000 });
    await shot('code-lens-focus');
  });

  /** The simulator page itself, inside the webview's two frames. */
  async function simulatorFrame(): Promise<Frame> {
    const outer = await (await page.locator('iframe.webview').first().elementHandle())!.contentFrame();
    return (await (await outer!.locator('#active-frame').elementHandle())!.contentFrame())!;
  }
});

/** How far a hover's content reaches past its box, down and across: 0 when it fits without scrolling. */
function overflowOf(hover: Locator): Promise<{ down: number; across: number }> {
  return hover.evaluate((widget) => {
    const content = widget.querySelector('.monaco-hover-content') ?? widget;
    const box = (content.closest('.monaco-scrollable-element') ?? widget).getBoundingClientRect();
    return { down: Math.max(0, Math.round(content.scrollHeight - box.height)), across: Math.max(0, Math.round(content.scrollWidth - box.width)) };
  });
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
