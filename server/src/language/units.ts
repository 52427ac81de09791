import { basename, dirname, resolve, sep } from 'node:path';
import { innermostOf, shownWithin, within } from '../files/within';
import { cachedRealPaths, nameTaken, realPathOrUndefined } from '../files/file-kind';
import { lineMover } from './line-moves';
import { factOf } from '../manifest/facts';
import { analyzeRenderedUnitInSteps, mergeUnitFindings, unitFindingWithoutFixes, type SourceFix, type UnitFinding, type UnwrittenFix } from '../render/analyze-unit';
import type { ManifestFile } from '../manifest/parse';
import { MAX_RENDERS_AT_ONCE, renderUnit, type RenderSettings } from '../render/render-unit';
import { readSourceText } from '../render/source-yaml';
import type { Finding } from '../rules/types';
import type { StepRunner, Steps } from '../steps';
import { findUnitsInSteps, type DeploymentUnits, type RenderUnit } from '../units/find-units';
import { KUSTOMIZATION_NAMES, kustomizationIn } from '../units/kustomization';
import type { Feature } from './features';
import { pathOf } from './file-uri';
import { lateProgress } from './late-progress';
import { inSlices, SlicedWork } from './sliced-work';
import { ChartFolderWatch } from './chart-watch';
import { manifestFilesOf } from './workspace-scan';
import { isManifestName } from '../inventory/manifest-files';
import type { ServerState } from './state';
import { ConcurrencyLimit } from '../concurrency-limit';

interface UnitResult {
  findings: UnitFinding[];
  /** The text of each source file when the unit was rendered: findings move with later edits until the next render. */
  texts: Map<string, string>;
  rendered: boolean;
  /** Why it was not rendered (an untrusted workspace, no helm found), when it was not. */
  notRendered?: string;
  /** What the unit renders, parsed, for the simulator. */
  renderedFile?: ManifestFile;
}

/**
 * Charts and Kustomize roots in the editor: rendered in the background when one of their files is opened or
 * saved (never on a keystroke), their findings shown on the source files and kept, moved with the edits, while
 * a person types.
 */
export class EditorUnits {
  private layout: Promise<DeploymentUnits> | undefined;
  private layoutFound: DeploymentUnits | undefined;
  private readonly results = new Map<string, UnitResult>();
  private readonly running = new Map<string, AbortController>();
  /** Renders run a few at a time (see MAX_RENDERS_AT_ONCE). */
  private readonly turns = new ConcurrencyLimit(MAX_RENDERS_AT_ONCE);
  private mergedCache: { findings: UnitFinding[]; texts: Map<string, string> } | undefined;
  /** The last line mover of each file (see moverFor). */
  private readonly movers = new Map<string, { before: string; now: string; move: (line: number) => number }>();

  private readonly chartWatch: ChartFolderWatch;

  constructor(private readonly state: ServerState) {
    this.chartWatch = new ChartFolderWatch(state.connection, () => state.watchesRelativePatterns);
  }

  /** Forgets the units found, so the next open or save divides the workspace again (files added, settings changed). */
  reset(): void {
    this.layout = undefined;
    this.layoutFound = undefined;
    this.results.clear();
    this.mergedCache = undefined;
    this.movers.clear();
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }

  /** The workspace divided into units, its folders walked in slices (a walk of 70,000 files held every request up for a second). */
  private units(): Promise<DeploymentUnits> {
    if (this.layout) return this.layout;
    const layout = inSlicesBetweenRequests(unitsOf(this.state.roots)).then((found) => {
      // Divided again meanwhile (a folder added, a file created): the later division stands.
      if (this.layout === layout) {
        this.layoutFound = found;
        this.chartWatch.watch(found.units.filter((unit) => unit.tool === 'helm').map((unit) => unit.root));
      }
      return found;
    });
    return (this.layout = layout);
  }

  /** A file of a unit was opened or saved: render its units again. */
  async touched(uri: string): Promise<void> {
    await this.touchedMany([uri]);
  }

  /**
   * A file was closed: a render running for a unit no open file belongs to any more is stopped (a chart whose render
   * takes a minute kept helm at full CPU until its deadline, for no file shown); opening one of its files renders it again.
   */
  closed(): void {
    const layout = this.layoutFound;
    if (!layout || this.running.size === 0) return;
    const open = new Set(this.state.documents.all().flatMap((d) => {
      const path = pathOf(d.uri);
      return path ? this.unitsHolding(layout, path).map((unit) => unit.root) : [];
    }));
    for (const [root, controller] of this.running) {
      if (open.has(root)) continue;
      controller.abort();
      this.running.delete(root);
    }
  }

