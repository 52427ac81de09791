// Runs every *.test.ts under test/ with node's own test runner (TypeScript through tsx).
// --unit skips the suites that need the bundles or outside programs (protocol, cli, editors, webview).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const unitOnly = process.argv.includes('--unit');
const needsBuild = ['test/protocol', 'test/cli', 'test/editors', 'test/webview', 'test/scripts/package'];
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

let files = find('test').sort();
if (unitOnly) files = files.filter((f) => !needsBuild.some((d) => f.startsWith(d)));
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
