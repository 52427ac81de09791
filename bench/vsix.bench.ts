// The size of the packaged extension (`npm run package`, production bundles), built into a temp folder.
// Packaging writes production bundles into dist/: the development ones `npm run bench` built are put back,
// so that the benches after this one measure the same server as those before it.
// Run: npx tsx bench/vsix.bench.ts   (or npm run bench)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './peer';

const dir = mkdtempSync(join(tmpdir(), 'kube-resilience-vsix-'));
try {
  const out = join(dir, 'bench.vsix');
  const result = spawnSync(process.execPath, [join('scripts', 'package.mjs'), '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`package failed (${result.status ?? result.signal})`);
  const bytes = statSync(out).size;
  console.log(`VSIX ${(bytes / 1e6).toFixed(2)} MB (${bytes} bytes)`);
  report({ vsixBytes: bytes });
} finally {
  rmSync(dir, { recursive: true, force: true });
  const rebuilt = spawnSync(process.execPath, [join('scripts', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (rebuilt.status !== 0) throw new Error(`build failed (${rebuilt.status ?? rebuilt.signal})`);
}
