import { runCheck, CHECK_USAGE, type Io } from './commands/check';
import { runSnapshot, SNAPSHOT_USAGE } from './commands/snapshot';
import { runSimulate, SIMULATE_USAGE } from './commands/simulate';
import { UsageError } from './commands/usage-error';
import { inertInCiLogs, inertLinesInCiLogs, withoutControls } from './printable';
import { describeFileError, readBoundedFd } from './files/read-bounded';
import { MAX_MANIFEST_BYTES } from './inventory/manifest-files';
import { RULES } from './rules/index';

declare const __VERSION__: string | undefined;
const version = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

const USAGE = `Kube Resilience ${version}: what happens to your workloads when something fails.

Usage:
  ${CHECK_USAGE}
  ${SNAPSHOT_USAGE}
  ${SIMULATE_USAGE}
  kube-resilience rules
  kube-resilience --version`;

const COMMAND_USAGE: Record<string, string> = {
  check: CHECK_USAGE,
  snapshot: SNAPSHOT_USAGE,
  simulate: SIMULATE_USAGE,
  rules: 'kube-resilience rules',
};

const COMMANDS: Record<string, (argv: string[], io: Io) => Promise<number>> = {
  check: runCheck,
  snapshot: runSnapshot,
  simulate: runSimulate,
  async rules(argv, io) {
    if (argv.length) throw new UsageError(`takes no arguments (got ${JSON.stringify(argv[0])})`);
    for (const rule of RULES) io.stdout(`${rule.meta.id.padEnd(36)} ${rule.meta.severity.padEnd(8)} ${rule.meta.title}`);
    return 0;
  },
};

/**
 * Lines to a stream until its reader goes away (`check … | head -1` closes the pipe): the rest is dropped, and the
 * command finishes what it does (a --fix under way is not cut short) instead of dying on EPIPE. Any other failure
 * to write (a full disk under `> report.sarif`) is told to `failed`: the report is cut short, and the run fails.
 */
function linesTo(stream: NodeJS.WriteStream, clean: (text: string) => string = (text) => text, failed: (error: NodeJS.ErrnoException) => void = () => undefined): (text: string) => void {
  let open = true;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    open = false;
    if (error.code !== 'EPIPE') failed(error);
  });
  return (text) => {
    if (open) stream.write(clean(text.endsWith('\n') ? text.slice(0, -1) : text) + '\n');
  };
}

/** The first write to stdout that failed other than by its reader leaving: what the output lost. */
let outputFailure: NodeJS.ErrnoException | undefined;

async function main(argv: string[]): Promise<number> {
  const io: Io = {
    // Reports are written as they are meant to look (colours on a terminal); what they hold from outside is cleaned by each.
    stdout: linesTo(process.stdout, inertLinesInCiLogs, (error) => (outputFailure ??= error)),
    // One message a line: they name files, contexts and resources, whose line breaks and terminal escapes are shown escaped.
    stderr: linesTo(process.stderr, (text) => inertInCiLogs(withoutControls(text))),
    readStdin: () => readBoundedFd(0, MAX_MANIFEST_BYTES),
    isTty: !!process.stdout.isTTY,
    columns: process.stdout.columns,
    version,
  };
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    if (rest.length) {
      io.stderr(`kube-resilience ${command}: takes no arguments (got ${JSON.stringify(rest[0])})`);
      return 2;
    }
    io.stdout(version);
    return 0;
  }
  if (!command) {
    for (const line of USAGE.split('\n')) io.stderr(line);
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`kube-resilience: unknown command "${command}" (try --help)`);
    return 2;
  }
  // Only among the options: after `--` every argument is a path (`check -- --help` checks a file named --help).
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (options.includes('--help') || options.includes('-h')) {
    io.stdout(`Usage:\n  ${COMMAND_USAGE[command]}`);
    return 0;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    const known = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // Ours are one line, names and all (shown escaped); Node's parse errors put a hint on lines of their own.
    const [said, ...more] = error instanceof UsageError ? [error.message] : (error as Error).message.split('\n');
    // Node's "argument is ambiguous" (`--for -5m`) tells how to pass a value starting with a dash on its last line.
    const dash = /ambiguous/.test(said) ? more.find((line) => /starting with a dash/.test(line)) : undefined;
    io.stderr(`kube-resilience ${command}: ${said}${dash ? ` ${dash}` : ''}`);
    if (!known) io.stderr('(this is a bug in kube-resilience; please report it)');
    return 2;
  }
}

/** Once what was written to stdout has gone out, or failed (a write's error is told after it returns). */
function outputSettled(): Promise<void> {
  return new Promise((resolve) => (process.stdout.destroyed ? setImmediate(resolve) : process.stdout.write('', () => setImmediate(resolve))));
}

main(process.argv.slice(2)).then(
  async (code) => {
    await outputSettled();
    if (outputFailure) process.stderr.write(`kube-resilience: the output could not be written whole: ${describeFileError(outputFailure)}\n`);
    process.exitCode = outputFailure ? 2 : code;
  },
  (error) => {
    process.stderr.write(`kube-resilience: ${inertInCiLogs(withoutControls(String((error as Error).message)))}\n`);
    process.exitCode = 2;
  },
);
