// Where scripts/install-editors.sh puts the real editors, and how to run code-server isolated
// (offline, fresh profile, no marketplace) with the packaged extension: shared by the editor tests and `npm run try`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';

export function editorsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.KUBE_RESILIENCE_EDITORS ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kube-resilience-editors');
}

/** The installed code-server binary, or undefined when scripts/install-editors.sh has not run. */
export function codeServerBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = join(editorsDir(env), `code-server-${CODE_SERVER_VERSION}`);
  const bin = join(dir, 'node_modules', '.bin', 'code-server');
  return existsSync(join(dir, '.installed')) && existsSync(bin) ? bin : undefined;
}

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** User settings that keep VS Code from calling the network and from opening things of its own. */
export const OFFLINE_SETTINGS = {
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'json.schemaDownload.enable': false,
  'npm.fetchOnlinePackageInfo': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms:\n${output()}`);
}

export interface CodeServerOptions {
  /** The folder to open. */
  workspace: string;
  vsix: string;
  /** Other extensions to install beside it (.vsix files). */
  otherExtensions?: string[];
  /** Extra user settings (merged over OFFLINE_SETTINGS). */
  settings?: Record<string, unknown>;
  /** Leave workspace trust on (the folder then opens untrusted, in restricted mode). */
  workspaceTrust?: boolean;
  port?: number;
  /** Environment for code-server and the extension host (merged over the isolated HOME and XDG_*). */
  env?: NodeJS.ProcessEnv;
}

export interface RunningCodeServer {
  /** Opens the workspace folder. */
  url: string;
  /** The temporary HOME, user data and extensions of this run. */
  root: string;
  output(): string;
  stop(): Promise<void>;
}

/** Installs the VSIX into a fresh profile and starts code-server on 127.0.0.1 in its own process group. */
export async function startCodeServer(options: CodeServerOptions): Promise<RunningCodeServer> {
  const bin = codeServerBinary();
  if (!bin) throw new Error('code-server is not installed: run scripts/install-editors.sh');
  const root = mkdtempSync(join(tmpdir(), 'kr-code-server-'));
  const dirs = { home: join(root, 'home'), userData: join(root, 'user-data'), extensions: join(root, 'extensions') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  const settings = {
    ...OFFLINE_SETTINGS,
    'security.workspace.trust.enabled': options.workspaceTrust === true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'always',
    ...options.settings,
  };
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const port = options.port ?? (await freePort());
  const configFile = join(root, 'config.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: join(dirs.home, '.config'),
    XDG_DATA_HOME: join(dirs.home, '.local', 'share'),
    XDG_CACHE_HOME: join(dirs.home, '.cache'),
    EXTENSIONS_GALLERY: '{}',
    ...options.env,
  };
  const profile = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  const vsixes = [options.vsix, ...(options.otherExtensions ?? [])];
  const installed = spawnSync(bin, [...profile, ...vsixes.flatMap((v) => ['--install-extension', v])], { env, encoding: 'utf8', timeout: 60_000 });
  if (installed.status !== 0) throw new Error(`installing ${vsixes.join(', ')} into code-server failed:\n${installed.stdout}${installed.stderr}`);

  const args = [
    '--config', configFile, ...profile,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    options.workspace,
  ];
  // setsid: code-server, its extension host and pty host form one process group, stopped together.
  const child = spawn('setsid', [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && groupAlive(child.pid)) await new Promise((r) => setTimeout(r, 50));
      if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitForHealth(base, child, () => log, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${base}/?folder=${encodeURIComponent(options.workspace)}`, root, output: () => log, stop };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
