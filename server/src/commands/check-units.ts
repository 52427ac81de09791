import { dirname, relative, resolve, sep } from 'node:path';
import { describeFileError, readRegularFileBounded } from '../files/read-bounded';
import { MAX_MANIFEST_BYTES } from '../inventory/manifest-files';
import { analyzeRenderedUnit, mergeUnitFindings, preferredSourceFix, type DeployersOf, type UnitAnalysisOptions, type UnitFinding } from '../render/analyze-unit';
import { MAX_RENDERS_AT_ONCE, renderUnit, type RenderSettings, type UnitRender } from '../render/render-unit';
import { interruptibleAgain } from '../on-interrupt';
import { ConcurrencyLimit } from '../concurrency-limit';
import type { RenderedUnit } from '../render/types';
import { findUnits, type RenderUnit } from '../units/find-units';
import type { Io } from './check';
import { UsageError } from './usage-error';
import { realTargetInside } from './fix-files';
import { writeSourceEdits } from './write-source-edits';
import { brokenRender, renderErrorsBefore, fixVerdict, unitFindings } from './render-check';
import { onInterrupt } from '../on-interrupt';
import { within } from '../files/within';

export const RENDER_OPTIONS = {
  render: { type: 'string' as const, default: 'auto' },
  values: { type: 'string' as const, multiple: true as const, default: [] as string[] },
  set: { type: 'string' as const, multiple: true as const, default: [] as string[] },
  release: { type: 'string' as const, default: 'release' },
  namespace: { type: 'string' as const },
};

export interface UnitsCheck {
  /** Files to analyse one by one: plain manifests, and the files of units that were not rendered. */
  plainPaths: string[];
  findings: UnitFinding[];
}

/** A namespace name as Kubernetes takes one (RFC 1123 label): `a/b` named every finding `a/b/web`. */
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function settingsFrom(values: Record<string, unknown>): RenderSettings {
  const namespace = values.namespace as string | undefined;
  if (namespace !== undefined && !NAMESPACE_NAME.test(namespace)) throw new UsageError(`--namespace ${JSON.stringify(namespace)} is no namespace name: lowercase letters, digits and '-', at most 63, starting and ending with a letter or digit`);
  return {
    trusted: true, // the person running the CLI chose the folder: as in a trusted workspace
    release: values.release as string,
    namespace: values.namespace as string | undefined,
    valuesFiles: values.values as string[],
    set: values.set as string[],
  };
}

/** A path as the user would name it: relative to where they are when it lies below, else absolute. */
export function asGiven(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && within(resolve(process.cwd()), resolve(path)) ? rel : path;
}

export interface UnitsRendered {
  /** Files to read one by one: plain manifests, and the files of units that were not rendered. */
  plainPaths: string[];
  /** Those of plainPaths that are files of a unit that could not be rendered, which a line said of the unit as a whole (helm missing). */
  ofUnrenderedUnits: ReadonlySet<string>;
  rendered: RenderedUnit[];
  /** The roots that deploy a file (absolute paths). */
  deployersOf: DeployersOf;
}

/**
 * Divides the files given into units and renders each chart and Kustomize root; the rest (and every unit
 * that could not be rendered) is left to be read file by file. `command` names who speaks on stderr.
 */
