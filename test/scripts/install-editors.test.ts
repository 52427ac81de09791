import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commandExists } from '../../scripts/editors';

const script = resolve('scripts/install-editors.sh');
const debianPackages = /DEBIAN_PACKAGES=\(([^)]*)\)/.exec(readFileSync(script, 'utf8'))![1].split(/\s+/).filter(Boolean);

/** Runs the real script, with `npm` and `dpkg-query` standing in for the slow registry and Debian. */
function install(env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => done({ status, output }));
  });
}

describe('scripts/install-editors.sh', { skip: commandExists('flock') && commandExists('rg') ? false : 'needs flock and rg' }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-install-editors-'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // Every Debian package counts as installed; npm takes a second and leaves a code-server that answers --version.
    writeFileSync(join(bin, 'dpkg-query'), '#!/bin/sh\necho "install ok installed"\n');
    writeFileSync(
      join(bin, 'npm'),
      `#!/bin/sh\necho "$PWD" >> "${join(dir, 'npm-runs')}"\nsleep 1\nmkdir -p node_modules/.bin\nprintf '#!/bin/sh\\necho 4.100.3\\n' > node_modules/.bin/code-server\nchmod +x node_modules/.bin/code-server\n`,
    );
    for (const name of ['dpkg-query', 'npm']) chmodSync(join(bin, name), 0o755);
    env = { ...process.env, PATH: [bin, process.env.PATH].join(delimiter), KUBE_RESILIENCE_EDITORS: join(dir, 'editors') };
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lets two runs at once share the cache: both succeed, one installs, neither deletes the other\'s install', async () => {
    const [first, second] = await Promise.all([install(env), install(env)]);
    assert.equal(first.status, 0, first.output);
    assert.equal(second.status, 0, second.output);
    const runs = readFileSync(join(dir, 'npm-runs'), 'utf8').trim().split('\n');
    assert.equal(runs.length, 1, 'the second run waited for the lock and found code-server installed');
    assert.ok(!runs[0].endsWith('code-server-4.100.3'), 'npm ran in a temporary folder, not in place');
    const editors = join(dir, 'editors');
    assert.ok(existsSync(join(editors, 'code-server-4.100.3', '.installed')));
    assert.deepEqual(readdirSync(editors).filter((name) => name.startsWith('.code-server')), [], 'no temporary folder is left');
  });

  it('installs the editors the suites drive, Emacs with eglot among them', () => {
    for (const name of ['chromium', 'neovim', 'emacs-nox', 'elpa-eglot']) assert.ok(debianPackages.includes(name), name);
  });
});
