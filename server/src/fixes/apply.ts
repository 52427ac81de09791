import type { Inventory } from '../inventory/inventory';
import { parseManifest, type ManifestFile } from '../manifest/parse';
import { analyzeFile, type AnalyzeOptions } from '../rules/engine';
import type { Finding } from '../rules/types';
import { applyEdits, type Fix, type TextEdit } from './edit';

/** The fix a "fix" keystroke or `--fix` applies: the preferred one, never an ignore, and an unsafe one only when allowed. */
export function preferredFix(finding: Finding, allowUnsafe = false): Fix | undefined {
  return finding.fixes.find((f) => f.preferred && (allowUnsafe || !f.unsafe)) ?? undefined;
}

/** How a whole-file fix runs: the analysis options, and whether unsafe fixes are applied too (`--unsafe-fixes`). */
export type FixOptions = AnalyzeOptions & { unsafeFixes?: boolean };

/**
 * Applies preferred fixes until none is left (or a fix stops making progress), re-analysing after
 * each round. A round applies one fix per YAML document at once when they touch no common text and
 * change nothing but their own resources' findings; otherwise one fix, since fixes of different
 * findings may touch the same lines or answer the same need (two PDBs for one set of pods).
 */
export function fixFile(
  uri: string,
  text: string,
  inventory: Inventory,
  options: FixOptions = {},
  accept: (finding: Finding) => boolean = () => true,
): FixedFile {
  const steps = fixFileInSteps(uri, text, inventory, options, accept);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface FixedFile {
  text: string;
  applied: string[];
}

type Analyze = (file: ManifestFile, inventory: Inventory, options: AnalyzeOptions) => Finding[];

/**
 * fixFile one round at a time: it yields after each round, so a server can answer requests between
 * rounds, or stop. `analyze` may be an incremental analysis, which redoes only what a round changed.
 */
export function* fixFileInSteps(
  uri: string,
  text: string,
  inventory: Inventory,
  options: FixOptions = {},
  accept: (finding: Finding) => boolean = () => true,
  analyze: Analyze = analyzeFile,
): Generator<void, FixedFile> {
  const applied: string[] = [];
  const stuck = new Set<string>();
  // Texts already passed through: two fixes that undo each other must not loop.
  const seen = new Set<string>([text]);
  let current = text;
  for (let round = 0; round < 500; round++) {
    if (round > 0) yield;
    const file = parseManifest(uri, current, inventory.getFile(uri));
    inventory.setFile(file);
    const all = analyze(file, inventory, options).filter((f) => f.uri === uri);
    const candidates = all.filter((f) => accept(f) && preferredFix(f, options.unsafeFixes) && !stuck.has(signature(f)));
    if (candidates.length === 0) break;
    const batch = independent(candidates, file, options);
    const together = batch.length > 1 ? tryTogether(uri, current, file, all, batch, inventory, options, seen, analyze) : undefined;
    if (together) {
      applied.push(...batch.map((f) => f.ruleId));
      current = together;
      continue;
    }
    const next = candidates[0];
    const fixed = tryTogether(uri, current, file, all, [next], inventory, options, seen, analyze, true);
    if (!fixed) {
      stuck.add(signature(next));
      continue;
    }
    applied.push(next.ruleId);
    current = fixed;
  }
  inventory.setFile(parseManifest(uri, current, inventory.getFile(uri)));
  return { text: current, applied };
}

/** At most one finding per document, whose fix's edits neither overlap nor touch those of the others. */
function independent(candidates: Finding[], file: ManifestFile, options: FixOptions): Finding[] {
  const documents = new Set<number>();
  const taken: TextEdit[] = [];
  const chosen: Finding[] = [];
  for (const finding of candidates) {
    if (!finding.range) continue;
    const document = documentAt(file, file.lines.offset(finding.range.start));
    const edits = preferredFix(finding, options.unsafeFixes)!.edits;
    if (documents.has(document) || edits.some((e) => taken.some((t) => e.start <= t.end && t.start <= e.end))) continue;
    documents.add(document);
    taken.push(...edits);
    chosen.push(finding);
  }
  return chosen;
}

function documentAt(file: ManifestFile, offset: number): number {
  let index = 0;
  for (const document of file.documents) if (document.offset <= offset) index = document.index;
  return index;
}

/**
 * The text with the fixes of `batch` applied, or undefined when that breaks a document, leaves one of
 * their findings in place, or (for more than one fix, unless `alone`) brings a finding about a
 * resource none of them fixed.
 */
function tryTogether(
  uri: string,
  current: string,
  file: ManifestFile,
  before: Finding[],
  batch: Finding[],
  inventory: Inventory,
  options: FixOptions,
  seen: Set<string>,
  analyze: Analyze,
  alone = false,
): string | undefined {
  const fixes = batch.map((f) => preferredFix(f, options.unsafeFixes)!);
  const fixed = applyEdits(current, fixes.flatMap((fix) => fix.edits));
  if (seen.has(fixed)) return undefined;
  const reparsed = parseManifest(uri, fixed, file);
  // A fix that would break the file, or that leaves its finding in place, is not applied.
  if (brokenDocuments(reparsed) > brokenDocuments(file) || (reparsed.templateAt !== undefined && file.templateAt === undefined)) return undefined;
  inventory.setFile(reparsed);
  const after = analyze(reparsed, inventory, options);
  // Fixes are computed on demand against the inventory: asked while it still holds the fixed text.
  const survived = batch.some((f, i) => survives(f, fixes[i], file, after.filter((a) => a.uri === uri), reparsed));
  inventory.setFile(file);
  const fixedSignatures = new Set(batch.map(signature));
  if (after.some((f) => fixedSignatures.has(signature(f)))) return undefined;
  if (survived) return undefined;
  if (!alone) {
    const earlier = new Set(before.map(signature));
    const subjects = new Set(batch.map(subject));
    if (after.some((f) => f.uri === uri && !earlier.has(signature(f)) && !subjects.has(subject(f)))) return undefined;
  }
  seen.add(fixed);
  return fixed;
}

/**
 * Whether `finding` is still there after its own fix, under another message: same rule, same
 * resource, same place, and the same fix offered again. Its message may have grown (a spread term
 * whose labels the pods do not carry is listed once more each time), so comparing messages alone
 * would apply such a fix again and again.
 */
function survives(finding: Finding, fix: Fix, before: ManifestFile, after: Finding[], reparsed: ManifestFile): boolean {
  const place = finding.range ? shiftedOffset(before.lines.offset(finding.range.start), fix.edits) : undefined;
  return after.some(
    (f) =>
      f.ruleId === finding.ruleId &&
      subject(f) === subject(finding) &&
      f.fixes.some((x) => x.title === fix.title) &&
      (f.range && place !== undefined ? reparsed.lines.offset(f.range.start) === place : !f.range && !finding.range),
  );
}

/** Where the text at `offset` is after `edits`; undefined when an edit replaced it. */
function shiftedOffset(offset: number, edits: readonly TextEdit[]): number | undefined {
  let shifted = offset;
  for (const edit of edits) {
    if (edit.start < offset && offset < edit.end) return undefined;
    if (edit.end <= offset) shifted += edit.text.length - (edit.end - edit.start);
  }
  return shifted;
}

function brokenDocuments(file: ManifestFile): number {
  return file.documents.filter((d) => d.parsed.error).length;
}

function subject(finding: Finding): string {
  return `${finding.resource?.kind}|${finding.resource?.namespace}|${finding.resource?.name}`;
}

function signature(finding: Finding): string {
  return `${subject(finding)}|${finding.ruleId}|${finding.message}`;
}
