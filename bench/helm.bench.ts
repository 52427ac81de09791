// A Helm chart rendered and analysed (helm template, parse, every rule, each finding placed back on its
// template and values lines) against the bare `helm template` of the same chart, in the same run,
// interleaved: podinfo's chart with values-prod.yaml (../shared/corpus-rendered, skipped when absent, or
// when helm is not installed: node scripts/install-render-tools.mjs).
// Run: npx tsx bench/helm.bench.ts   (or npm run bench)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { keyPathAt } from '../server/src/explain/key-path';
import { Inventory } from '../server/src/inventory/inventory';
import { clearParseCache, parseManifest } from '../server/src/manifest/parse';
import { renderHelmChart } from '../server/src/render/helm';
import { runTool } from '../server/src/render/run-tool';
import { analyzeFile } from '../server/src/rules/engine';
import { renderTools } from '../test/render/render-tools';
import { median, report } from './peer';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function podinfoChart(): string | undefined {
  const candidates = [join('..', 'shared'), join('..', '..', 'shared')].map((dir) => join(dir, 'corpus-rendered', 'podinfo', 'charts', 'podinfo'));
  const found = candidates.find((dir) => existsSync(join(dir, 'Chart.yaml')));
  return found && resolve(found);
}

async function renderAndAnalyse(chart: string, helm: string, valuesFiles: string[]): Promise<number> {
  clearParseCache();
  const unit = await renderHelmChart(chart, { helm, valuesFiles });
  const file = parseManifest('file:///rendered.yaml', unit.text);
  const inventory = new Inventory();
  inventory.setFile(file);
  let placed = 0;
  for (const finding of analyzeFile(file, inventory)) {
    const offset = file.lines.offset(finding.range!.start);
    const document = file.documents.find((d) => d.offset <= offset && offset < d.offset + d.text.length) ?? file.documents[0];
    const resource = document.resources[0];
    placed += unit.mapper.locate(document.index, (resource && keyPathAt(resource, offset)) || []).length;
  }
  return placed;
}

async function bareTemplate(chart: string, helm: string, valuesFiles: string[]): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'kube-resilience-helm-bench-'));
  try {
    const args = ['template', 'release', chart, ...valuesFiles.flatMap((f) => ['--values', f])];
    const result = await runTool(helm, args, { env: { ...process.env, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home } });
    if (result.exitCode !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const chart = podinfoChart();
  const tools = renderTools();
  if (!chart || tools.skip) {
    console.log(`(skipped: ${!chart ? 'no podinfo chart beside the project' : tools.skip})`);
    return;
  }
  const valuesFiles = [join(chart, 'values-prod.yaml')];
  const analysed: number[] = [];
  const bare: number[] = [];
  let placed = 0;
  await bareTemplate(chart, tools.helm, valuesFiles); // warm the file cache for both
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    await bareTemplate(chart, tools.helm, valuesFiles);
    bare.push(performance.now() - start);
    start = performance.now();
    placed = await renderAndAnalyse(chart, tools.helm, valuesFiles);
    analysed.push(performance.now() - start);
  }
  const ratio = median(analysed) / median(bare);
  console.log(`medians of ${RUNS} runs: podinfo render+analysis ${median(analysed).toFixed(0)} ms (${placed} places), bare helm template ${median(bare).toFixed(0)} ms, ratio ${ratio.toFixed(2)}`);
  report({ ratios: { helmRenderAnalysisVsBareTemplate: Number(ratio.toFixed(2)) }, details: { helmPodinfo: { renderAnalysisMs: Math.round(median(analysed)), bareTemplateMs: Math.round(median(bare)) } } });
}

void main();
