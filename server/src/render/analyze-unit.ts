import { groupBy } from '../grouped';
import { sep } from 'node:path';
import { shownWithin } from '../files/within';
import type { ClusterInfo } from '../cluster/types';
import { LazyProperty } from '../lazy-property';
import { compareCodeUnits } from '../sorted';
import { Inventory } from '../inventory/inventory';
import { documentAt, parseManifestInSteps, type ManifestFile } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { sentenceList } from '../words';
import { LineIndex, type Range } from '../manifest/text';
import { IncrementalAnalysis } from '../rules/incremental';
import type { AnalyzeOptions } from '../rules/engine';
import type { Fix } from '../fixes/edit';
import type { Finding, SeverityOverride } from '../rules/types';
import { splitMessage } from '../rules/message-parts';
import { runSteps, type Steps } from '../steps';
import { fieldChanges } from './fix-changes';
import { alsoChangesSaid, sharedFileSaid } from './also-changes';
import { readSourceText } from './source-yaml';
import type { RenderedUnit, SourceEdits, SourceLocation } from './types';

export interface UnitAnalysisOptions {
  severities?: Record<string, SeverityOverride>;
  cluster?: ClusterInfo;
  rules?: AnalyzeOptions['rules'];
  /** Reads a source file (an editor passes its open documents' text); default: the file on disk. */
  readText?: (path: string) => string | undefined;
  /**
   * The other units that render from a file of this one (a values file given for every chart of a run): an edit
   * there changes what they render too, which the fix was not judged safe for.
   */
  readByOthers?: (path: string, unitRoot: string) => string[];
}

/** A fix of a rendered finding, carried out in the files a person edits. */
export interface SourceFix {
  title: string;
  preferred?: boolean;
  /** What the fix changes in what the application does, as on the rendered finding's own fix (see Fix.unsafe). */
  unsafe?: string;
  edits: SourceEdits;
}

/** Whether a finding is on what a unit renders (its fixes are edits of the unit's sources). */
export function isUnitFinding(finding: Finding): finding is UnitFinding {
  return 'sourceFixes' in finding;
}

/** The fixes a report lists for a finding: for a rendered finding, the edits of its sources that `--fix` would write. */
export function reportedFixes(finding: Finding): readonly Pick<Fix, 'title' | 'preferred' | 'unsafe'>[] {
  return isUnitFinding(finding) ? finding.sourceFixes : finding.fixes;
}

/** The source fix `--fix` applies to a rendered finding: its preferred one, and an unsafe one only when allowed. */
export function preferredSourceFix(finding: UnitFinding, allowUnsafe = false): SourceFix | undefined {
  return finding.sourceFixes.find((f) => f.preferred && (allowUnsafe || !f.unsafe));
}

/** Which roots deploy a source file (a base several overlays share), for merging their findings. */
export type DeployersOf = (path: string) => string[];

/** A finding on what a unit renders, placed on its source file; its fixes are edits of source files. */
export interface UnitFinding extends Finding {
  rendered: { tool: 'helm' | 'kustomize'; unit: string };
  /** Computed when first read, like a finding's own fixes. */
  sourceFixes: SourceFix[];
  /** The rule's fixes no edit of the sources carries out, with why (computed with sourceFixes). */
  unwrittenFixes: UnwrittenFix[];
}

/** A fix of the rendered resource that the unit's files cannot be edited to make. */
export interface UnwrittenFix {
  title: string;
  reason: string;
}

/** The uri under which a unit's rendered stream is parsed; no file has it. */
export function renderedUri(unit: RenderedUnit): string {
  return `${unit.root}${sep}<rendered by ${unit.tool}>.yaml`;
}

/**
 * Analyses what a unit renders, with an inventory of the unit alone (plus the cluster), and places every
 * finding on the source line that wrote the field it is about.
 */
export function analyzeRenderedUnit(unit: RenderedUnit, options: UnitAnalysisOptions = {}): UnitFinding[] {
  return runSteps(analyzeRenderedUnitInSteps(unit, options)).findings;
}

