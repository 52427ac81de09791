import { getHeapStatistics } from 'node:v8';
import { groupBy } from '../grouped';
import type { Inventory } from '../inventory/inventory';
import { factOf } from '../manifest/facts';
import { documentAt, parseManifest, parseManifestInSteps, type ManifestDocument, type ManifestFile } from '../manifest/parse';
import { countLeading } from '../sorted';
import { runSteps, type Steps } from '../steps';
import { analyzeFile, ownFixesOf, type AnalyzeOptions } from '../rules/engine';
import type { Finding } from '../rules/types';
import { applyEdits, offsetAfterEdits, type EditRound, type Fix, type TextEdit } from './edit';

/**
 * The memory working out one document's fixes may take, with a margin: each round holds the file parsed and analysed
 * again beside the text before it. 3,000 documents took about 60 KB each in a heap of 150 MB (20,000 took 1.4 GB of
 * memory in all); a heap run to its limit aborts the process, so the bound is kept 1.5 times below that.
 */
const BYTES_PER_FIXED_DOCUMENT = 100_000;

/**
 * Why a file holds too many documents for its fixes to be worked out in this process's memory, or undefined: a 30 MB
 * file of 95,000 documents ran `--fix` out of memory (4.4 GB, and an abort with no word), where checking it took 2.5 GB.
 */
function tooLargeToFix(file: ManifestFile): string | undefined {
  const most = Math.floor(getHeapStatistics().heap_size_limit / BYTES_PER_FIXED_DOCUMENT);
  if (file.documents.length <= most) return undefined;
  return `it holds ${file.documents.length.toLocaleString('en-US')} documents, more than the ${most.toLocaleString('en-US')} whose fixes this process has the memory to work out at once: split it into files`;
}

/** The fix a "fix" keystroke or `--fix` applies: the rule's preferred one (never an ignore action), and an unsafe one only when allowed. */
export function preferredFix(finding: Finding, allowUnsafe = false): Fix | undefined {
  return ownFixesOf(finding).find((f) => f.preferred && (allowUnsafe || !f.unsafe)) ?? undefined;
}

/**
 * Whether `edits` make a document of the file stop parsing: a fix offered on its own (an editor's quick fix) is
 * checked as --fix and Fix all check theirs, on the documents it edits only.
 */
export function breaksParsing(file: ManifestFile, edits: readonly TextEdit[]): boolean {
  if (edits.length === 0) return false;
  const first = documentAt(file, Math.min(...edits.map((e) => e.start))) ?? file.documents[0];
  const last = documentAt(file, Math.max(...edits.map((e) => e.end))) ?? file.documents[file.documents.length - 1];
  if (!first || !last) return false;
  const from = first.offset;
  const after = applyEdits(file.text.slice(from, last.offset + last.text.length), edits.map((e) => ({ ...e, start: e.start - from, end: e.end - from })));
  return breaks(file.documents.slice(first.index, last.index + 1), parseManifest(file.uri, after).documents);
}

/** Whether documents after a fix have more that do not parse than before it, or a template where there was none: what no fix may do. */
function breaks(before: readonly ManifestDocument[], after: readonly ManifestDocument[]): boolean {
  const broken = (documents: readonly ManifestDocument[]) => documents.filter((d) => d.parsed.error).length;
  const templated = (documents: readonly ManifestDocument[]) => documents.some((d) => d.parsed.templateAt !== undefined);
  return broken(after) > broken(before) || (templated(after) && !templated(before));
}

/**
 * Whether more than one of `findings` of `ruleId` has a preferred fix: what makes a "fix all of this rule"
 * worth offering. Stops at the second, since asking writes the fix (a lightbulb in a 106k-line file asked
 * it of all 655 findings of a rule: 70–110 ms per request).
 */
export function severalFixable(findings: readonly Finding[], ruleId: string): boolean {
  let fixable = 0;
  for (const finding of findings) if (finding.ruleId === ruleId && preferredFix(finding) && ++fixable > 1) return true;
  return false;
}

/** How a whole-file fix runs: the analysis options, and whether unsafe fixes are applied too (`--unsafe-fixes`). */
export type FixOptions = AnalyzeOptions & { unsafeFixes?: boolean };