  private async touchedMany(uris: readonly string[]): Promise<void> {
    if (!this.state.settings.enable || !this.state.settings.render) return;
    const layout = await this.units();
    const units = new Set<RenderUnit>();
    for (const path of uris.map(pathOf)) if (path) for (const unit of this.unitsHolding(layout, path)) units.add(unit);
    for (const unit of units) void this.render(unit);
  }

  /**
   * Files changed on disk outside the editor (a checkout, a generator): a manifest created or deleted, or a
   * Chart.yaml or kustomization changed, can make or unmake units, so the workspace is divided again; the
   * units holding the changed files render again (a render whose files are unchanged comes from the cache).
   */
  async filesChanged(changes: readonly { uri: string; created: boolean; deleted: boolean }[]): Promise<void> {
    if (changes.some(reshapesUnits)) await this.divideAgain();
    await this.touchedMany(changes.map((c) => c.uri));
  }

  /**
   * Workspace folders were added or removed, or folders in them created, renamed or deleted (a chart copied in, a
   * chart renamed: its files come as one folder event): the workspace is divided again, and the units of open files render.
   */
  async foldersChanged(): Promise<void> {
    await this.divideAgain();
    await this.touchedMany(this.state.documents.all().map((d) => d.uri));
  }

  private async divideAgain(): Promise<void> {
    this.layout = undefined;
    this.layoutFound = undefined;
    const layout = await this.units();
    // A chart or root that is gone takes its findings with it.
    const gone = [...this.results.keys()].filter((root) => !layout.units.some((unit) => unit.root === root));
    for (const root of gone) this.results.delete(root);
    this.mergedCache = undefined;
    if (gone.length) this.state.revalidateOpen();
  }

  private settings(unit: RenderUnit): RenderSettings {
    const s = this.state.settings;
    return {
      trusted: s.trusted,
      extraPath: s.extraPath,
      kustomizePath: s.kustomize.path,
      enablePlugins: s.kustomize.enablePlugins,
      helmPath: s.helm.path,
      release: s.helm.releaseName,
      valuesFiles: this.valuesFilesOf(unit),
      readText: (path) => this.openText(path),
    };
  }

  /**
   * The values files set for a chart (`kubeResilience.helm.valuesFiles`): its key names the chart folder, relative
   * to its workspace folder or by a trailing part of its path (`podinfo` is not `my-podinfo`), and relative files
   * lie in that workspace folder, not wherever the server was started.
   */
  private valuesFilesOf(unit: RenderUnit): string[] | undefined {
    const folder = this.state.roots.map(pathOf).find((root): root is string => !!root && within(root, unit.root)) ?? dirname(unit.root);
    for (const [chart, files] of Object.entries(this.state.settings.helm.valuesFiles)) {
      const key = chart.replace(/[\\/]+$/, '');
      if (key && (unit.root === resolve(folder, key) || unit.root.endsWith(`${sep}${key}`))) return files.map((file) => resolve(folder, file));
    }
    return undefined;
  }

  /** The other charts a values file is set for (`kubeResilience.helm.valuesFiles` may name one file for several). */
  private chartsReading(path: string, root: string): string[] {
    const charts = this.layoutFound?.units.filter((unit) => unit.tool === 'helm' && unit.root !== root) ?? [];
    return charts.filter((unit) => this.valuesFilesOf(unit)?.includes(path)).map((unit) => unit.root);
  }

  /** Settings changed (trust granted, a tool's path, the release name): what was rendered goes, and the open files' units render again. */
  settingsChanged(): void {
    this.reset();
    void this.touchedMany(this.state.documents.all().map((d) => d.uri));
  }

  /** The open document of a file, under the uri the editor gave it (which may encode the path otherwise than Node). */
  openDocument(path: string): { uri: string; version: number; getText(): string } | undefined {
    return this.state.documents.all().find((d) => pathOf(d.uri) === path);
  }

  private openText(path: string): string | undefined {
    return this.openDocument(path)?.getText();
  }

  private async render(unit: RenderUnit): Promise<void> {
    this.running.get(unit.root)?.abort();
    const controller = new AbortController();
    this.running.set(unit.root, controller);
    if (!(await this.turns.acquire(controller.signal))) return;
    try {
      await this.renderNow(unit, controller);
    } finally {
      this.turns.release();
      if (this.running.get(unit.root) === controller) this.running.delete(unit.root);
    }
  }