/**
 * analyzeRenderedUnit, pausing after each rendered document it parses and each finding it places (a server
 * answers requests in between: the 1.9 MB argo-cd install rendered by a Kustomize root held them up for half
 * a second); with the parse of the rendered stream it analysed, for those who read the rendered resources.
 */
export function* analyzeRenderedUnitInSteps(unit: RenderedUnit, options: UnitAnalysisOptions = {}): Steps<{ findings: UnitFinding[]; file?: ManifestFile }> {
  const readText = options.readText ?? readSourceText;
  const lines = new Map<string, LineIndex | undefined>();
  const lineIndex = (path: string) => {
    if (!lines.has(path)) {
      const text = readText(path);
      lines.set(path, text === undefined ? undefined : new LineIndex(text));
    }
    return lines.get(path);
  };
  const findings: UnitFinding[] = [];
  const rendered = { tool: unit.tool, unit: unit.root };
  for (const problem of unit.problems) {
    findings.push(withSourceFixes({ ruleId: `${unit.tool}-render`, severity: problem.severity, message: problem.message, uri: problem.location.path, range: rangeAt(problem.location, lineIndex(problem.location.path)), resource: null, fixes: [], related: [], rendered }, NONE));
  }
  if (!unit.text.trim()) return { findings };
  const uri = renderedUri(unit);
  const file = yield* parseManifestInSteps(uri, unit.text, undefined, unit.namespace);
  unit.mapper.useRendered?.(file.documents.map((d) => d.parsed.value));
  const inventory = new Inventory();
  if (options.cluster) inventory.setCluster(options.cluster.resources);
  yield* inventory.setFileInSteps(file);
  const place = (range: Range, path: Path): SourceLocation[] => {
    const index = documentOf(file, range);
    return index === undefined ? [] : unit.mapper.locate(index, path);
  };
  // Document by document, pausing after each: a chart rendering thousands of resources held a server's requests for its whole analysis.
  const analysed = yield* new IncrementalAnalysis().analyzeInSteps(file, inventory, { severities: options.severities, cluster: options.cluster, rules: options.rules });
  for (const finding of analysed) {
    if (finding.uri !== uri || !finding.range) {
      findings.push(withSourceFixes({ ...finding, fixes: [], rendered }, NONE));
      continue;
    }
    const index = documentOf(file, finding.range);
    const path = finding.fieldPath ?? [];
    const locations = place(finding.range, path);
    const origin = index === undefined ? undefined : unit.mapper.origin?.(index, path);
    const message = origin ? `${finding.message} (from ${origin})` : finding.message;
    const related = finding.related.flatMap((r) =>
      r.uri === uri ? place(r.range, []).slice(0, 1).map((l) => ({ uri: l.path, range: rangeAt(l, lineIndex(l.path)), message: r.message })) : [r],
    );
    const sourceFixes = () => (index === undefined ? NONE() : translateFixes(unit, file, finding, index, options.readByOthers));
    for (const location of locations) {
      findings.push(withSourceFixes({ ...finding, message, ...(origin ? { origin } : {}), uri: location.path, range: rangeAt(location, lineIndex(location.path)), fixes: [], related, rendered }, sourceFixes));
    }
    yield;
  }
  return { findings, file };
}

/** The rendered document a range falls in (found by halving: a render of 20,000 documents was searched once a finding). */
function documentOf(file: ManifestFile, range: Range): number | undefined {
  const offset = file.lines.offset(range.start);
  const document = documentAt(file, offset);
  return document && offset <= document.offset + document.text.length ? document.index : undefined;
}

/** A source location as a range: its line from the first character written to the end (or what the mapper says). */
function rangeAt(location: SourceLocation, lines: LineIndex | undefined): Range {
  const text = lines ? lines.lineText(location.line) : '';
  const start = location.character ?? text.length - text.trimStart().length;
  const end = location.endCharacter ?? text.trimEnd().length;
  return { start: { line: location.line, character: start }, end: { line: location.line, character: Math.max(start, end) } };
}

