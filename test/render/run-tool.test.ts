import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { totalmem } from 'node:os';
import { DEFAULT_MAX_TOOL_MEMORY_BYTES, watchMemory } from '../../server/src/render/memory-watch';
import { findTool, runTool, ToolError } from '../../server/src/render/run-tool';
import { renderTools } from './render-tools';

const dir = mkdtempSync(join(tmpdir(), 'run-tool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe('findTool', () => {
  it('takes a configured path (absolute, relative to the workspace, or a name on the search path) first', () => {
    const fake = script('my-helm', 'exit 0');
    assert.equal(findTool('helm', { configuredPath: fake, env: { PATH: '' } }).path, fake);
    assert.equal(findTool('helm', { configuredPath: './my-helm', baseDirectory: dir, env: { PATH: '' } }).path, fake);
    assert.equal(findTool('helm', { configuredPath: 'my-helm', extraPath: [dir], env: { PATH: '' } }).path, fake);
  });

  it('searches kubeResilience.extraPath before PATH and names what it searched when absent', () => {
    script('kustomize', 'exit 0');
    assert.equal(findTool('kustomize', { extraPath: [dir], env: { PATH: '/nowhere' } }).path, join(dir, 'kustomize'));
    const missing = findTool('no-such-tool', { extraPath: [dir], env: { PATH: '/nowhere' } });
    assert.equal(missing.path, undefined);
    assert.deepEqual(missing.searched, [dir, '/nowhere']);
  });

  it('never takes a folder or a file that cannot run', () => {
    writeFileSync(join(dir, 'not-executable'), 'x');
    assert.equal(findTool('not-executable', { extraPath: [dir], env: { PATH: '' } }).path, undefined);
    assert.equal(findTool('x', { configuredPath: dir }).path, undefined);
  });
});

