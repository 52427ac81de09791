// npm run try: the packaged extension in a real VS Code (code-server) on 127.0.0.1, opened on a copy of
// examples/ (so trying the Quick Fixes leaves the repository clean). Ctrl-C stops it.
// Usage: npm run try [-- --port 8123] [--demo]    (runs under tsx: scripts/editors.ts is TypeScript)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { codeServerBinary, startCodeServer } from './editors.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { port: { type: 'string' }, demo: { type: 'boolean', default: false } } });

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`try: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'kube-resilience-try-'));
const vsix = join(scratch, 'kube-resilience.vsix');
run(process.execPath, [join(root, 'scripts', 'package.mjs'), '--out', vsix]);
if (!codeServerBinary()) run('bash', [join(root, 'scripts', 'install-editors.sh')]);
const workspace = join(scratch, 'examples');
cpSync(join(root, 'examples'), workspace, { recursive: true });

const server = await startCodeServer({
  workspace,
  vsix,
  port: values.port ? Number(values.port) : undefined,
  settings: values.demo ? { 'kubeResilience.cluster': 'demo' } : {},
  // The real HOME, so the extension finds ~/.kube/config as it would on the desktop.
  env: { HOME: process.env.HOME },
});
console.log(`\nKube Resilience in VS Code: ${server.url}\n(a copy of examples/ in ${workspace}; Ctrl-C stops it)\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping code-server…');
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
