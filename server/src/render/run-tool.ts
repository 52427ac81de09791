import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { formatSeconds } from '../cluster/duration';
import { onInterrupt } from '../on-interrupt';
import { formatBytes } from '../files/read-bounded';
import { DEFAULT_MAX_TOOL_MEMORY_BYTES, watchMemory } from './memory-watch';

export function searchPath(options: { extraPath?: string[]; env?: NodeJS.ProcessEnv }): string[] {
  const env = options.env ?? process.env;
  const systemPath = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  return [...(options.extraPath ?? []).filter(Boolean), ...systemPath];
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds the program as a shell would, so that a missing one can be reported with the PATH searched. */
export function findExecutable(command: string, directories: string[], baseDirectory: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const extensions = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const candidates = command.includes('/') || command.includes('\\') ? [isAbsolute(command) ? command : join(baseDirectory, command)] : directories.map((d) => join(d, command));
  for (const candidate of candidates) {
    for (const extension of extensions) if (isExecutableFile(candidate + extension)) return candidate + extension;
  }
  return undefined;
}

/** Where to look for a rendering tool: an explicit setting first, then kubeResilience.extraPath, then PATH. */
export interface ToolLookup {
  /** A path from a setting (kubeResilience.helm.path); relative paths are resolved against baseDirectory. */
  configuredPath?: string;
  extraPath?: string[];
  baseDirectory?: string;
  env?: NodeJS.ProcessEnv;
}

/** The program's path, or undefined with the directories searched so a message can name them. */
export function findTool(command: string, lookup: ToolLookup = {}): { path?: string; searched: string[] } {
  const searched = searchPath({ extraPath: lookup.extraPath, env: lookup.env });
  const base = lookup.baseDirectory ?? process.cwd();
  const configured = lookup.configuredPath?.trim();
  if (configured) return { path: findExecutable(configured, searched, base, lookup.env), searched };
  return { path: findExecutable(command, searched, base, lookup.env), searched };
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Bytes kept of stdout; a tool printing more than this fails rather than filling memory. */
  maxStdoutBytes?: number;
  /** Bytes kept of stderr (the last ones, where tools put the error). */
  maxStderrBytes?: number;
  /** The most memory the tool may hold before it is stopped (where the system tells it: Linux). */
  maxMemoryBytes?: number;
}

export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly reason: 'not-started' | 'timeout' | 'cancelled' | 'output-too-large' | 'out-of-memory',
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_STDOUT = 64 * 1024 * 1024;
const DEFAULT_MAX_STDERR = 64 * 1024;

/**
 * Runs a program with arguments, never through a shell, in its own process group so that a timeout or a
 * cancellation also ends whatever it started. Resolves with its exit code and output; rejects only when it
 * could not start, ran too long, was cancelled, printed more than allowed or held more memory than allowed.
 */
export function runTool(program: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT;
  const maxStderr = options.maxStderrBytes ?? DEFAULT_MAX_STDERR;
  const maxMemory = options.maxMemoryBytes ?? DEFAULT_MAX_TOOL_MEMORY_BYTES;
  const name = program.split(/[\\/]/).pop() ?? program;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new ToolError(`${name} was cancelled`, 'cancelled'));
    let child: ChildProcessByStdio<null, Readable, Readable> | undefined;
    const kill = () => {
      if (!child) return;
      try {
        if (process.platform !== 'win32' && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      child.stdout.destroy();
      child.stderr.destroy();
    };
    // In its own process group a tool does not get the terminal's Ctrl-C, and would outlive us (a helm rendering
    // for a minute, one waiting on a FIFO for ever): ended however the process ends while it runs. Registered
    // before it starts: it runs once it is exec'd, before spawn returns here, and a Ctrl-C in between found no
    // handler, so Node died of it (exit by signal) and left the tool running.
    const forget = onInterrupt(kill);
    try {
      child = spawn(program, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        shell: false,
        detached: process.platform !== 'win32',
      });
    } catch (error) {
      forget();
      return reject(new ToolError(`${name} could not start: ${(error as Error).message}`, 'not-started'));
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let stderrCut = false;
    let settled = false;
    const finish = (error: Error | undefined, result?: RunResult) => {
      if (settled) return;
      settled = true;
      forget();
      clearTimeout(timer);
      stopWatchingMemory();
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(result!);
    };
    const fail = (message: string, reason: ToolError['reason']) => {
      kill();
      finish(new ToolError(message, reason));
    };
    const onAbort = () => fail(`${name} was cancelled`, 'cancelled');
    const timer = setTimeout(() => fail(`${name} did not finish within ${formatSeconds(timeoutMs)}`, 'timeout'), timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const stopWatchingMemory = child.pid ? watchMemory(child.pid, maxMemory, () => fail(`${name} held more than ${formatBytes(maxMemory)} of memory`, 'out-of-memory')) : () => undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) return fail(`${name} printed more than ${Math.round(maxStdout / 1024 / 1024)} MiB`, 'output-too-large');
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > maxStderr) {
        stderr = stderr.subarray(stderr.length - maxStderr);
        stderrCut = true;
      }
    });
    child.on('error', (error) => finish(new ToolError(`${name} could not start: ${error.message}`, 'not-started')));
    child.on('close', (exitCode, signal) =>
      finish(undefined, { exitCode, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: stderrCut ? cutStart(stderr.toString('utf8')) : stderr.toString('utf8') }),
    );
  });
}

/** The PATH a tool is run with: the directories it was searched in, so it finds its own helpers the same way. */
export function toolEnv(searched: string[], env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: searched.join(delimiter) };
}

/** The end of a text whose start was cut: from its first whole word on, marked as cut (it began "ude: template: …"). */
function cutStart(text: string): string {
  return `… ${text.replace(/^\S*\s*/, '')}`;
}
