// Driving VS Code's workbench (code-server) in headless Debian Chromium, the way a user would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from './cli-findings';

/** Debian's chromium (scripts/install-editors.sh installs it); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
export const ARTIFACTS = join(repoRoot, 'test-artifacts', 'editors');

/** `npm run package` over the bundles already built (npm test builds them first), into `out`. */
export function packageVsix(out: string): string {
  const packed = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'package.mjs'), '--no-build', '--out', out], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(packed.status, 0, `npm run package failed:\n${packed.stdout}${packed.stderr}`);
  return out;
}

export class Workbench {
  private constructor(
    readonly browser: Browser,
    readonly page: Page,
  ) {}

  static async open(url: string): Promise<Workbench> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // The size the Problems panel and the hover are judged at: a common laptop screen.
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 30_000 });
    return new Workbench(browser, page);
  }

  async screenshot(name: string): Promise<string> {
    const file = join(ARTIFACTS, `${name}.png`);
    // A hover or menu fades in: taken mid-animation it is a translucent ghost over the text.
    await this.page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => undefined))));
    await this.page.screenshot({ path: file });
    return file;
  }

  /** F1, the command's title, Enter. */
  async runCommand(title: string): Promise<void> {
    await this.pick('F1', `>${title}`, title);
  }

  /** Quick Open (Ctrl+P) by file name. */
  async openFile(name: string): Promise<void> {
    await this.pick('Control+P', name, name);
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
  }

  /**
   * Opens the quick input with `key`, types `text` and picks the row naming `row`. The quick input closes
   * when it loses focus, and a webview taking focus back after a layout change (the command before closed
   * the side bar) can close it between opening and typing: then it is opened again, before anything is picked.
   */
  private async pick(key: string, text: string, row: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    const input = widget.locator('input');
    for (let attempt = 1; ; attempt++) {
      // Pressed while the last quick input is still fading out, the key reopens nothing: wait until it is gone.
      await widget.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
      await this.page.keyboard.press(key);
      try {
        await input.waitFor();
        await input.fill(text, { timeout: 5_000 });
        await widget.locator('.quick-input-list .monaco-list-row.focused', { hasText: row }).waitFor();
        break;
      } catch (error) {
        if (attempt === 3 || !(await widget.isHidden())) throw error;
      }
    }
    await this.page.keyboard.press('Enter');
  }

  statusBarItem(text: string | RegExp) {
    return this.page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: text });
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
