import { createHash } from 'node:crypto';
import { readlinkSync, statSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { shownWithin } from '../files/within';
import { kustomizationIn, kustomizationsOf, unrenderedInputsOf, type UnrenderedInput } from '../units/kustomization';
import { chartReadsOutside } from './chart-inputs';
import type { RenderUnit } from '../units/find-units';
import { walkChart } from './chart-walk';
import { renderHelmUnit } from './helm-unit';
import { renderKustomize, RenderToolMissing } from './kustomize';
import { ToolError } from './run-tool';
import { readSourceText } from './source-yaml';
import type { RenderedUnit } from './types';
import type { StepRunner } from '../steps';
import { compareCodeUnits } from '../sorted';

export interface RenderSettings {
  kustomizePath?: string;
  helmPath?: string;
  extraPath?: string[];
  /** Kustomize plugins, exec functions and helmCharts inflation; honoured only when `trusted`. */
  enablePlugins?: boolean;
  trusted?: boolean;
  release?: string;
  namespace?: string;
  valuesFiles?: string[];
  set?: string[];
  signal?: AbortSignal;
  timeoutMs?: number;
  readText?: (path: string) => string | undefined;
  /** Runs the work on what the tool rendered (a server runs it in slices); default: at once. */
  run?: StepRunner;
}

export type UnitRender =
  | { kind: 'rendered'; unit: RenderedUnit }
  /** The tool is not installed: the unit's files are analysed one by one, as without rendering. */
  | { kind: 'missing'; tool: string; hint: string }
  /** Not rendered on purpose (an untrusted workspace, a tool not wired yet): the reason in words. */
  | { kind: 'skipped'; reason: string };

/**
 * How many renders run at once: each may take a core and gigabytes for up to a minute (saving a base that 40
 * overlays build on started 40 kubectl processes at once), and one by one, N roots that hang took N minutes.
 */
export const MAX_RENDERS_AT_ONCE = 2;

const MAX_CACHED = 64;
const cache = new Map<string, RenderedUnit>();

/** Renders are cached by the unit's file contents and the settings that shape them. */
function cacheKey(unit: RenderUnit, settings: RenderSettings): string {
  const hash = createHash('sha256');
  const { signal: _signal, readText: _readText, run: _run, ...shaping } = settings;
  hash.update(JSON.stringify([unit.tool, unit.root, shaping]));
  const read = settings.readText ?? readSourceText;
  for (const file of [...unit.files].sort()) hash.update(`\0${file}\0${read(file) ?? '<unreadable>'}`);
  // Values files given with --values shape the render wherever they are (outside the chart, their names alone did).
  for (const file of settings.valuesFiles ?? []) hash.update(`\0values\0${file}\0${read(file) ?? '<unreadable>'}`);
  // A chart renders from more than its manifests (_helpers.tpl, files read with .Files.Get): a change to any
  // file in its folder is a new render (one to _helpers.tpl was served the render before it).
  if (unit.tool === 'helm') for (const [file, stat] of otherFilesIn(unit.root, new Set(unit.files))) hash.update(`\0${file}\0${stat}`);
  return hash.digest('hex');
}

/** The chart folder's other files (subcharts' too), each with its size and time of change, links with their target. */
function otherFilesIn(root: string, known: ReadonlySet<string>): [string, string][] {
  const found: [string, string][] = [];
  walkChart(root, (path, entry) => {
    if (known.has(path)) return;
    try {
      // A link by where it leads, and anything else by its kind: a link out of the chart taken away, or a FIFO
      // replaced by a file, changes what the chart renders to (it was refused, and is rendered now).
      if (entry.isSymbolicLink()) found.push([path, `link:${readlinkSync(path)}`]);
      else if (!entry.isFile()) found.push([path, 'not a regular file']);
      else {
        const stat = statSync(path);
        found.push([path, `${stat.size}:${stat.mtimeMs}`]);
      }
    } catch {
      // Gone meanwhile: not part of the render.
    }
  });
  return found.sort(([a], [b]) => compareCodeUnits(a, b));
}

/** Why a Kustomize root is not rendered for an input outside its files. */
function notRenderedFor(root: string, { entry, namedIn, why }: UnrenderedInput): string {
  const where = shownWithin(root, namedIn);
  if (why === 'remote base') return `it builds on a remote base, ${entry} (named in ${where}), which is not fetched: its files are read one by one`;
  if (why === 'remote input') return `it reads ${entry} (named in ${where}) from the network, which is not fetched: its files are read one by one`;
  if (why === 'unreadable') return `${where} cannot be read (${entry}), so what it would have kustomize read is not known: its files are read one by one`;
  return `${relative(root, entry) || entry} (named in ${where}) is not a regular file (a FIFO or a device would hold the render): its files are read one by one`;
}

/** Renders a chart or a Kustomize root with the user's own tool, or says why it was not. */
export async function renderUnit(unit: RenderUnit, settings: RenderSettings): Promise<UnitRender> {
  if (!settings.trusted) return { kind: 'skipped', reason: `${unit.tool === 'helm' ? 'helm' : 'kustomize'} runs only in a trusted workspace (it executes the workspace's ${unit.tool === 'helm' ? 'templates' : 'plugins'})` };
  // Nothing is fetched, as with Helm's dependencies: kustomize would clone a remote base at every render (on open, on save).
  const kustomizations = unit.tool === 'kustomize' ? kustomizationsOf(unit.root) : [];
  const [outside] = unrenderedInputsOf(kustomizations);
  if (outside) return { kind: 'skipped', reason: notRenderedFor(unit.root, outside) };
  // With plugins on, kustomize's own helm renders a chart it inflates: what it would read outside is refused alike.
  for (const chart of settings.enablePlugins ? kustomizations.flatMap((refs) => refs.inflatedCharts) : []) {
    const outside = chartReadsOutside(chart);
    if (outside) return { kind: 'skipped', reason: `the chart it inflates from ${relative(unit.root, chart) || chart} would be read outside its folder: ${outside.why}; its files are read one by one` };
  }
  const key = cacheKey(unit, settings);
  const hit = cache.get(key);
  if (hit) return { kind: 'rendered', unit: hit };
  try {
    const rendered = unit.tool === 'helm' ? await renderHelmUnit(unit.root, settings) : await renderKustomize(unit.root, {
      configuredPath: settings.kustomizePath,
      extraPath: settings.extraPath,
      enablePlugins: settings.trusted && settings.enablePlugins,
      signal: settings.signal,
      timeoutMs: settings.timeoutMs,
      readText: settings.readText,
      run: settings.run,
    });
    // A render cut short says only that it was ("helm was cancelled"), one timed out that it was slow this time:
    // the next one must run, not be served that.
    if (settings.signal?.aborted || rendered.transient) return { kind: 'rendered', unit: rendered };
    cache.set(key, rendered);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
    return { kind: 'rendered', unit: rendered };
  } catch (error) {
    if (error instanceof RenderToolMissing) return { kind: 'missing', tool: error.tool, hint: error.hint };
    if (!(error instanceof ToolError)) throw error;
    const file = kustomizationIn(unit.root) ?? unit.root;
    const problem = { location: { path: file, line: 0 }, message: `kustomize could not build ${basename(unit.root)}: ${error.message}`, severity: 'error' as const };
    return { kind: 'rendered', unit: { tool: unit.tool, root: unit.root, text: '', mapper: { locate: () => [problem.location], translateFix: () => undefined }, problems: [problem] } };
  }
}