describe('runTool', () => {
  it('passes arguments without a shell and returns exit code, stdout and stderr', async () => {
    const echo = script('echo-args', 'printf "%s|" "$@"; echo oops >&2; exit 3');
    const result = await runTool(echo, ['a b', '$HOME', ';rm -rf x']);
    assert.equal(result.exitCode, 3);
    assert.equal(result.stdout, 'a b|$HOME|;rm -rf x|');
    assert.equal(result.stderr, 'oops\n');
  });

  it('kills the whole process group on timeout', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const slow = script('slow', `sleep 30 & echo $! > ${pidFile}; wait`);
    await assert.rejects(runTool(slow, [], { timeoutMs: 300 }), (e: unknown) => e instanceof ToolError && e.reason === 'timeout' && /within/.test(e.message));
    const { readFileSync } = await import('node:fs');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await waitUntil(() => !alive(grandchild)), 'the sleep the tool started still runs');
  });

  it('stops on cancellation, also when cancelled before starting', async () => {
    const slow = script('slow2', 'sleep 30');
    const controller = new AbortController();
    const running = runTool(slow, [], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(running, (e: unknown) => e instanceof ToolError && e.reason === 'cancelled');
    await assert.rejects(runTool(slow, [], { signal: AbortSignal.abort() }), (e: unknown) => e instanceof ToolError && e.reason === 'cancelled');
  });

  it('bounds stdout (fails) and stderr (keeps the end)', async () => {
    const loud = script('loud', 'yes stdout-line | head -c 200000; yes err | head -c 100000 >&2; echo last-words >&2');
    await assert.rejects(runTool(loud, [], { maxStdoutBytes: 1000 }), (e: unknown) => e instanceof ToolError && e.reason === 'output-too-large');
    const result = await runTool(loud, [], { maxStderrBytes: 100 });
    assert.ok(result.stderr.length <= 102, result.stderr);
    assert.match(result.stderr, /last-words\n$/);
    // Cut mid-word, it starts from its first whole word, marked as cut (a helm error began "ude: template: …").
    assert.match(result.stderr, /^… err\n/);
    const partWord = script('part-word', 'printf "includeincludeinclude: template: x" >&2; exit 1');
    assert.equal((await runTool(partWord, [], { maxStderrBytes: 20 })).stderr, '… template: x');
  });

  it('stops a tool that holds more memory than allowed, and the processes it started', { skip: process.platform !== 'linux' && 'the memory of a process is read from /proc' }, async () => {
    const pidFile = join(dir, 'hungry-grandchild.pid');
    const grow = `${JSON.stringify(process.execPath)} -e 'const held = []; setInterval(() => held.length < 30 && held.push(Buffer.alloc(20e6, 1)), 10)'`;
    const hungry = script('hungry', `sleep 30 & echo $! > ${pidFile}; exec ${grow}`);
    const started = performance.now();
    await assert.rejects(runTool(hungry, [], { maxMemoryBytes: 150e6, timeoutMs: 20_000 }), (e: unknown) => e instanceof ToolError && e.reason === 'out-of-memory' && e.message === 'hungry held more than 143 MB of memory');
    assert.ok(performance.now() - started < 10_000, 'stopped long before its deadline');
    const { readFileSync } = await import('node:fs');
    assert.ok(await waitUntil(() => !alive(Number(readFileSync(pidFile, 'utf8')))), 'the sleep the tool started still runs');
  });

  it('counts the memory of what the tool started: a wrapper that runs helm without `exec` is stopped too', { skip: process.platform !== 'linux' && 'the memory of a process is read from /proc' }, async () => {
    const wrapper = script('hungry-wrapper', `${JSON.stringify(process.execPath)} -e 'const held = []; setInterval(() => held.length < 30 && held.push(Buffer.alloc(20e6, 1)), 10)'`);
    await assert.rejects(runTool(wrapper, [], { maxMemoryBytes: 150e6, timeoutMs: 20_000 }), (e: unknown) => e instanceof ToolError && e.reason === 'out-of-memory');
  });

  it('stops looking once told to: a finished tool\'s process id, reused, is never stopped for it', { skip: process.platform !== 'linux' && 'the memory of a process is read from /proc' }, async () => {
    const child = spawn(process.execPath, ['-e', 'const held = Buffer.alloc(200e6, 1); setTimeout(() => process.exit(held.length > 0 ? 0 : 1), 600)']);
    let exceeded = 0;
    const stop = watchMemory(child.pid!, 50e6, () => exceeded++);
    stop();
    await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(exceeded, 0);
    assert.equal(DEFAULT_MAX_TOOL_MEMORY_BYTES, Math.min(2 * 1024 ** 3, Math.floor(totalmem() / 2)), '2 GB, or half the machine where that is less');
  });

  it('lets a tool that stays under the memory allowed finish', { skip: process.platform !== 'linux' && 'the memory of a process is read from /proc' }, async () => {
    const modest = script('modest', `exec ${JSON.stringify(process.execPath)} -e 'setTimeout(() => console.log("done"), 300)'`);
    assert.equal((await runTool(modest, [], { maxMemoryBytes: 150e6 })).stdout, 'done\n');
  });

  it('reports a program that cannot start', async () => {
    await assert.rejects(runTool(join(dir, 'absent'), []), (e: unknown) => e instanceof ToolError && e.reason === 'not-started');
  });

  it('watches Ctrl-C from before the tool starts: one that spawn refuses at once (a NUL byte) is not started, and leaves no handler behind', async () => {
    // Handlers go once the loop has polled for a signal that came meanwhile (see onInterrupt).
    const polled = () => new Promise((done) => setImmediate(() => setImmediate(done)));
    await polled();
    const before = process.listenerCount('SIGINT');
    const echo = script('echo-nul', 'echo "$@"');
    await assert.rejects(runTool(echo, ['a\0b']), (e: unknown) => e instanceof ToolError && e.reason === 'not-started' && /echo-nul could not start/.test(e.message));
    await polled();
    assert.equal(process.listenerCount('SIGINT'), before);
    const hangUps = process.listenerCount('SIGHUP');
    const running = runTool(echo, ['ok']);
    assert.equal(process.listenerCount('SIGINT'), before + 1, 'a Ctrl-C while it runs ends it with us');
    assert.equal(process.listenerCount('SIGHUP'), hangUps + 1, 'so does the terminal closing');
    await running;
    await polled();
    assert.equal(process.listenerCount('SIGINT'), before);
    assert.equal(process.listenerCount('SIGHUP'), hangUps);
  });
});

describe('the pinned render tools', () => {
  const tools = renderTools();
  it('run: helm v4.1.4 and kubectl v1.33.9 with Kustomize built in', { skip: tools.skip }, async () => {
    assert.match((await runTool(tools.helm, ['version', '--short'])).stdout, /^v4\.1\.4/);
    const kubectl = await runTool(tools.kubectl, ['version', '--client']);
    assert.match(kubectl.stdout, /Client Version: v1\.33\.9/);
    assert.match(kubectl.stdout, /Kustomize Version: v5\./);
  });
});