/** The rendered finding's fixes as edits of the unit's sources, and why each of the others could not be written. */
function translateFixes(unit: RenderedUnit, rendered: ManifestFile, finding: Finding, index: number, readByOthers: UnitAnalysisOptions['readByOthers'] = () => []): TranslatedFixes {
  const translated: TranslatedFixes = { fixes: [], unwritten: [] };
  // Each fix is worked out on its whole document parsed again: a List of 1,000 items took 87 s.
  const items = rendered.documents[index]?.resources.length ?? 0;
  if (items > MAX_LIST_ITEMS_FIXED) {
    for (const fix of finding.fixes) translated.unwritten.push({ title: fix.title, reason: `it is an item of a List of ${items.toLocaleString('en')}, more than the ${MAX_LIST_ITEMS_FIXED} whose fixes are worked out one by one: render its items as documents of their own` });
    return translated;
  }
  for (const fix of finding.fixes) {
    const changes = fieldChanges(rendered, index, fix);
    if (!changes?.length) continue;
    let reason = 'it changes nothing the unit\'s files write';
    const edits = unit.mapper.translateFix(index, changes, (why) => (reason = why));
    if (!edits || (!edits.edits.length && !edits.creates.length)) {
      translated.unwritten.push({ title: fix.title, reason });
      continue;
    }
    // A values key another resource prints too, or a patch it takes too, changes that one as well: not what the fix was judged safe for.
    const others = edits.edits.flatMap((edit) => readByOthers(edit.path, unit.root).map((root) => ({ root, path: edit.path })));
    const unsafe = fix.unsafe ?? (edits.alsoChanges ? alsoChangesSaid(edits.alsoChanges) : others.length ? sharedFileSaid(others) : undefined);
    translated.fixes.push({ title: edits.title ? `${fix.title} (${edits.title})` : fix.title, preferred: fix.preferred, ...(unsafe ? { unsafe } : {}), edits });
  }
  return translated;
}

/** The most items a rendered List may hold for its findings' fixes to be written back into the unit's sources. */
const MAX_LIST_ITEMS_FIXED = 100;

interface TranslatedFixes {
  fixes: SourceFix[];
  unwritten: UnwrittenFix[];
}

/** A finding with no fix to translate (a render problem, a finding on the unit as a whole). */
const NONE = (): TranslatedFixes => ({ fixes: [], unwritten: [] });

/** A finding on a unit as a whole (a unit not rendered, say), with no source fix. */
export function unitFindingWithoutFixes(finding: Omit<UnitFinding, 'sourceFixes' | 'unwrittenFixes'>): UnitFinding {
  return withSourceFixes(finding, NONE);
}

const SOURCE_FIXES = new LazyProperty<SourceFix[]>('sourceFixes', false);
const UNWRITTEN_FIXES = new LazyProperty<UnwrittenFix[]>('unwrittenFixes', false);

/** Defines a finding's source fixes, and the fixes it could not write, both computed when one is first read. */
function withSourceFixes(finding: Omit<UnitFinding, 'sourceFixes' | 'unwrittenFixes'>, compute: () => TranslatedFixes): UnitFinding {
  let translated: TranslatedFixes | undefined;
  const once = () => (translated ??= compute());
  UNWRITTEN_FIXES.defineOnce(finding as UnitFinding, () => once().unwritten);
  return SOURCE_FIXES.defineOnce(finding as UnitFinding, () => once().fixes);
}

/**
 * One finding per source place: a base that several roots deploy holds one finding for each thing wrong with
 * it, naming the roots it holds for after its first sentence ("… Rendered in overlays/prod and overlays/staging."). A finding in a file outside its
 * root's folder names its root too, so that a base's finding says which deployment it is about.
 */
