import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderHelmChart } from './helm';
import { RenderToolMissing } from './kustomize';
import { findTool } from './run-tool';
import type { RenderSettings } from './render-unit';
import type { RenderedUnit } from './types';

/** The settings a chart's render takes (the rest of RenderSettings is Kustomize's). */
export type HelmUnitSettings = Pick<RenderSettings, 'helmPath' | 'extraPath' | 'release' | 'namespace' | 'valuesFiles' | 'set' | 'signal' | 'timeoutMs' | 'run'>;

/** The helm program from the setting, kubeResilience.extraPath or PATH; missing, a message on how to get it. */
export function helmProgram(settings: Pick<HelmUnitSettings, 'helmPath' | 'extraPath'>): string {
  const found = findTool('helm', { configuredPath: settings.helmPath, extraPath: settings.extraPath });
  if (found.path) return found.path;
  if (settings.helmPath?.trim()) throw new RenderToolMissing(settings.helmPath, 'kubeResilience.helm.path names no program that runs');
  throw new RenderToolMissing('helm', 'install helm (https://helm.sh/docs/intro/install/) on PATH, or name it in kubeResilience.helm.path');
}

/** The chart folder a file belongs to: the nearest folder above it holding a Chart.yaml. */
function chartOf(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'Chart.yaml'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Values files for this chart: those inside it, and those inside no chart at all (given for every chart). */
export function valuesFilesFor(chartRoot: string, files: readonly string[]): string[] {
  const root = resolve(chartRoot);
  return files.map((f) => resolve(f)).filter((file) => {
    const chart = chartOf(file);
    return chart === undefined || chart === root;
  });
}

/** Renders one chart of the workspace with the user's settings. */
export function renderHelmUnit(chartRoot: string, settings: HelmUnitSettings): Promise<RenderedUnit> {
  return renderHelmChart(chartRoot, {
    helm: helmProgram(settings),
    release: settings.release,
    namespace: settings.namespace,
    valuesFiles: valuesFilesFor(chartRoot, settings.valuesFiles ?? []),
    set: settings.set,
    signal: settings.signal,
    timeoutMs: settings.timeoutMs,
    run: settings.run,
  });
}
