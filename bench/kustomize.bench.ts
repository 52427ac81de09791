// A Kustomize overlay rendered and analysed (a wrapper kustomization with build metadata, parse, every rule,
// each finding placed back on its patch, base or overlay line) against the bare `kubectl kustomize` of the same
// overlay, in the same run, interleaved: podinfo's production overlay (../shared/corpus-rendered, skipped when
// absent, or when kubectl is not installed: node scripts/install-render-tools.mjs).
// Run: npx tsx bench/kustomize.bench.ts   (or npm run bench)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clearParseCache } from '../server/src/manifest/parse';
import { analyzeRenderedUnit } from '../server/src/render/analyze-unit';
import { renderKustomize } from '../server/src/render/kustomize';
import { runTool } from '../server/src/render/run-tool';
import { renderTools } from '../test/render/render-tools';
import { median, report } from './peer';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function productionOverlay(): string | undefined {
  const candidates = [join('..', 'shared'), join('..', '..', 'shared')].map((dir) => join(dir, 'corpus-rendered', 'podinfo', 'deploy', 'overlays', 'production'));
  const found = candidates.find((dir) => existsSync(join(dir, 'kustomization.yaml')));
  return found && resolve(found);
}

async function renderAndAnalyse(overlay: string, kubectl: string): Promise<number> {
  clearParseCache();
  const unit = await renderKustomize(overlay, { configuredPath: kubectl });
  return analyzeRenderedUnit(unit).length;
}

async function bareBuild(overlay: string, kubectl: string): Promise<void> {
  const result = await runTool(kubectl, ['kustomize', overlay], {});
  if (result.exitCode !== 0) throw new Error(`kubectl kustomize failed: ${result.stderr}`);
}

async function main(): Promise<void> {
  const overlay = productionOverlay();
  const tools = renderTools();
  if (!overlay || tools.skip) {
    console.log(`(skipped: ${!overlay ? 'no podinfo overlay beside the project' : tools.skip})`);
    return;
  }
  const analysed: number[] = [];
  const bare: number[] = [];
  let findings = 0;
  await bareBuild(overlay, tools.kubectl); // warm the file cache for both
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    await bareBuild(overlay, tools.kubectl);
    bare.push(performance.now() - start);
    start = performance.now();
    findings = await renderAndAnalyse(overlay, tools.kubectl);
    analysed.push(performance.now() - start);
  }
  const ratio = median(analysed) / median(bare);
  console.log(`medians of ${RUNS} runs: podinfo production overlay render+analysis ${median(analysed).toFixed(0)} ms (${findings} findings placed), bare kubectl kustomize ${median(bare).toFixed(0)} ms, ratio ${ratio.toFixed(2)}`);
  report({ ratios: { kustomizeRenderAnalysisVsBareBuild: Number(ratio.toFixed(2)) }, details: { kustomizePodinfoProduction: { renderAnalysisMs: Math.round(median(analysed)), bareBuildMs: Math.round(median(bare)) } } });
}

void main();