  private async renderNow(unit: RenderUnit, controller: AbortController): Promise<void> {
    const settings = { ...this.settings(unit), signal: controller.signal };
    // The tools render what is on disk: so are the render's places, its fixes and its cache key read. An open file
    // typed into and not saved is another text, which findings move to (findingsFor) and which no fix is offered
    // for until it is saved (sourceFixesAt): read from the editor, a fix lowered replicas typed as 5 to 2.
    const readText = readSourceText;
    const progress = lateProgress(this.state.connection, 'Kube Resilience', `Rendering ${unit.root.split(/[\\/]/).pop()} with ${unit.tool}`);
    try {
      const result = await renderUnit(unit, { ...settings, readText, run: inSlicesBetweenRequests });
      if (controller.signal.aborted) return;
      // Values files set for a chart outside it are sources of its findings too: their lines move, their fixes are offered.
      const texts = new Map([...unit.files, ...(this.valuesFilesOf(unit) ?? [])].map((f) => [f, readText(f) ?? '']));
      if (result.kind === 'rendered') {
        const { findings, file } = await inSlicesBetweenRequests(analyzeRenderedUnitInSteps(result.unit, { severities: this.state.settings.rules, cluster: this.state.cluster, readText, readByOthers: (path, root) => this.chartsReading(path, root) }));
        if (controller.signal.aborted) return;
        this.mergedCache = undefined;
        this.results.set(unit.root, { findings, texts, rendered: true, renderedFile: file });
      } else {
        const reason = result.kind === 'missing' ? `${result.tool} was not found: ${result.hint}` : result.reason;
        this.mergedCache = undefined;
        this.results.set(unit.root, { findings: [notice(unit, reason)], texts, rendered: false, notRendered: reason });
      }
    } catch (error) {
      this.state.connection.console.error(`rendering ${unit.root} failed: ${(error as Error).message}`);
    } finally {
      progress.done();
    }
    this.state.revalidateOpen();
  }

  /** Whether a file's own analysis gives way to its units' (a patch never counts as a resource; a base counts through its roots). */
  replacesPlainAnalysis(uri: string): boolean {
    const path = pathOf(uri);
    const layout = this.layoutFound;
    if (!path || !layout) return false;
    if (layout.neverResources.has(path)) return true;
    return (layout.owned.get(path) ?? []).some((unit) => this.results.get(unit.root)?.rendered);
  }

  /** The last render's findings on this file, moved to where their lines are in the text being edited. */
  findingsFor(uri: string, textOf: () => string): Finding[] {
    const path = pathOf(uri);
    if (!path || !this.state.settings.render) return [];
    const { findings, texts } = this.merged();
    const out: Finding[] = [];
    let move: ((line: number) => number) | undefined;
    for (const finding of findings) {
      if (finding.uri !== path || !finding.range) continue;
      if (!move) {
        const text = textOf();
        move = this.moverFor(path, texts.get(path) ?? text, text);
      }
      const line = move(finding.range.start.line);
      const shift = line - finding.range.start.line;
      out.push({ ...finding, uri, range: { start: { ...finding.range.start, line }, end: { ...finding.range.end, line: finding.range.end.line + shift } } });
    }
    return [...out, ...this.failedElsewhere(path, uri)];
  }

  /**
   * Where the lines of a file as rendered are now, kept while neither text changes: a code action asks for every
   * rendered diagnostic at its lines, and each asked for the same diff of the same two texts.
   */
  private moverFor(path: string, before: string, now: string): (line: number) => number {
    const kept = this.movers.get(path);
    if (kept && kept.before === before && kept.now === now) return kept.move;
    const move = lineMover(before, now);
    this.movers.set(path, { before, now, move });
    return move;
  }

  /**
   * A file of a chart or root whose render failed in another file, or that is not rendered at all (an untrusted
   * workspace, no helm found): said at its top, where it would otherwise look clean or say nothing of why (the
   * error is placed where the tool points, often a file that is not open; the notice on its Chart.yaml or kustomization).
   */
  private failedElsewhere(path: string, uri: string): Finding[] {
    if (!this.layoutFound) return [];
    return this.unitsHolding(this.layoutFound, path).flatMap((unit) => {
      const result = this.results.get(unit.root);
      const failure = result?.findings.find((f) => f.ruleId === `${unit.tool}-render` && (f.severity === 'error' || !result.rendered));
      if (!failure?.uri || failure.uri === path) return [];
      const what = `${unit.tool === 'helm' ? 'The chart' : 'The Kustomize root'} ${basename(unit.root)}`;
      const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      if (result!.notRendered !== undefined) return [{ ...failure, uri, severity: 'info' as const, message: `${what} is not rendered, so its files are analysed one by one: ${result!.notRendered}.`, range: top }];
      const where = `${shownWithin(unit.root, failure.uri)}:${(failure.range?.start.line ?? 0) + 1}`;
      return [{ ...failure, uri, severity: 'info' as const, message: `${what} did not render, so the findings of this file are not shown until it does: ${where}: ${failure.message}`, range: top }];
    });
  }