/**
 * Applies preferred fixes until none is left (or a fix stops making progress), re-analysing after
 * each round. A round applies several fixes at once when they touch no common text and change nothing
 * but their own resources' findings: one per rule in each YAML document, or else one per document;
 * otherwise one fix, since fixes of different findings may touch the same lines or answer the same
 * need (two PDBs for one set of pods).
 */
export function fixFile(
  uri: string,
  text: string,
  inventory: Inventory,
  options: FixOptions = {},
  accept: (finding: Finding) => boolean = () => true,
): FixedFile {
  return runSteps(fixFileInSteps(uri, text, inventory, options, accept));
}

export interface FixedFile {
  text: string;
  /** The parse of `text` the last round was checked on (what the inventory holds once the fixes are done). */
  file: ManifestFile;
  applied: string[];
  /** Findings left with a preferred fix that was tried and did not take them away (or broke the file): not applied. */
  notApplied: Finding[];
  /** The rounds of edits that made it, each with the text it edited (composeRounds makes them edits of the text given). */
  rounds: readonly EditRound[];
  /** Why no fix was worked out at all (see tooLargeToFix). */
  refused?: string;
}

type Analyze = (file: ManifestFile, inventory: Inventory, options: AnalyzeOptions) => Steps<Finding[]>;

function* analyzeAtOnce(file: ManifestFile, inventory: Inventory, options: AnalyzeOptions): Steps<Finding[]> {
  return analyzeFile(file, inventory, options);
}

/**
 * fixFile in steps: it pauses after each document it parses or analyses and after each fix it writes,
 * so a server can answer requests in between, or stop. `analyze` may be an incremental analysis in
 * steps, which redoes only what a round changed.
 */
export function* fixFileInSteps(
  uri: string,
  text: string,
  inventory: Inventory,
  options: FixOptions = {},
  accept: (finding: Finding) => boolean = () => true,
  analyze: Analyze = analyzeAtOnce,
): Steps<FixedFile> {
  const applied: string[] = [];
  const stuck = new Set<string>();
  // Texts already passed through: two fixes that undo each other must not loop.
  const seen = new Set<string>([text]);
  const known = inventory.getFile(uri);
  // The inventory's own parse of this very text (the editor's) is kept: its documents are analysed already.
  let current: Fixed = { text, file: known?.text === text ? known : yield* parseManifestInSteps(uri, text, known), findings: [], rounds: [] };
  const refused = tooLargeToFix(current.file);
  if (refused) return { text, file: current.file, applied: [], notApplied: [], rounds: [], refused };
  inventory.setFile(current.file);
  current.findings = (yield* analyze(current.file, inventory, options)).filter((f) => f.uri === uri);
  for (let round = 0; round < 500; round++) {
    // Each candidate with its fix, written now, while the inventory holds the text it is for: a batch tried
    // and refused analyses another text, after which a finding's fixes would be written for that one.
    const candidates = new Map<Finding, Fix>();
    for (const finding of current.findings) {
      if (!accept(finding) || stuck.has(signature(finding))) continue;
      const fix = preferredFix(finding, options.unsafeFixes);
      if (fix) candidates.set(finding, fix);
      yield;
    }
    if (candidates.size === 0) break;
    const together = yield* tryBatches(uri, current, candidates, inventory, options, seen, analyze);
    if (together) {
      for (const finding of together.batch) applied.push(finding.ruleId);
      current = together.fixed;
      continue;
    }
    const next = candidates.keys().next().value!;
    const fixed = yield* tryTogether(uri, current, [next], candidates, inventory, options, seen, analyze, true);
    if (!fixed) {
      stuck.add(signature(next));
      continue;
    }
    applied.push(next.ruleId);
    current = fixed;
  }
  inventory.setFile(current.file);
  const notApplied = current.findings.filter((f) => stuck.has(signature(f)));
  return { text: current.text, file: current.file, applied, notApplied, rounds: current.rounds };
}

