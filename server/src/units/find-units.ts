import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { groupBy } from '../grouped';
import { KUSTOMIZATION_NAMES, kustomizationIn, readKustomization, type KustomizationRefs } from './kustomization';
import { runSteps, type Steps } from '../steps';
import { innermostOf, within } from '../files/within';

/** A chart or a Kustomize root: what is rendered and deployed together. */
export interface RenderUnit {
  tool: 'helm' | 'kustomize';
  /** Absolute path of the chart folder or the Kustomize root. */
  root: string;
  /** Absolute paths of the files it is made of (its render depends on them; edits to them re-render it). */
  files: string[];
}

/** A folder (or several files) divided into what is deployed together. */
export interface DeploymentUnits {
  units: RenderUnit[];
  /** Manifest files that belong to no chart and no kustomization: analysed as they are. */
  plain: string[];
  /** Files that are never resources (patches, kustomizations, transformer configs): never analysed as manifests. */
  neverResources: Set<string>;
  /** Manifest files that a chart or a kustomization owns: analysed through their unit when it renders. */
  owned: Map<string, RenderUnit[]>;
}

/**
 * Divides manifest files (absolute or relative paths, as found under a folder) into Helm charts, Kustomize
 * roots and plain manifests. A subchart (under a chart's charts/) renders with its parent; a kustomization
 * that another one names (a base, a component) is deployed through the roots that name it.
 */
export function findUnits(manifestFiles: string[]): DeploymentUnits {
  return runSteps(findUnitsInSteps(manifestFiles));
}

/**
 * findUnits, pausing after each folder it looks into for a Chart.yaml or a kustomization (a server answers
 * requests in between: in a tree of 70,000 files those looks took 100 ms).
 */
export function* findUnitsInSteps(manifestFiles: string[]): Steps<DeploymentUnits> {
  const absolute = new Map(manifestFiles.map((f) => [resolve(f), f]));
  const folders = new Set([...absolute.keys()].map((f) => dirname(f)));

  const chartFolders: string[] = [];
  for (const folder of folders) {
    // A template named alone (`check chart/templates`) belongs to the chart it is a template of: rendered with it.
    const found = existsSync(join(folder, 'Chart.yaml')) ? folder : chartOfTemplatesIn(folder);
    const chart = found === undefined ? undefined : parentChartOf(found);
    if (chart !== undefined && !chartFolders.includes(chart)) chartFolders.push(chart);
    yield;
  }
  chartFolders.sort();
  const topCharts = chartFolders.filter((chart) => !chartFolders.some((other) => other !== chart && within(join(other, 'charts'), chart)));

  const kustomizations = new Map<string, KustomizationRefs>();
  const filesIn = groupBy([...absolute.keys()], (path) => dirname(path));
  const read = new KustomizationsRead();
  for (const folder of folders) {
    if (chartFolders.some((chart) => within(chart, folder))) continue;
    const own = read.in(folder);
    if (own) kustomizations.set(folder, own);
    else {
      // A patch or resource named alone in a folder of its root (`overlays/prod/patches`) is part of that root, as
      // a template is of its chart: read as a plain manifest, --fix appended a budget to the patch.
      const files = filesIn.get(folder) ?? [];
      const above = read.above(folder, (refs) => [...refs.resourceFiles, ...refs.patchFiles, ...refs.inputFiles].some((path) => files.includes(path)));
      if (above && !kustomizations.has(above.folder)) kustomizations.set(above.folder, above);
    }
    yield;
  }
  // Bases named by another kustomization may hold no manifest of their own in the list (only a Kustomization).
  for (const refs of [...kustomizations.values()]) addNamedFolders(refs, kustomizations);
  const referenced = new Set([...kustomizations.values()].flatMap((k) => k.folders));
  const roots = [...kustomizations.keys()].filter((folder) => !referenced.has(folder)).sort();
  // Kustomizations that name each other in a ring (or themselves) have no root above them: each is built
  // as one, and kustomize's own error ("cycle detected") says what is wrong, where they went unseen.
  const reached = new Set(roots.flatMap((root) => foldersOf(root, kustomizations)));
  for (const folder of [...kustomizations.keys()].sort()) {
    if (reached.has(folder)) continue;
    roots.push(folder);
    for (const below of foldersOf(folder, kustomizations)) reached.add(below);
  }

  const neverResources = new Set<string>();
  for (const refs of kustomizations.values()) {
    for (const path of [refs.file, ...refs.patchFiles, ...refs.inputFiles]) neverResources.add(path);
  }

  const units: RenderUnit[] = [];
  const owned = new Map<string, RenderUnit[]>();
  const own = (path: string, unit: RenderUnit) => {
    unit.files.push(path);
    const list = owned.get(path);
    if (list) list.push(unit);
    else owned.set(path, [unit]);
  };
  // A chart kept in another's folder elsewhere than `charts/` (`outer/extras/inner`) is no subchart: it renders on its
  // own, and its files are its own, not the outer chart's too. Each file belongs to the innermost chart it lies in.
  const charts = new Map(topCharts.map((chart) => [chart, { tool: 'helm', root: chart, files: [] } as RenderUnit]));
  const chartOf = innermostOf(topCharts);
  for (const path of absolute.keys()) {
    const chart = chartOf(path);
    if (chart !== undefined) own(path, charts.get(chart)!);
  }
  units.push(...charts.values());
  for (const root of roots) {
    const unit: RenderUnit = { tool: 'kustomize', root, files: [] };
    for (const path of filesOf(root, kustomizations)) own(path, unit);
    units.push(unit);
  }
  const plain = [...absolute.entries()].filter(([path]) => !owned.has(path) && !neverResources.has(path)).map(([, given]) => given);
  return { units, plain, neverResources, owned };
}

