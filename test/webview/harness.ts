// Serves the built page (renderHtml + dist/webview.js + media/webview.css) on 127.0.0.1 and opens it in
// Debian's headless Chromium, with a fake acquireVsCodeApi() that records what the page posts.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { renderHtml } from '../../client/src/simulation/html';
import type { FromWebview, ToWebview } from '../../server/src/simulate/messages';
import { THEMES, type ThemeName } from './themes';

export const CHROMIUM = '/usr/bin/chromium';
/** Where screenshots go (kept out of git): test-artifacts/webview/ under the repository. */
export const ARTIFACTS = join('test-artifacts', 'webview');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the browser tests cannot run here, or undefined when they can (on CI they always must). */
export function skipReason(): string | undefined {
  if (existsSync(CHROMIUM) || process.env.CI) return undefined;
  return `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium); webview tests skipped`;
}

export interface Harness {
  open(options?: { theme?: ThemeName; savedState?: unknown; width?: number }): Promise<WebviewPage>;
  close(): Promise<void>;
}

export interface WebviewPage {
  page: Page;
  /** Messages the page posted through the fake VS Code API, oldest first. */
  posted(): Promise<FromWebview[]>;
  waitForPosted(type: FromWebview['type'], count?: number): Promise<FromWebview>;
  /** Delivers a message as the extension would (any value: the page must validate it). */
  send(message: ToWebview | unknown): Promise<void>;
  savedState(): Promise<unknown>;
  /** The whole page as a PNG in ARTIFACTS, named `<name>.png`; returns its path. */
  screenshot(name: string): Promise<string>;
  /** Every URL the page (or anything in it) asked for beyond its own HTML, script and stylesheet. */
  strayRequests(): string[];
  consoleErrors: string[];
  consoleWarnings: string[];
}

const NONCE = 'dGVzdC1ub25jZS0xMjM0NTY3OA==';

export async function startHarness(): Promise<Harness> {
  const script = readFileSync('dist/webview.js');
  const style = readFileSync('media/webview.css');
  const strayServerRequests: string[] = [];
  const server: Server = createServer((request, response) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(renderHtml({ scriptUri: `${origin}/dist/webview.js`, styleUri: `${origin}/media/webview.css`, cspSource: origin, nonce: NONCE }));
    } else if (request.url === '/dist/webview.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (request.url === '/favicon.ico') response.writeHead(204).end(); // the browser's own, not the page's
    else if (request.url === '/media/webview.css') response.writeHead(200, { 'content-type': 'text/css' }).end(style);
    else {
      strayServerRequests.push(request.url ?? '');
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const userDataDir = mkdtempSync(join(tmpdir(), 'kr-webview-'));
  const context: BrowserContext = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1200, height: 900 } });

  return {
    async open({ theme = 'dark', savedState, width = 1200 } = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      const strayRequests: string[] = [];
      const consoleErrors: string[] = [];
      const consoleWarnings: string[] = [];
      page.on('request', (r) => {
        if (process.env.DEBUG_WEBVIEW) console.log('request', r.url());
        if (r.url() !== url && !r.url().endsWith('/dist/webview.js') && !r.url().endsWith('/media/webview.css')) strayRequests.push(r.url());
      });
      page.on('console', (m) => (m.type() === 'error' ? consoleErrors : m.type() === 'warning' ? consoleWarnings : []).push(m.text()));
      page.on('pageerror', (e) => consoleErrors.push(String(e)));
      if (process.env.DEBUG_WEBVIEW) page.on('pageerror', (e) => console.log('pageerror', e));
      if (process.env.DEBUG_WEBVIEW) page.on('console', (m) => console.log(m.type(), m.text()));
      const { bodyClasses, variables } = THEMES[theme];
      // A string, not a function: tsx's helpers would not exist inside the page.
      await page.addInitScript(`(() => {
        const posted = [];
        let state = ${JSON.stringify(savedState ?? null)};
        window.__posted = posted;
        // tsx names the inner functions of test code with __name(): a function passed to page.evaluate may have them.
        window.__name = (target) => target;
        window.__state = () => state;
        window.acquireVsCodeApi = () => ({
          postMessage: (m) => posted.push(JSON.parse(JSON.stringify(m))),
          getState: () => state,
          setState: (s) => { state = JSON.parse(JSON.stringify(s)); },
        });
        // What VS Code does to every webview: theme variables on <html>, the theme kind on <body>.
        document.addEventListener('DOMContentLoaded', () => {
          for (const [name, value] of Object.entries(${JSON.stringify(variables)})) document.documentElement.style.setProperty(name, value);
          document.body.classList.add(...${JSON.stringify(bodyClasses)});
        });
      })();`);
      await page.goto(url);
      await page.waitForFunction(() => ((window as unknown as { __posted: unknown[] }).__posted ?? []).length > 0);
      const posted = () => page.evaluate(() => (window as unknown as { __posted: FromWebview[] }).__posted);
      return {
        page,
        posted,
        async waitForPosted(type, count = 1) {
          const handle = await page.waitForFunction(([t, n]) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === t)[Number(n) - 1], [type, count] as const);
          return (await handle.jsonValue()) as FromWebview;
        },
        async send(message) {
          await page.evaluate((m) => window.postMessage(m, '*'), message);
          await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 20)));
        },
        savedState: () => page.evaluate(() => (window as unknown as { __state: () => unknown }).__state()),
        async screenshot(name) {
          mkdirSync(ARTIFACTS, { recursive: true });
          const path = join(ARTIFACTS, `${name}.png`);
          await page.screenshot({ path, fullPage: true });
          return path;
        },
        strayRequests: () => [...strayRequests, ...strayServerRequests],
        consoleErrors,
        consoleWarnings,
      };
    },
    async close() {
      await context.close();
      server.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A suite that runs in one Chromium (started before, closed after), skipped with the reason when it cannot run. */
export function describeInChromium(name: string, body: (harness: () => Harness) => void): void {
  const skip = skipReason();
  if (skip) {
    test(name, { skip }, () => undefined);
    return;
  }
  describe(name, () => {
    let harness: Harness | undefined;
    before(async () => {
      harness = await startHarness();
    });
    after(async () => harness?.close());
    body(() => harness!);
  });
}