/** A text with its parse and its findings in this file, found with the inventory holding that parse. */
interface Fixed {
  text: string;
  file: ManifestFile;
  findings: Finding[];
  /** The rounds of edits that made this text. */
  rounds: readonly EditRound[];
}

/**
 * Several fixes at once: first one per rule in each document, then, when that breaks something, one per
 * document (the fixes of one resource may answer the same need). Undefined when neither holds more than
 * one fix or neither passes.
 */
function* tryBatches(
  uri: string,
  current: Fixed,
  candidates: Map<Finding, Fix>,
  inventory: Inventory,
  options: FixOptions,
  seen: Set<string>,
  analyze: Analyze,
): Steps<{ batch: Finding[]; fixed: Fixed } | undefined> {
  let tried: Finding[] = [];
  for (const perDocument of ['one per rule', 'one'] as const) {
    const batch = independent(candidates, current.file, perDocument);
    yield;
    if (batch.length < 2 || sameFindings(batch, tried)) continue;
    tried = batch;
    const fixed = yield* tryTogether(uri, current, batch, candidates, inventory, options, seen, analyze);
    if (fixed) return { batch, fixed };
  }
  return undefined;
}

/**
 * Findings whose fixes neither overlap nor touch: at most one per rule, or one in all, for each resource (a
 * document's, or each item of a List: one per List made a List of 2,000 Deployments take 2,000 rounds).
 */
function independent(candidates: Map<Finding, Fix>, file: ManifestFile, perDocument: 'one per rule' | 'one'): Finding[] {
  const taken = new Set<string>();
  const edits = new TakenRanges();
  // The texts the fixes chosen copy (see Fix.copies), kept as edits are.
  const copied = new TakenRanges();
  const chosen: Finding[] = [];
  for (const [finding, fix] of candidates) {
    if (!finding.range) continue;
    const document = documentAt(file, file.lines.offset(finding.range.start))?.index ?? 0;
    const { kind, namespace, name } = finding.resource ?? {};
    const where = `${document}|${kind}/${namespace}/${name}`;
    const key = perDocument === 'one' ? where : `${where}|${finding.ruleId}`;
    if (taken.has(key) || fix.edits.some((e) => edits.touches(e, where) || copied.touches(e, where))) continue;
    if (fix.copies?.some((c) => edits.touches({ ...c, text: '' }, where))) continue;
    taken.add(key);
    for (const edit of fix.edits) edits.add(edit, where);
    for (const copy of fix.copies ?? []) copied.add({ ...copy, text: '' }, where);
    chosen.push(finding);
  }
  return chosen;
}

/** The text ranges of the edits chosen so far, in order (thousands in a round of a large file). */
class TakenRanges {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** For each offset with insertions taken, the resources whose documents they append, or false when one inserts anything else. */
  private readonly appendsFor = new Map<number, Set<string> | false>();

  /**
   * Whether `edit` (of the resource at `where`) overlaps or touches a range taken. New documents appended
   * at one place for different resources do not touch (the PDBs of a List's items all go after the List:
   * one a round made 2,000 rounds); two for one resource do (two rules' PDBs for one workload).
   */
  touches(edit: TextEdit, where: string): boolean {
    const i = this.firstEndingFrom(edit.start);
    if (i >= this.ends.length || this.starts[i] > edit.end) return false;
    const appends = this.appendsFor.get(edit.start);
    return !(isAppend(edit) && appends && !appends.has(where) && this.onlyInsertionsAt(edit.start, i));
  }

  add(edit: TextEdit, where: string): void {
    const i = this.firstEndingFrom(edit.start);
    this.starts.splice(i, 0, edit.start);
    this.ends.splice(i, 0, edit.end);
    if (edit.start !== edit.end) return;
    const appends = this.appendsFor.get(edit.start) ?? new Set<string>();
    this.appendsFor.set(edit.start, appends && isAppend(edit) ? appends.add(where) : false);
  }

  /** Whether every range taken that reaches `offset` from index `i` on is an insertion there. */
  private onlyInsertionsAt(offset: number, i: number): boolean {
    for (; i < this.ends.length && this.starts[i] <= offset; i++) if (this.starts[i] !== offset || this.ends[i] !== offset) return false;
    return true;
  }