/** How many folders up a kustomization naming a file of a folder without one is looked for. */
const KUSTOMIZATION_LEVELS_UP = 4;

/**
 * The kustomizations of folders, each folder looked into and each kustomization read once: asked for every folder of
 * a tree without one, a look above of its own for each took 10,000 folders of plain manifests from 1 s to 18 s.
 */
class KustomizationsRead {
  private readonly read = new Map<string, KustomizationRefs | undefined>();

  /**
   * The nearest in a folder above `folder` (up to KUSTOMIZATION_LEVELS_UP) that `names` the folder's files (a
   * kustomization between them may be another root's, naming none).
   */
  above(folder: string, names: (refs: KustomizationRefs) => boolean): KustomizationRefs | undefined {
    let above = folder;
    for (let level = 0; level < KUSTOMIZATION_LEVELS_UP; level++) {
      const parent = dirname(above);
      if (parent === above) return undefined;
      above = parent;
      const refs = this.in(above);
      if (refs && names(refs)) return refs;
    }
    return undefined;
  }

  /** The kustomization of `folder`, if it has one. */
  in(folder: string): KustomizationRefs | undefined {
    if (!this.read.has(folder)) {
      const file = kustomizationIn(folder);
      this.read.set(folder, file ? readKustomization(file) : undefined);
    }
    return this.read.get(folder);
  }
}

/**
 * The chart a chart renders with: the chart whose `charts/` folder holds it (and so on up), else itself. A vendored
 * subchart named alone rendered on its own, without the values its parent gives it, and its fixes went into the
 * vendored copy, which `helm dependency update` replaces.
 */
function parentChartOf(chart: string): string {
  let top = chart;
  while (basename(dirname(top)) === 'charts' && existsSync(join(dirname(dirname(top)), 'Chart.yaml'))) top = dirname(dirname(top));
  return top;
}

/** The chart whose `templates/` folder (or a folder below it) `folder` is, if any. */
function chartOfTemplatesIn(folder: string): string | undefined {
  const parts = folder.split(sep);
  const at = parts.lastIndexOf('templates');
  if (at <= 0) return undefined;
  const chart = parts.slice(0, at).join(sep) || sep;
  return existsSync(join(chart, 'Chart.yaml')) ? chart : undefined;
}

/** The bases `refs` names, and theirs, read into `kustomizations`: with a stack of its own, as a chain of 12,000 bases overflowed the call stack. */
function addNamedFolders(refs: KustomizationRefs, kustomizations: Map<string, KustomizationRefs>): void {
  const pending = [...refs.folders];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    if (kustomizations.has(folder)) continue;
    const file = kustomizationIn(folder);
    if (!file) continue;
    const named = readKustomization(file);
    kustomizations.set(folder, named);
    pending.push(...named.folders);
  }
}

/** Every file a root's render reads: its kustomizations, resources, patches and inputs, through its bases. */
function filesOf(root: string, kustomizations: Map<string, KustomizationRefs>): string[] {
  const files = new Set<string>();
  for (const folder of foldersOf(root, kustomizations)) {
    const refs = kustomizations.get(folder)!;
    for (const path of [refs.file, ...refs.resourceFiles, ...refs.patchFiles, ...refs.inputFiles]) files.add(path);
  }
  return [...files];
}

/** The kustomization folders a root's render goes through: itself and its bases, each once. */
function foldersOf(root: string, kustomizations: Map<string, KustomizationRefs>): string[] {
  const visited = new Set<string>();
  const pending = [root];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    if (visited.has(folder) || !kustomizations.has(folder)) continue;
    visited.add(folder);
    pending.push(...[...kustomizations.get(folder)!.folders].reverse());
  }
  return [...visited];
}

/** Whether a file name is a kustomization's. */
export function isKustomizationFile(path: string): boolean {
  return KUSTOMIZATION_NAMES.includes(basename(path));
}