export async function renderUnits(paths: string[], values: Record<string, unknown>, io: Io, command = 'check'): Promise<UnitsRendered> {
  const mode = values.render as string;
  if (mode !== 'auto' && mode !== 'off') throw new UsageError(`--render takes auto or off, not "${mode}"`);
  // Said whether or not a chart is met: a script's `--set =2` would pass until the day one is.
  for (const assignment of values.set as string[]) if (!/^[^=,]+=/.test(assignment)) throw new UsageError(`--set takes KEY=VALUE (as helm does), not "${assignment}"`);
  // Checked here, as a PATH is: helm would wait forever on a FIFO, and report a missing file as the chart's error.
  for (const file of values.values as string[]) {
    try {
      readRegularFileBounded(file, MAX_MANIFEST_BYTES);
    } catch (error) {
      throw new UsageError(`cannot read --values ${file}: ${describeFileError(error)}`);
    }
  }
  const files = paths.filter((p) => p !== '-');
  const divided = findUnits(files);
  const given = new Map(files.map((f) => [resolve(f), f]));
  const ownedOf = (unit: RenderUnit) => unit.files.filter((f) => given.has(f) && !divided.neverResources.has(f)).map((f) => given.get(f)!);
  const plainPaths = [...(paths.includes('-') ? ['-'] : []), ...divided.plain];
  if (mode === 'off') {
    const owned = new Set(divided.units.flatMap(ownedOf));
    // Asked not to render: their files are read one by one, each as what it is (a template named as one).
    return { plainPaths: [...plainPaths, ...[...owned].filter((f) => !plainPaths.includes(f))], ofUnrenderedUnits: new Set(), rendered: [], deployersOf: () => [] };
  }
  const settings = settingsFrom(values);
  const rendered: RenderedUnit[] = [];
  const saidMissing = new Set<string>();
  const unrendered = new Set<string>();
  const results = await renderedAFewAtATime(divided.units, settings);
  await interruptibleAgain();
  const renderedUnits = new Set<RenderUnit>();
  for (const [i, unit] of divided.units.entries()) {
    const result = results[i];
    if (result.kind === 'rendered') {
      rendered.push(result.unit);
      renderedUnits.add(unit);
      continue;
    }
    if (result.kind === 'skipped') io.stderr(`kube-resilience ${command}: ${unit.root}: not rendered: ${result.reason}`);
    if (result.kind === 'missing' && !saidMissing.has(result.tool)) {
      saidMissing.add(result.tool);
      io.stderr(`kube-resilience ${command}: ${result.tool} was not found, so ${unit.tool === 'helm' ? 'Helm charts' : 'Kustomize roots'} are read file by file (${result.hint})`);
    }
    for (const file of ownedOf(unit)) unrendered.add(file);
  }
  // A file a root that rendered deploys too (a base two overlays share, one of them with a remote base) is that
  // root's: read on its own as well, its findings came twice, and its fixes went into it as into a plain file, a
  // second budget appended to the base, which the other root then could no longer build.
  for (const file of unrendered) if ((divided.owned.get(resolve(file)) ?? []).some((unit) => renderedUnits.has(unit))) unrendered.delete(file);
  // A base outside the files looked at may be deployed by roots not looked at either: it is edited for none of them.
  const looked = new Set(paths.map((p) => resolve(p)));
  const deployersOf = (path: string) => (looked.has(resolve(path)) ? (divided.owned.get(resolve(path)) ?? []).map((unit) => unit.root) : []);
  return { plainPaths: [...plainPaths, ...[...unrendered].filter((f) => !plainPaths.includes(f))], ofUnrenderedUnits: unrendered, rendered, deployersOf };
}

/** Each unit rendered, in their order; a few at a time (see MAX_RENDERS_AT_ONCE). */
function renderedAFewAtATime(units: readonly RenderUnit[], settings: RenderSettings): Promise<UnitRender[]> {
  const turns = new ConcurrencyLimit(MAX_RENDERS_AT_ONCE);
  return Promise.all(
    units.map(async (unit) => {
      // No signal: a listener for each waiting unit on one shared signal set off Node's leak warning past 10 units.
      await turns.acquire();
      try {
        return await renderUnit(unit, settings);
      } finally {
        turns.release();
      }
    }),
  );
}

/**
 * Divides the files of a `check` into units, renders each chart and Kustomize root, and analyses what they
 * render; the rest (and every unit that could not be rendered) is left to be analysed file by file.
 */
