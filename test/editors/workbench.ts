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
    // F1 while the last command's palette is still fading out reopens nothing: wait until it is gone.
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`>${title}`);
    await this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).waitFor();
    await this.page.keyboard.press('Enter');
  }

  /** Quick Open (Ctrl+P) by file name. */
  async openFile(name: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(name);
    await this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
  }

  statusBarItem(text: string | RegExp) {
    return this.page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: text });
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