  private firstEndingFrom(offset: number): number {
    return countLeading(this.ends.length, (i) => this.ends[i] < offset);
  }
}

/** An insertion of whole documents (appendDocument's `---` and what follows). */
function isAppend(edit: TextEdit): boolean {
  return edit.start === edit.end && /^(\r?\n)?---(\r?\n)/.test(edit.text);
}

function sameFindings(a: Finding[], b: Finding[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

/**
 * The text with the fixes of `batch` applied, or undefined when that breaks a document, leaves one of
 * their findings in place, or (for more than one fix, unless `alone`) brings a finding about a
 * resource none of them fixed.
 */
function* tryTogether(
  uri: string,
  current: Fixed,
  batch: Finding[],
  fixOf: Map<Finding, Fix>,
  inventory: Inventory,
  options: FixOptions,
  seen: Set<string>,
  analyze: Analyze,
  alone = false,
): Steps<Fixed | undefined> {
  const { file } = current;
  const fixes = batch.map((f) => fixOf.get(f)!);
  const edits = fixes.flatMap((fix) => fix.edits);
  const fixed = applyEdits(current.text, edits);
  if (seen.has(fixed)) return undefined;
  yield;
  const reparsed = yield* parseManifestInSteps(uri, fixed, file);
  // A fix that would break the file, or that leaves its finding in place, is not applied.
  if (breaks(file.documents, reparsed.documents)) return undefined;
  yield* inventory.setFileInSteps(reparsed);
  const after = (yield* analyze(reparsed, inventory, options)).filter((f) => f.uri === uri);
  // Fixes are computed on demand against the inventory: asked while it holds the text they are for.
  const fixedSignatures = new Set(batch.map(signature));
  const moved = offsetAfterEdits(edits);
  const afterByRule = groupBy(after, (f) => `${f.ruleId}|${subject(f)}`);
  let rejected = after.some((f) => fixedSignatures.has(signature(f)));
  for (let i = 0; i < batch.length && !rejected; i++) {
    const f = batch[i];
    rejected = survives(f, fixes[i].title, f.range ? moved(file.lines.offset(f.range.start)) : undefined, afterByRule.get(`${f.ruleId}|${subject(f)}`) ?? [], reparsed);
    // Telling whether a finding survived may write the fixes of those found after it: a server answers in between.
    yield;
  }
  if (!rejected && !alone) {
    const earlier = new Set(current.findings.map(signature));
    const subjects = new Set(batch.map(subject));
    rejected = after.some((f) => !earlier.has(signature(f)) && !subjects.has(subject(f)));
  }
  if (rejected) {
    inventory.setFile(file);
    return undefined;
  }
  seen.add(fixed);
  return { text: fixed, file: reparsed, findings: after, rounds: [...current.rounds, { text: current.text, edits }] };
}

/**
 * Whether `finding` is still there after its own fix, under another message: same rule, same
 * resource (`sameRule` holds those findings after the fix), same place (`place`, where its start is
 * now), and the same fix offered again. Its message may have grown (a spread term whose labels the
 * pods do not carry is listed once more each time), so comparing messages alone would apply such a
 * fix again and again.
 */
function survives(finding: Finding, fixTitle: string, place: number | undefined, sameRule: Finding[], reparsed: ManifestFile): boolean {
  // The place first: a finding's fixes may have to be written to be read.
  return sameRule.some(
    (f) => (f.range && place !== undefined ? reparsed.lines.offset(f.range.start) === place : !f.range && !finding.range) && ownFixesOf(f).some((x) => x.title === fixTitle),
  );
}


/** The resource a finding is about, as one text (kind, namespace, name). */
export function subject(finding: Finding): string {
  return `${finding.resource?.kind}|${finding.resource?.namespace}|${finding.resource?.name}`;
}

/** Once per finding: each round asks it of every finding several times (3,600 on the 106k-line file). */
function signature(finding: Finding): string {
  return factOf(signatures, finding, () => `${subject(finding)}|${finding.ruleId}|${finding.message}`);
}

const signatures = new WeakMap<Finding, string>();
