import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadClusterForCli } from '../cluster/load';
import { snapshotChunks, type SnapshotProvenance } from '../cluster/snapshot';
import type { ClusterInfo } from '../cluster/types';
import { writeFileAtomic } from '../files/atomic-write';
import { describeFileError } from '../files/read-bounded';
import type { Io } from './check';
import { parseTimeout, reportMissing } from './cluster-args';
import { UsageError } from './usage-error';

export const SNAPSHOT_USAGE = `kube-resilience snapshot [--context NAME] [--kubeconfig FILE] [--demo] [-o FILE] [--timeout SECONDS]`;

/** A snapshot holds a cluster's names and layout: only its owner may read it. */
const SNAPSHOT_MODE = 0o600;

async function writeToStdout(chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    // Its reader gone, or a write failed (a full disk): the rest goes nowhere, and the command line says why.
    if (process.stdout.destroyed) return;
    if (!process.stdout.write(chunk)) await drainedOrFailed(process.stdout);
  }
}

/** When a stream takes writes again, or has failed and never will: a failed stream never drains. */
function drainedOrFailed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Before reading a cluster for a minute, an output that cannot be written is known: without touching it. */
function checkWritable(path: string): void {
  try {
    accessSync(dirname(path), constants.W_OK);
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return;
    }
    // A link to a file is replaced by the snapshot (writeFileAtomic replaces names); one to a device or a pipe
    // (/dev/stdout, run as root) would have replaced the system's own link with a file.
    if (stat.isSymbolicLink()) return checkLinkTarget(path);
    if (!stat.isFile()) throw new UsageError(`cannot write ${path}: it is not a regular file`);
    accessSync(path, constants.W_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot write ${path}: ${describeFileError(error)}`);
  }
}

/**
 * A link that stands for a device or a stream (/dev/stdout, a link into /proc or /dev, or to a FIFO, device or socket)
 * is refused: replacing it would replace the system's own link. Another (to a file, a folder, or dangling) is replaced.
 */
function checkLinkTarget(path: string): void {
  const stream = () => new UsageError(`cannot write ${path}: it is a link to a device or a stream, not a file; leave -o out, or give -o -, to write to stdout`);
  if (SYSTEM_FOLDERS.test(resolve(path)) || SYSTEM_FOLDERS.test(resolve(dirname(path), readlinkSync(path)))) throw stream();
  let target;
  try {
    target = statSync(path);
  } catch {
    return;
  }
  if (target.isFIFO() || target.isCharacterDevice() || target.isBlockDevice() || target.isSocket()) throw stream();
}

const SYSTEM_FOLDERS = /^\/(dev|proc)\//;

/** Replaces FILE whole, or leaves it as it was. */
function writeSnapshotFile(path: string, chunks: Iterable<string>): void {
  try {
    writeFileAtomic(path, chunks, { mode: SNAPSHOT_MODE });
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${describeFileError(error)} (the file is left as it was)`);
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
  const timeoutMs = parseTimeout(values.timeout);
  const started = Date.now();
  // `-o ""` (an unset shell variable) is no file: it wrote to stdout without a word.
  if (values.output === '') throw new UsageError('-o takes a FILE name (leave it out to write to stdout)');
  // `-o -` is stdout, as the convention goes: it wrote a file named `-`.
  if (values.output === '-') values.output = undefined;
  if (values.output) checkWritable(values.output);
  const cluster: ClusterInfo & { server?: string } = await loadClusterForCli(values.demo ? { demo: true } : { context: values.context, kubeconfig: values.kubeconfig, timeoutMs });
  const provenance: SnapshotProvenance = { context: cluster.name, server: cluster.server, takenAt: new Date().toISOString(), missing: cluster.missing };
  const chunks = snapshotChunks(cluster, provenance);
  if (values.output) writeSnapshotFile(values.output, chunks);
  else await writeToStdout(chunks);
  reportMissing(cluster, io);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.stderr(`${cluster.resources.length} objects from ${cluster.name}${values.output ? ` written to ${values.output}` : ''} in ${seconds}s${cluster.missing.length ? ` (${cluster.missing.length} resource types missing)` : ''}`);
  return 0;
}
