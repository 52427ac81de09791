// Builds production bundles (minified, no source maps) and packs them into a VSIX with vsce.
// Usage: node scripts/package.mjs [--out FILE] [--no-build]   (prints the .vsix path and its size)
// --no-build packs dist/ as it is (the test of the allow-list uses it, so it never rewrites bundles other suites run).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = resolve(outIndex >= 0 ? args[outIndex + 1] : join(root, `${name}-${version}.vsix`));

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`package: ${command} ${commandArgs.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

if (!args.includes('--no-build')) run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production']);
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
// Relative links stay relative: VS Code shows the packaged README from the extension's folder, where docs/** is.
run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out]);

const bytes = statSync(out).size;
const shown = out.startsWith(process.cwd()) ? relative(process.cwd(), out) : out;
console.log(`${shown}  ${(bytes / 1024).toFixed(1)} KiB`);