export async function checkUnits(paths: string[], values: Record<string, unknown>, io: Io, options: UnitAnalysisOptions): Promise<UnitsCheck> {
  const { plainPaths, rendered, deployersOf } = await renderUnits(paths, values, io);
  const findings = rendered.flatMap((unit) => analyzeRenderedUnit(unit, { ...options, readByOthers: valuesReadBy(rendered, values) }));
  const base = commonFolder(paths.filter((p) => p !== '-').map((f) => resolve(f)));
  const merged = mergeUnitFindings(findings, base, deployersOf).map((f) =>
    Object.assign(f, { uri: f.uri ? asGiven(f.uri) : f.uri, related: f.related.map((r) => ({ ...r, uri: asGiven(r.uri) })), rendered: { ...f.rendered, unit: asGiven(f.rendered.unit) } }),
  );
  return { plainPaths, findings: merged };
}

/** A --values file is given to every chart of the run: the other charts rendered read it too. */
function valuesReadBy(rendered: readonly RenderedUnit[], values: Record<string, unknown>): (path: string, unitRoot: string) => string[] {
  const given = new Set(((values.values as string[] | undefined) ?? []).map((file) => resolve(file)));
  const charts = rendered.filter((unit) => unit.tool === 'helm').map((unit) => unit.root);
  return (path, unitRoot) => (given.has(resolve(path)) ? charts.filter((root) => root !== unitRoot) : []);
}

