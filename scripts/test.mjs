// Runs every *.test.ts under test/ with node's own test runner (TypeScript through tsx).
// --unit skips the suites that need the bundles or outside programs (protocol, cli, editors, webview).
// --node22 runs the engine, language-server and CLI suites (unit, protocol, cli) on Node 22, the Node VS Code
// runs extensions on (installed by scripts/install-node22.mjs); skipped with a message when it is not installed,
// except under CI, where it must run.
import { readdirSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { NODE22_VERSION, installedNode22 } from './install-node22.mjs';

const unitOnly = process.argv.includes('--unit');
const onNode22 = process.argv.includes('--node22');
const bundleSuites = ['test/protocol', 'test/cli'];
const outsideProgramSuites = ['test/editors', 'test/webview', 'test/scripts/package'];
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

let files = find('test').sort();
const skipped = [...(unitOnly ? bundleSuites : []), ...(unitOnly || onNode22 ? outsideProgramSuites : [])];
// A suite is a folder or a file's name without .test.ts: test/cli is not test/client.
files = files.filter((f) => !skipped.some((d) => f.startsWith(`${d}/`) || f.startsWith(`${d}.test.ts`)));
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
if (!files.length) {
  // node --test given no files would hunt for tests everywhere, node_modules included.
  console.log(`test: no test file matches ${only.join(' ') || 'the selection'}${onNode22 ? ' among the suites the Node 22 pass runs' : ''}`);
  process.exit(onNode22 ? 0 : 1);
}

let node = process.execPath;
let env = process.env;
if (onNode22) {
  node = installedNode22();
  if (!node) {
    console.log(`test: Node ${NODE22_VERSION} is not installed, so the Node 22 pass is skipped (install it: node scripts/install-node22.mjs)`);
    process.exit(process.env.CI ? 1 : 0);
  }
  console.log(`test: Node ${NODE22_VERSION} pass over ${files.length} files (${node})`);
  // Suites spawn the bundles with process.execPath; a `node` found on PATH must be this one too.
  env = { ...process.env, PATH: [dirname(node), process.env.PATH].filter(Boolean).join(delimiter) };
}

// The spec reporter ends with the failing tests, each with its error: the end of a long log is what gets read.
const result = spawnSync(node, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
