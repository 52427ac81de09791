import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The folder holding the pinned helm and kubectl that scripts/install-render-tools.mjs installs, if it did. */
function installedFolder(): string | undefined {
  const script = `const m = await import('./scripts/install-render-tools.mjs'); console.log(m.installedRenderTools() ?? '');`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() ? result.stdout.trim() : undefined;
}

let cached: { folder?: string; skip: string | false } | undefined;

/**
 * The real helm and kubectl for the suites that render, or why they skip: only off CI, and loudly.
 * On CI (CI set) they never skip, so missing tools fail the run instead of passing it unseen.
 */
export function renderTools(): { folder?: string; helm: string; kubectl: string; skip: string | false } {
  if (!cached) {
    const folder = installedFolder();
    if (folder) cached = { folder, skip: false };
    else if (process.env.CI) {
      console.error('\n!!! render tests on CI but helm and kubectl are missing — they will fail (run node scripts/install-render-tools.mjs)\n');
      cached = { skip: false };
    } else {
      const reason = 'helm and kubectl are not installed: run node scripts/install-render-tools.mjs (CI never skips these)';
      console.error(`\n${'!'.repeat(80)}\n!!! SKIPPING render tests: ${reason}\n${'!'.repeat(80)}\n`);
      cached = { skip: reason };
    }
  }
  const folder = cached.folder ?? '/nonexistent-render-tools';
  return { ...cached, helm: join(folder, 'helm'), kubectl: join(folder, 'kubectl') };
}
