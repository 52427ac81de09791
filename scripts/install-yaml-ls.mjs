// Installs yaml-language-server — the performance peer `npm run bench` measures against — into a cache
// folder outside the project (it is no dependency of the extension). Pinned exactly, so every run
// compares against the same server. Several processes may call it at once: a lock file serialises
// them, and the package is installed beside its target and renamed into place, so an interrupted
// install never looks installed. Does nothing when it is already there.
// Usage: node scripts/install-yaml-ls.mjs   (prints the server's entry point)
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const YAML_LS_VERSION = '1.25.0';

function installRoot() {
  return process.env.KUBE_RESILIENCE_YAML_LS || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kube-resilience-yaml-ls');
}

function target() {
  return join(installRoot(), `yaml-language-server-${YAML_LS_VERSION}`);
}

/** The server's entry point once installed (whether or not it is there yet). */
export function yamlLsServer() {
  return join(target(), 'node_modules', 'yaml-language-server', 'out', 'server', 'src', 'server.js');
}

/** The entry point when the pinned version is installed, else undefined. */
export function installedYamlLs() {
  return existsSync(join(target(), '.complete')) && existsSync(yamlLsServer()) ? yamlLsServer() : undefined;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `work` holding an exclusive lock file; a lock older than ten minutes belongs to a dead installer. */
function withLock(work) {
  const lock = join(installRoot(), '.lock');
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { force: true });
      } catch {
        // Released meanwhile.
      }
      sleep(500);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

function install() {
  mkdirSync(installRoot(), { recursive: true });
  withLock(() => {
    if (installedYamlLs()) return;
    const staging = mkdtempSync(join(installRoot(), '.staging-'));
    try {
      writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'yaml-ls-peer', private: true }));
      const result = spawnSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact', `yaml-language-server@${YAML_LS_VERSION}`], { cwd: staging, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`npm install yaml-language-server@${YAML_LS_VERSION} failed (${result.status ?? result.signal}):\n${result.stderr ?? ''}`);
      writeFileSync(join(staging, '.complete'), `${YAML_LS_VERSION}\n`);
      rmSync(target(), { recursive: true, force: true });
      renameSync(staging, target());
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  });
}

/** Installs when needed and returns the server's entry point. */
export function ensureYamlLs() {
  if (!installedYamlLs()) install();
  const server = installedYamlLs();
  if (!server) throw new Error(`yaml-language-server ${YAML_LS_VERSION} is not where it was installed (${yamlLsServer()})`);
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(ensureYamlLs());
  } catch (error) {
    console.error(`install-yaml-ls: ${error.message}`);
    process.exit(1);
  }
}