  /**
   * Every unit's findings, one per source place: a base that several roots deploy holds one finding naming
   * them, as `check` reports it. Kept until the next render, with the source texts they were found on.
   */
  private merged(): { findings: UnitFinding[]; texts: Map<string, string> } {
    if (this.mergedCache) return this.mergedCache;
    const texts = new Map<string, string>();
    for (const result of this.results.values()) for (const [file, text] of result.texts) texts.set(file, text);
    const all = [...this.results.values()].flatMap((r) => r.findings);
    const folders = this.state.roots.map(pathOf).filter((p): p is string => !!p);
    const folder = folders[0] ?? '';
    // A base outside the workspace folders may be deployed by roots outside them too: it is edited for none of them
    // (each root in view gets a patch of its own), as `check` leaves a base outside the paths it checks.
    const real = cachedRealPaths();
    const deployersOf = (file: string) => (this.inWorkspace(file, real) ? (this.layoutFound?.owned.get(resolve(file)) ?? []).map((unit) => unit.root) : []);
    return (this.mergedCache = { findings: mergeUnitFindings(all, folder, deployersOf), texts });
  }

  /**
   * The source fixes of the rendered finding shown at this line, while every file they edit is as it was
   * rendered: the edits were computed on that text, and a stale one could land on the wrong line.
   */
  sourceFixesAt(uri: string, shown: Pick<Finding, 'ruleId' | 'message' | 'range'>): { fixes: SourceFix[]; unwritten: UnwrittenFix[] } {
    const { texts } = this.merged();
    const unchanged = (file: string) => this.sourceText(file) === texts.get(file);
    const finding = this.renderedFindingAt(uri, shown);
    const fixes: SourceFix[] = [];
    // With the rule's fixes that no edit of the sources carries out, and why.
    const unwritten = [...(finding?.unwrittenFixes ?? [])];
    for (const fix of finding?.sourceFixes ?? []) {
      if (!fix.edits.edits.every((e) => unchanged(e.path))) continue;
      const reason = this.notWrittenHere(fix);
      if (reason) unwritten.push({ title: fix.title, reason });
      else fixes.push(fix);
    }
    return { fixes, unwritten };
  }

  /**
   * Why a fix worked out at the render is no edit to offer now: a file it edits lies outside the workspace folders
   * (a values file set from elsewhere, which charts not in view may read; a base linked in), or a file it creates is
   * there by now (its name was free at the render).
   */
  private notWrittenHere(fix: SourceFix): string | undefined {
    const outside = [...fix.edits.edits.map((e) => e.path), ...fix.edits.creates.map((c) => dirname(c.path))].find((path) => !this.inWorkspace(path));
    if (outside !== undefined) return `${outside} lies outside the workspace folders`;
    const taken = fix.edits.creates.find((c) => nameTaken(c.path));
    return taken ? `${basename(taken.path)} is there by now` : undefined;
  }

  /** Whether a file lies in a workspace folder, links resolved (a base linked in from elsewhere counted as inside). */
  private inWorkspace(path: string, real: (path: string) => string | undefined = realPathOrUndefined): boolean {
    const at = real(path) ?? resolve(path);
    return this.state.roots.some((root) => {
      const folder = pathOf(root);
      return !!folder && within(real(folder) ?? folder, at);
    });
  }

  /** The rendered finding shown at this line (moved with the lines typed above it since the render). */
  private renderedFindingAt(uri: string, shown: Pick<Finding, 'ruleId' | 'message' | 'range'>): UnitFinding | undefined {
    const path = pathOf(uri);
    if (!path) return undefined;
    const { findings, texts } = this.merged();
    const now = this.sourceText(path);
    const before = texts.get(path);
    const move = before !== undefined && now !== undefined ? this.moverFor(path, before, now) : (line: number) => line;
    const at = (f: UnitFinding) => move(f.range!.start.line);
    // By what it says too: two findings of a rule on one line (a values key two workloads print) have fixes of their own.
    return findings.find((f) => f.uri === path && f.ruleId === shown.ruleId && f.message === shown.message && f.range && at(f) === shown.range?.start.line);
  }

