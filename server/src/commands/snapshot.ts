import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadClusterForCli } from '../cluster/load';
import { snapshotChunks, type SnapshotProvenance } from '../cluster/snapshot';
import type { ClusterInfo } from '../cluster/types';
import type { Io } from './check';
import { reportMissing } from './cluster-args';
import { UsageError } from './usage-error';

export const SNAPSHOT_USAGE = `kube-resilience snapshot [--context NAME] [--kubeconfig FILE] [--demo] [-o FILE] [--timeout SECONDS]`;

function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout takes a number of seconds, not "${value}"`);
  return seconds * 1000;
}

async function writeToStdout(chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

function openOutput(path: string): number {
  try {
    return openSync(path, 'w');
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function writeToFile(fd: number, chunks: Iterable<string>): void {
  try {
    for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** Reads the cluster (GET only) and writes it as a `v1` List that `check --snapshot` reads back. */
export async function runSnapshot(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      context: { type: 'string' },
      kubeconfig: { type: 'string' },
      demo: { type: 'boolean', default: false },
      output: { type: 'string', short: 'o' },
      timeout: { type: 'string' },
    },
  });
  if (positionals.length) throw new UsageError(`snapshot takes no paths (got "${positionals[0]}"); usage: ${SNAPSHOT_USAGE}`);
  if (values.demo && (values.context || values.kubeconfig)) throw new UsageError('--demo and --context/--kubeconfig name different clusters: choose one');
  const started = Date.now();
  // Before reading a cluster for a minute: an output that cannot be written is known now.
  const output = values.output ? openOutput(values.output) : undefined;
  let cluster: ClusterInfo & { server?: string };
  try {
    cluster = await loadClusterForCli(values.demo ? { demo: true } : { context: values.context, kubeconfig: values.kubeconfig, requestTimeoutMs: parseTimeout(values.timeout) });
  } catch (error) {
    if (output !== undefined) {
      closeSync(output);
      rmSync(values.output!, { force: true });
    }
    throw error;
  }
  const provenance: SnapshotProvenance = { context: cluster.name, server: cluster.server, takenAt: new Date().toISOString(), missing: cluster.missing };
  const chunks = snapshotChunks(cluster, provenance);
  if (output !== undefined) writeToFile(output, chunks);
  else await writeToStdout(chunks);
  reportMissing(cluster, io);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.stderr(`${cluster.resources.length} objects from ${cluster.name}${values.output ? ` written to ${values.output}` : ''} in ${seconds}s${cluster.missing.length ? ` (${cluster.missing.length} resource types missing)` : ''}`);
  return 0;
}