export function mergeUnitFindings(findings: UnitFinding[], baseFolder: string, deployersOf: DeployersOf = () => []): UnitFinding[] {
  const place = (f: UnitFinding) => `${f.ruleId}|${f.uri}|${f.range?.start.line}|${f.range?.start.character}`;
  const resource = (f: UnitFinding) => `${f.resource?.kind}/${f.resource?.namespace}/${f.resource?.name}`;
  // One root's findings at one place about different resources (a patch that targets every Deployment) stay
  // apart, numbered in the order of their names without what the root adds to them all (a prefix, a suffix); across
  // roots, those of one number are one finding.
  const number = new Map<UnitFinding, number>();
  for (const here of groupBy(findings, (f) => `${f.rendered.unit}|${place(f)}`).values()) {
    const byResource = groupBy(here, resource);
    const bare = withoutCommonAffixes([...byResource.keys()]);
    [...byResource.keys()].sort((a, b) => compareCodeUnits(bare.get(a)!, bare.get(b)!)).forEach((key, n) => byResource.get(key)!.forEach((f) => number.set(f, n)));
  }
  const groups = groupBy(findings, (finding) => `${place(finding)}|${number.get(finding)}`);
  // A root that is the folder itself is named by its own name ("Rendered in dev", not "Rendered in .").
  const name = (root: string) => shownWithin(baseFolder, root).split(sep).join('/');
  const inside = (f: UnitFinding) => !!f.uri && (f.uri.startsWith(f.rendered.unit + sep) || f.uri === f.rendered.unit);
  return [...groups.values()].map((group) => {
    const first = group[0];
    const roots = [...new Set(group.map((f) => f.rendered.unit))];
    if (roots.length === 1 && inside(first)) return withSourceFixes({ ...first }, () => editingOnlyTheirRoots({ fixes: first.sourceFixes, unwritten: first.unwrittenFixes }, roots, deployersOf, name));
    // Roots that deploy one base into different namespaces say the same thing but for the namespace.
    const withoutNamespace = (f: UnitFinding) => (f.resource?.namespace ? f.message.split(`${f.resource.namespace}/`).join('') : f.message);
    const sameButNamespace = new Set(group.map(withoutNamespace)).size === 1;
    const byMessage = new Map<string, string[]>();
    for (const f of group) {
      const text = sameButNamespace && roots.length > 1 ? withoutNamespace(f) : f.message;
      byMessage.set(text, [...new Set([...(byMessage.get(text) ?? []), name(f.rendered.unit)])]);
    }
    const message = mergedMessage([...byMessage]);
    const severity = group.map((f) => f.severity).sort((a, b) => RANK[b] - RANK[a])[0];
    const merged = { ...first, message, severity, fixes: [] };
    return withSourceFixes(merged, () => {
      // Else the fix of the first root that has one: the others' say why theirs is not written (below).
      const fixes = agreedBaseFix(group, roots, deployersOf) ?? eachRootsFix(group, roots) ?? (group.find((f) => f.sourceFixes.some((fix) => fix.preferred)) ?? first).sourceFixes;
      // What could not be written for each root, named by the root it is of.
      const unwritten = group.flatMap((f) => f.unwrittenFixes.map(({ title, reason }) => ({ title, reason: roots.length > 1 ? `in ${name(f.rendered.unit)}, ${reason}` : reason })));
      return editingOnlyTheirRoots({ fixes, unwritten: [...groupBy(unwritten, (u) => `${u.title}\n${u.reason}`).values()].map(([first]) => first) }, roots, deployersOf, name);
    });
  });
}

/**
 * The fixes that edit no file a root other than `roots` (those with the finding) deploys too: a base in one
 * root's folder that another root deploys as well, and ignores the rule for or sets otherwise, would render
 * otherwise there too. Those are not written, and say why.
 */
function editingOnlyTheirRoots({ fixes, unwritten }: TranslatedFixes, roots: string[], deployersOf: DeployersOf, name: (root: string) => string): TranslatedFixes {
  const kept: SourceFix[] = [];
  const refused: UnwrittenFix[] = [];
  for (const fix of fixes) {
    const shared = fix.edits.edits.map(({ path }) => ({ path, others: deployersOf(path).filter((root) => !roots.includes(root)) })).find(({ others }) => others.length);
    if (!shared) kept.push(fix);
    else refused.push({ title: fix.title, reason: `${name(shared.path)} is deployed by ${sentenceList(shared.others.map(name))} too, which has no such finding: the edit would change what ${shared.others.length > 1 ? 'they render' : 'it renders'}` });
  }
  return { fixes: kept, unwritten: [...unwritten, ...refused] };
}