  /** What the rendered units deploy, one parsed stream each. */
  renderedFiles(): ManifestFile[] {
    return [...this.results.values()].flatMap((r) => (r.renderedFile ? [r.renderedFile] : []));
  }

  /** The current text of a source file: the open document's, else the file's. */
  sourceText(path: string): string | undefined {
    return this.openText(path) ?? readSourceText(path);
  }

  /**
   * The units a file is part of: those that deploy it, the chart it lies in (a chart's other files, its
   * `_helpers.tpl` and the files it reads, are no manifests, and still shape its render), and the charts whose
   * values files it is (`kubeResilience.helm.valuesFiles`, kept anywhere in the workspace).
   */
  private unitsHolding(layout: DeploymentUnits, path: string): RenderUnit[] {
    const at = resolve(path);
    const { charts, chartAround, valuesFor } = factOf(chartLookups, layout, () => this.chartLookup(layout));
    const around = chartAround(at);
    return [...new Set([...(layout.owned.get(at) ?? []), ...(around === undefined ? [] : [charts.get(around)!]), ...(valuesFor.get(at) ?? [])])];
  }

  /** The charts of a division of the workspace, by their folders and by the values files set for them. */
  private chartLookup(layout: DeploymentUnits): ChartLookup {
    const charts = new Map(layout.units.filter((unit) => unit.tool === 'helm').map((unit) => [unit.root, unit]));
    const valuesFor = new Map<string, RenderUnit[]>();
    for (const unit of charts.values()) for (const file of this.valuesFilesOf(unit) ?? []) valuesFor.set(file, [...(valuesFor.get(file) ?? []), unit]);
    return { charts, chartAround: innermostOf([...charts.keys()]), valuesFor };
  }
}

interface ChartLookup {
  charts: Map<string, RenderUnit>;
  /** The folder of the innermost chart a path lies in. */
  chartAround: (path: string) => string | undefined;
  /** The charts each values file is set for (`kubeResilience.helm.valuesFiles`). */
  valuesFor: Map<string, RenderUnit[]>;
}

/**
 * The charts of each division of the workspace, looked up once: each open file's validation asks which hold it (the
 * values files of every chart were worked out again each time: 0.5 ms with 1,000 charts). Settings that change them
 * divide the workspace again.
 */
const chartLookups = new WeakMap<DeploymentUnits, ChartLookup>();

/** The units of the workspace folders (uris): their files listed, then divided. */
function* unitsOf(folderUris: readonly string[]): Steps<DeploymentUnits> {
  return yield* findUnitsInSteps(yield* manifestFilesOf(folderUris));
}

/** Runs work on the workspace's units in slices, with requests answered in between (a large render is seconds of parsing). */
const inSlicesBetweenRequests: StepRunner = (steps) => inSlices(new SlicedWork(steps), () => true).then((outcome) => outcome!.value);

/** One information finding per unit that was not rendered, on its Chart.yaml or kustomization, saying why. */
function notice(unit: RenderUnit, reason: string): UnitFinding {
  const file = unit.tool === 'helm' ? `${unit.root}/Chart.yaml` : kustomizationIn(unit.root) ?? unit.root;
  return unitFindingWithoutFixes({
    ruleId: `${unit.tool}-render`,
    severity: 'info' as const,
    message: `Not rendered, so its files are analysed one by one: ${reason}.`,
    uri: file,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    resource: null,
    fixes: [],
    related: [],
    rendered: { tool: unit.tool, unit: unit.root },
  });
}

let instance: EditorUnits | undefined;

/** The editor's units, once the feature is registered. */
export function editorUnits(): EditorUnits | undefined {
  return instance;
}

export const unitsFeature: Feature = {
  register(state) {
    instance = new EditorUnits(state);
    state.documents.onDidOpen((e) => void instance!.touched(e.document.uri));
    state.documents.onDidSave((e) => void instance!.touched(e.document.uri));
    state.documents.onDidClose(() => instance!.closed());
  },
  settingsChanged() {
    instance?.settingsChanged();
  },
};

/**
 * Whether a file changed on disk can make or unmake units: a Chart.yaml or a kustomization changed, or a manifest
 * created or deleted. Units are made of manifests: another file coming or going (an editor's swap file, a
 * packaged subchart, anything under a chart's folder, which is watched whole) divides nothing anew.
 */
export function reshapesUnits(change: { uri: string; created: boolean; deleted: boolean }): boolean {
  const name = change.uri.slice(change.uri.search(/[^\\/]*$/));
  return name === 'Chart.yaml' || KUSTOMIZATION_NAMES.includes(name) || ((change.created || change.deleted) && isManifestName(name));
}