function commonFolder(paths: string[]): string {
  if (!paths.length) return process.cwd();
  let parts = paths[0].split(sep).slice(0, -1);
  for (const path of paths.slice(1)) {
    const other = path.split(sep);
    let i = 0;
    while (i < parts.length && parts[i] === other[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join(sep) || sep;
}

/** What `--fix` did to charts and Kustomize roots: fixes applied, files written, and fixes that could not be written. */
export interface UnitsFixed {
  applied: number;
  files: Set<string>;
  /** A fix that could not be written or was taken back, with the file that stopped it and those it could not put back. */
  failed: { ruleId: string; path: string; reason: string; notPutBack: string[] }[];
  /** Files written that had other hard links, which keep the text they had. */
  unlinked: { path: string; others: number }[];
}

/**
 * Applies the preferred fixes of rendered findings to their source files (unsafe ones only with
 * `unsafeFixes`), re-rendering between rounds (a fix changes what the unit renders). Files are written
 * atomically, and only inside the folders the user named; a fix is written whole or not at all.
 */
export async function fixUnits(
  named: string[],
  files: () => string[],
  values: Record<string, unknown>,
  io: Io,
  options: UnitAnalysisOptions & { unsafeFixes?: boolean },
): Promise<UnitsFixed> {
  const allowed = named.filter((p) => p !== '-').map((p) => resolve(p));
  // A file to edit must really be inside a named folder (links resolved); a file to create, its folder.
  const inside = (path: string, creating: boolean) =>
    allowed.some((folder) => !('reason' in realTargetInside(creating ? dirname(path) : path, folder)));
  const settings = settingsFrom(values);
  const written = new Set<string>();
  const stuck = new Set<string>();
  /** Fixes (their edits) that stopped a unit from rendering, or left their finding in place: not tried again. */
  const unrenderable = new Set<string>();
  const failed: UnitsFixed['failed'] = [];
  const unlinked = new Map<string, number>();
  let applied = 0;
  for (let round = 0; round < 20; round++) {
    const roundFiles = files();
    const { findings } = await checkUnits(roundFiles, values, { ...io, stderr: () => undefined }, options);
    // Divided once a round, not for each fix tried: a file a fix creates joins its unit's render all the same.
    const roundUnits = findUnits(roundFiles).units;
    const touched = new Set<string>();
    let progress = false;
    for (const finding of findings) {
      const key = `${finding.ruleId}|${finding.uri}|${finding.range?.start.line}|${finding.message}`;
      if (stuck.has(key)) continue;
      const fix = preferredSourceFix(finding, options.unsafeFixes);
      if (!fix) continue;
      const edited = fix.edits.edits.map((e) => resolve(e.path));
      const created = fix.edits.creates.map((c) => resolve(c.path));
      const targets = [...edited, ...created];
      if (targets.some((t) => touched.has(t))) continue;
      // A fix that does not take the finding away, or cannot be written, is not tried again.
      stuck.add(key);
      const outside = edited.find((t) => !inside(t, false)) ?? created.find((t) => !inside(t, true));
      if (outside !== undefined) {
        // Said, as a plain file's is: the fix was offered ("fixable"), and --fix must say why it was not written; once,
        // though two findings offer it (a template line and the values line it reads).
        const where = allowed.some((folder) => within(folder, resolve(outside))) ? ' (a link leads there)' : '';
        const reason = `outside ${named.filter((p) => p !== '-').join(', ')}${where}: not written`;
        if (!failed.some((f) => f.ruleId === finding.ruleId && f.path === asGiven(outside) && f.reason === reason)) failed.push({ ruleId: finding.ruleId, path: asGiven(outside), reason, notPutBack: [] });
        continue;
      }
      // The same fix found for another finding (a template line and the values line it reads) is not tried again.
      const edits = JSON.stringify([fix.edits.edits, fix.edits.creates]);
      if (unrenderable.has(edits)) continue;
      const unitRoot = resolve(finding.rendered.unit);
      const before = await renderErrorsBefore(unitRoot, edited, roundUnits, settings);
      const findingsBefore = await unitFindings(unitRoot, roundUnits, settings, options);
      // A fix right for the rendered resource may still stop its unit from rendering: it is taken back. Stopped
      // meanwhile (Ctrl-C during its writes, the render or while its output is read), it is taken back too: it was
      // never checked. Covered from before the writes: Ctrl-C then waits for them (it ended the process between two
      // files, a patch named in kustomization.yaml never written).
      let outcome: ReturnType<typeof writeSourceEdits>;
      const checked = onInterrupt(() => void (outcome && !('reason' in outcome) && outcome.undo()));
      outcome = writeSourceEdits(fix.edits);
      // Replaced, even if put back later, a file has parted from its other hard links.
      for (const { path, others } of outcome.unlinked) if (!unlinked.has(asGiven(path))) unlinked.set(asGiven(path), others);
      if ('reason' in outcome) {
        checked();
        failed.push({ ruleId: finding.ruleId, path: asGiven(outcome.path), reason: outcome.reason, notPutBack: outcome.notPutBack.map(asGiven) });
        continue;
      }
      const fixWritten = outcome;
      const verdict = await (async () => (await brokenRender(before, settings)) ?? (await fixVerdict(unitRoot, finding, fix.title, findingsBefore, roundUnits, settings, options)))().finally(checked);
      if (verdict === 'finding left') {
        // Not written again for another finding that offers it (a template line and the values line it reads).
        unrenderable.add(edits);
        failed.push({ ruleId: finding.ruleId, path: asGiven(targets[0]), reason: 'the fix leaves the finding in place (what it edits is not what renders), so it was taken back', notPutBack: fixWritten.undo().map(asGiven) });
        continue;
      }
      if (verdict && 'brought' in verdict) {
        unrenderable.add(edits);
        const { ruleId, resource } = verdict.brought;
        const about = resource ? ` on ${resource.kind} ${resource.namespace ? `${resource.namespace}/` : ''}${resource.name}` : '';
        failed.push({ ruleId: finding.ruleId, path: asGiven(targets[0]), reason: `the fix brings ${ruleId}${about}, so it was taken back`, notPutBack: fixWritten.undo().map(asGiven) });
        continue;
      }
      if (verdict) {
        unrenderable.add(edits);
        failed.push({ ruleId: finding.ruleId, path: asGiven(verdict.root), reason: `it no longer renders with the fix (${verdict.reason})`, notPutBack: fixWritten.undo().map(asGiven) });
        continue;
      }
      for (const t of targets) {
        touched.add(t);
        written.add(t);
      }
      applied++;
      progress = true;
    }
    if (!progress) break;
  }
  return { applied, files: written, failed, unlinked: [...unlinked].map(([path, others]) => ({ path, others })) };
}