/** Each text without the prefix and the suffix all of them share (`dev-a-v2`, `dev-a-b-v2` → `` and `-b`). */
function withoutCommonAffixes(texts: string[]): Map<string, string> {
  const common = (a: string, b: string) => {
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return a.slice(0, n);
  };
  const reversed = (text: string) => [...text].reverse().join('');
  const suffix = texts.length > 1 ? reversed(texts.map(reversed).reduce(common)) : '';
  const trimmed = texts.map((text) => text.slice(0, text.length - suffix.length));
  const prefix = texts.length > 1 ? trimmed.reduce(common) : '';
  return new Map(texts.map((text, i) => [text, trimmed[i].slice(prefix.length)]));
}

/**
 * One message for what several roots say of one line. When they agree, its first sentence stays first and
 * the roots follow; when they differ, the first root's sentence leads, named, and the others follow in full.
 */
function mergedMessage(byMessage: [string, string[]][]): string {
  const [[text, units], ...others] = byMessage;
  const { headline, details } = splitMessage(text);
  if (!others.length) return [headline, `Rendered in ${sentenceList(units)}.`, details].filter(Boolean).join(' ');
  return [`In ${sentenceList(units)}: ${headline}`, details, ...others.map(([other, where]) => `In ${sentenceList(where)}: ${other}`)].filter(Boolean).join(' ');
}

/**
 * A base shared by several roots is edited itself only when every root that deploys it reports the finding
 * and wants the same edit of the base; otherwise each root gets its own patch.
 */
function agreedBaseFix(group: UnitFinding[], roots: string[], deployersOf: DeployersOf): SourceFix[] | undefined {
  const deployers = group[0].uri ? deployersOf(group[0].uri) : [];
  if (roots.length < 2 || !deployers.length || !deployers.every((root) => roots.includes(root))) return undefined;
  const wanted = group.map((f) => f.sourceFixes.find((fix) => fix.preferred));
  const bases = wanted.map((fix) => fix?.edits.sharedBase);
  if (bases.some((b) => !b) || new Set(bases.map((b) => JSON.stringify(b))).size !== 1) return undefined;
  const title = wanted[0]!.title.replace(/ \(edit [^)]*\)$/, '');
  const unsafe = wanted.find((fix) => fix!.unsafe)?.unsafe;
  return [{ title: `${title} (${bases[0]!.title})`, preferred: true, ...(unsafe ? { unsafe } : {}), edits: bases[0]! }];
}

/**
 * One finding of several roots that deploy one base, each fixed in its own files (a patch or a PDB in each overlay):
 * every root's fix at once, where each has one and no two edit one file; the first root's alone fixed one of three.
 */
function eachRootsFix(group: UnitFinding[], roots: string[]): SourceFix[] | undefined {
  if (roots.length < 2) return undefined;
  const wanted = roots.map((root) => group.find((f) => f.rendered.unit === root)?.sourceFixes.find((fix) => fix.preferred));
  if (wanted.some((fix) => !fix)) return undefined;
  const fixes = wanted as SourceFix[];
  const files = fixes.flatMap((fix) => [...fix.edits.edits.map((e) => e.path), ...fix.edits.creates.map((c) => c.path)]);
  if (new Set(files).size !== files.length) return undefined;
  const unsafe = fixes.find((fix) => fix.unsafe)?.unsafe;
  const title = `${fixes[0].title.replace(/ \([^()]*\)$/, '')} (${fixes.map((fix) => fix.edits.title).filter(Boolean).join('; ')})`;
  const edits: SourceEdits = { edits: fixes.flatMap((fix) => fix.edits.edits), creates: fixes.flatMap((fix) => fix.edits.creates), title: fixes.map((fix) => fix.edits.title).join('; ') };
  return [{ title, preferred: true, ...(unsafe ? { unsafe } : {}), edits }, ...group[0].sourceFixes.filter((fix) => !fix.preferred)];
}

const RANK = { error: 3, warning: 2, info: 1, hint: 0 } as const;

