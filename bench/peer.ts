// The two language servers the side-by-side benchmarks drive over stdio, each started the way an
// editor starts it and configured so that neither reaches the network or a cluster.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient } from '../test/protocol/lsp-client';
// @ts-expect-error a plain ES module script, typed by use
import { ensureYamlLs } from '../scripts/install-yaml-ls.mjs';

export type ServerName = 'ours' | 'yaml-ls';

export const OUR_SERVER = join('dist', 'server.js');

/** yaml-language-server with schemas off (no schema store, no CRD store, no schema): faster than in real use. */
const YAML_SETTINGS = {
  validate: true,
  hover: true,
  completion: true,
  format: { enable: false },
  schemaStore: { enable: false },
  kubernetesCRDStore: { enable: false },
  schemas: {},
  customTags: [],
};

const SECTIONS: Record<string, unknown> = {
  yaml: YAML_SETTINGS,
  http: { proxy: '', proxyStrictSSL: false },
  '[yaml]': {},
  editor: { tabSize: 2, insertSpaces: true },
};

export interface Started {
  client: LspClient;
  pid: number;
  initializeMs: number;
}

/** Starts a server (on this process's Node unless `node` names another), answers its configuration requests, and returns once it is initialized. */
export async function startServer(name: ServerName, node = process.execPath): Promise<Started> {
  const started = performance.now();
  const client = LspClient.start(name === 'ours' ? OUR_SERVER : ensureYamlLs(), ['--stdio'], node);
  client.connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => params.items.map((item) => SECTIONS[item.section ?? ''] ?? null));
  // No workspace folder: neither server scans a workspace; our cluster view is off (the peer has none).
  await client.request('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      // As VS Code declares them: code actions' edits are resolved when picked, edits name the version they are for.
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false }, workspaceEdit: { documentChanges: true } },
      textDocument: {
        synchronization: { didSave: true },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeAction: { isPreferredSupport: true, resolveSupport: { properties: ['edit'] }, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
      },
    },
    // Ours runs the simulation command, as the VS Code extension does, so that it gets code lenses.
    initializationOptions: name === 'ours' ? { settings: { cluster: 'off' }, clientCommands: ['kubeResilience.simulateWorkload'] } : undefined,
  });
  const initializeMs = performance.now() - started;
  await client.notify('initialized', {});
  if (name === 'yaml-ls') await client.notify('workspace/didChangeConfiguration', { settings: SECTIONS });
  return { client, pid: client.process.pid!, initializeMs };
}

export async function stopServer(started: Started): Promise<void> {
  try {
    await started.client.shutdown();
  } catch {
    started.client.kill();
  }
}

/** The shared corpus of real manifests (BENCH_CORPUS, else ../shared/corpus beside the project or its worktree folder). */
export function corpusDir(): string | undefined {
  const candidates = process.env.BENCH_CORPUS ? [process.env.BENCH_CORPUS] : [join('..', 'shared', 'corpus'), join('..', '..', 'shared', 'corpus')];
  return candidates.find((dir) => existsSync(dir));
}

const TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process has used so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The process's peak resident memory so far (VmHWM), in bytes. */
export function peakRssBytes(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** The resident memory now (VmRSS), in bytes. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The p-th percentile (nearest rank); NaN for no values, as `median` gives. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Writes this bench's part of bench/results.json where `npm run bench` collects it. */
export function report(part: unknown): void {
  const path = process.env.BENCH_REPORT;
  if (path) writeFileSync(path, JSON.stringify(part));
}
