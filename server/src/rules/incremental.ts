import type { Inventory } from '../inventory/inventory';
import type { Reads } from '../inventory/reads';
import { documentAt, type ManifestDocument, type ManifestFile, type ParsedChunk } from '../manifest/parse';
import type { Range } from '../manifest/text';
import { analyzeDocuments, analyzeFile, compareFindings, FIXES, type AnalyzeOptions, type FixesPart } from './engine';
import type { Finding } from './types';
import { RULES } from './index';
import { countLeading } from '../sorted';
import { flattened } from '../flattened';
import { unchangedEnds } from '../unchanged-ends';
import { runSteps, type Steps } from '../steps';

const REUSED_PER_STEP = 500;

/** A document's findings, where they were computed and what they asked of the inventory. */
interface Entry {
  findings: Finding[];
  /** The document's first line when they were computed. */
  line: number;
  /**
   * Its place in the file then, when a finding's message counts documents ("Document 3 does not parse"):
   * other entries hold wherever a document added above moves them.
   */
  index: number | undefined;
  reads: Reads;
  /** The other files its related locations point into, as they were: they go stale when one of them changes. */
  relatedFiles: Map<string, ManifestFile | undefined>;
}

interface FileState {
  file: ManifestFile;
  inventory: Inventory;
  options: AnalyzeOptions;
  /** Each document's entry, in the file's order. */
  entries: Entry[];
  /** The first line of each document, in order. */
  lines: number[];
  /** The first lines of the documents with each parse (the same text twice may give one parse), computed when a document moved. */
  places?: Map<ParsedChunk, number[]>;
  /** Documents analysed anew for the fixes of findings reused from an earlier file (see currentFixes). */
  fresh?: Map<ManifestDocument, { findings: Finding[]; reads: Reads }>;
}

/**
 * The findings of a file after an edit, redoing only what the edit can change: a document whose text
 * changed, and a document whose analysis asked the inventory about a group of resources that changed
 * (the PDBs of its namespace, the Deployments an HPA may target, …). Everything else is reused, its
 * ranges moved when lines were added or removed above it. The result equals `analyzeFile`.
 */
export class IncrementalAnalysis {
  private readonly files = new Map<string, FileState>();
  /** How many documents were analysed (not reused) since the start: what an edit cost. */
  analysedDocuments = 0;

  analyze(file: ManifestFile, inventory: Inventory, options: AnalyzeOptions = {}): Finding[] {
    return runSteps(this.analyzeInSteps(file, inventory, options));
  }

  /**
   * analyze, pausing after each document it analyses anew. Nothing may change the inventory or the file
   * until the steps end.
   */
  *analyzeInSteps(file: ManifestFile, inventory: Inventory, options: AnalyzeOptions = {}): Steps<Finding[]> {
    const previous = this.files.get(file.uri);
    const comparable = previous && previous.inventory === inventory && sameOptions(previous.options, options) && previous.file.looksLikeKubernetes === file.looksLikeKubernetes;
    if (file.templateAt !== undefined || file.clusterSnapshot) {
      this.files.delete(file.uri);
      return analyzeFile(file, inventory, options);
    }
    const earlier = comparable ? new EarlierEntries(previous, file) : undefined;
    const lines = earlier ? earlier.lines() : file.documents.map((d) => file.lines.lineOf(d.offset));
    const state: FileState = { file, inventory, options, entries: [], lines };
    // Related locations in other documents of the file move with those documents.
    const linesMoved = !!comparable && (lines.length !== previous.lines.length || lines.some((line, i) => line !== previous.lines[i]));
    for (let i = 0; i < file.documents.length; ) {
      // Reusing (or moving) thousands of entries takes a while too: a server answers requests in between.
      const pause = Math.min(file.documents.length, (Math.floor(i / REUSED_PER_STEP) + 1) * REUSED_PER_STEP);
      if (earlier) i = this.keptEntries(earlier, state, previous!, linesMoved, i, pause);
      if (i < pause) {
        state.entries.push(this.analyseDocument(file, file.documents[i], lines[i], inventory, options));
        i++;
      } else if (i === file.documents.length) break;
      yield;
    }
    this.files.set(file.uri, state);
    return flattened(state.entries, (entry) => entry.findings).sort(compareFindings);
  }

  /**
   * Adds the entries the documents from `from` on keep, up to `end` or the first that keeps none; returns
   * where it stopped. A function of its own, outside the generator: V8 optimises a long loop while it runs
   * only in a plain function (on-stack replacement), and a keystroke walks thousands of kept entries.
   */
  private keptEntries(earlier: EarlierEntries, state: FileState, previous: FileState, linesMoved: boolean, from: number, end: number): number {
    let i = from;
    for (; i < end; i++) {
      const entry = this.keptEntry(earlier, i, state, previous, linesMoved);
      if (!entry) break;
      state.entries.push(entry);
    }
    return i;
  }

  /** The earlier entry the document at `i` keeps (moved with it when its lines moved), if nothing it read changed. */
  private keptEntry(earlier: EarlierEntries, i: number, state: FileState, previous: FileState, linesMoved: boolean): Entry | undefined {
    const { file, inventory, lines } = state;
    const entry = earlier.find(i);
    if (!entry || (entry.index !== undefined && entry.index !== file.documents[i].index) || !inventory.unchangedSince(entry.reads) || !relatedFilesUnchanged(entry, inventory)) return undefined;
    if (entry.line === lines[i] && !(linesMoved && entry.findings.some((f) => f.related.some((r) => r.uri === file.uri)))) return entry;
    return moved(entry, lines[i], file.uri, previous, state, this.currentFixes(file.uri));
  }

  /**
   * An analysis that starts from this one's state of a file, for work on a scratch copy of the inventory
   * (Fix all tries its edits there): what this one analysed, and the copy did not change, is reused. The
   * copy's read log must go on from this inventory's (Inventory.scratch does that).
   */
  forkFor(uri: string, scratch: Inventory): IncrementalAnalysis {
    const fork = new IncrementalAnalysis();
    const state = this.files.get(uri);
    if (!state) return fork;
    // A reused finding's own fixes are edits of this state's file, as long as this analysis stays at it:
    // the fork keeps them while it is at that file too, and computes them again on its own file otherwise.
    const start = state.file;
    const refresh = fork.currentFixes(uri);
    const ownFinding = (finding: Finding): Finding => {
      const copy = withoutFixes(finding);
      keepFixesCurrent(copy, (part) => (fork.files.get(uri)?.file === start && this.files.get(uri)?.file === start ? undefined : refresh(copy, part)), FIXES.readerOf(finding, []));
      return copy;
    };
    const entries = state.entries.map((entry) => ({ ...entry, reads: entry.reads.copy(), findings: entry.findings.map(ownFinding) }));
    fork.files.set(uri, { ...state, inventory: scratch, entries, fresh: undefined });
    return fork;
  }

  /** Forgets a file (closed, or analysed on its own from now on). */
  forget(uri: string): void {
    this.files.delete(uri);
  }

  private analyseDocument(file: ManifestFile, document: ManifestDocument, line: number, inventory: Inventory, options: AnalyzeOptions): Entry {
    this.analysedDocuments++;
    const { result, reads } = analysedWithReads(file, document, inventory, options);
    const refresh = this.currentFixes(file.uri);
    // Fixes are text edits of the file they were computed on; once the file has changed they are computed again.
    for (const finding of result) keepFixesCurrent(finding, (part) => (this.files.get(file.uri)?.file === file ? undefined : refresh(finding, part)));
    const relatedFiles = new Map<string, ManifestFile | undefined>();
    for (const finding of result) for (const r of finding.related) if (r.uri !== file.uri) relatedFiles.set(r.uri, inventory.getFile(r.uri));
    return { findings: result, line, index: countsDocuments(result, options) ? document.index : undefined, reads, relatedFiles };
  }

  /** The fixes of a finding computed again on the file as it is now (its document analysed anew). */
  private currentFixes(uri: string): Refresh {
    return (finding, part) => {
      const state = this.files.get(uri);
      if (!state || !finding.range) return [];
      const offset = state.file.lines.offset(finding.range.start);
      const document = documentAt(state.file, offset);
      if (!document) return [];
      const same = this.freshFindings(state, document).find((f) => f.ruleId === finding.ruleId && f.message === finding.message && sameStart(f.range, finding.range));
      return same ? FIXES.readPart(same, part) : [];
    };
  }

  /**
   * A document's findings analysed anew on the file as it is now, kept while neither the file nor what
   * they read changes: each of its findings asks for its fixes, and asks again (Fix all asks in every round).
   */
  private freshFindings(state: FileState, document: ManifestDocument): Finding[] {
    const { file, inventory, options } = state;
    const fresh = (state.fresh ??= new Map());
    const kept = fresh.get(document);
    if (kept && inventory.unchangedSince(kept.reads)) return kept.findings;
    const { result, reads } = analysedWithReads(file, document, inventory, options);
    fresh.set(document, { findings: result, reads });
    return result;
  }
}

/**
 * The entries of an earlier analysis of the file that its documents now may keep: those of the documents
 * an edit left in place at the start and at the end, and between them those of the same text (parse).
 */
class EarlierEntries {
  private readonly head: number;
  private readonly tail: number;
  private middle: Map<ParsedChunk, number[]> | undefined;

  constructor(
    private readonly previous: FileState,
    private readonly file: ManifestFile,
  ) {
    ({ head: this.head, tail: this.tail } = unchangedEnds(previous.file.documents, file.documents, (a, b) => a.parsed === b.parsed));
  }

  /**
   * The first line of each document: those the edit left in place at the start where they were, those at
   * the end moved by the lines it added, and only the others looked up (a lookup for each of the 5,890
   * documents of the 106k-line file was 0.8 ms of every keystroke).
   */
  lines(): number[] {
    const { file, head } = this;
    const before = this.previous.lines;
    const added = file.lines.lineCount - this.previous.file.lines.lineCount;
    const lines: number[] = [];
    for (let i = 0; i < file.documents.length; i++) {
      const at = this.placeBefore(i);
      lines.push(at === undefined ? file.lines.lineOf(file.documents[i].offset) : before[at] + (i < head ? 0 : added));
    }
    return lines;
  }

  /** The entry the document at `index` may keep. */
  find(index: number): Entry | undefined {
    const { entries, file: previous } = this.previous;
    const place = this.placeBefore(index);
    if (place !== undefined) return entries[place];
    this.middle ??= indexesByParse(previous.documents.slice(this.head, previous.documents.length - this.tail));
    const at = this.middle.get(this.file.documents[index].parsed)?.shift();
    return at === undefined ? undefined : entries[this.head + at];
  }

  /** Where the document at `index` was in the earlier file, when the edit left it in place at either end. */
  private placeBefore(index: number): number | undefined {
    const count = this.file.documents.length;
    if (index < this.head) return index;
    if (index >= count - this.tail) return index - (count - this.previous.file.documents.length);
    return undefined;
  }
}

/** A document's findings, with what they asked the inventory. */
function analysedWithReads(file: ManifestFile, document: ManifestDocument, inventory: Inventory, options: AnalyzeOptions): { result: Finding[]; reads: Reads } {
  return inventory.recordReads(() => analyzeDocuments(file, [document], inventory, options));
}

/** Whether a finding's message counts the file's documents (its rule says so). */
function countsDocuments(findings: readonly Finding[], options: AnalyzeOptions): boolean {
  const rules = options.rules ?? RULES;
  return findings.some((f) => rules.find((r) => r.meta.id === f.ruleId)?.meta.countsDocuments);
}

function relatedFilesUnchanged(entry: Entry, inventory: Inventory): boolean {
  // Most entries point into no other file: those need no iterator, asked of every document after each keystroke.
  if (entry.relatedFiles.size === 0) return true;
  for (const [uri, file] of entry.relatedFiles) if (inventory.getFile(uri) !== file) return false;
  return true;
}

function sameOptions(a: AnalyzeOptions, b: AnalyzeOptions): boolean {
  return a.cluster === b.cluster && a.rules === b.rules && JSON.stringify(a.severities ?? {}) === JSON.stringify(b.severities ?? {});
}

function sameStart(a: Range | null, b: Range | null): boolean {
  return !!a && !!b && a.start.line === b.start.line && a.start.character === b.start.character;
}

/** A finding's fixes (or the part asked for) computed again on the file as it is now. */
type Refresh = (finding: Finding, part?: FixesPart) => Finding['fixes'];

/**
 * Replaces a finding's fixes (or the part asked for) by what `current` gives whenever it gives an answer
 * (the file changed since), and by what `original` gives otherwise.
 */
function keepFixesCurrent(finding: Finding, current: (part?: FixesPart) => Finding['fixes'] | undefined, original = FIXES.readerOf(finding, [])): void {
  FIXES.define(finding, (part) => current(part) ?? original(part));
}

/** A finding's fields but its fixes, which are not read (copying its property descriptors took 25 ms for 3,600 findings). */
function withoutFixes(finding: Finding): Finding {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(finding)) if (key !== FIXES.name) copy[key] = finding[key as keyof Finding];
  return copy as unknown as Finding;
}

/**
 * An entry of a document that moved (lines added or removed above it): its ranges moved with it, and
 * so did its related locations in the same file, each by how far its own document moved. Undefined
 * when a related location cannot be followed (its document is gone).
 */
function moved(entry: Entry, line: number, uri: string, previous: FileState, current: FileState, refresh: Refresh): Entry | undefined {
  const shiftOf = (oldLine: number): number | undefined => {
    const index = lastAtOrBefore(previous.lines, oldLine);
    if (index < 0) return undefined;
    const document = previous.file.documents[index];
    const at = placesOf(current).get(document.parsed);
    // A text that occurs once in both files moved as a whole; anything else is recomputed.
    if (at?.length !== 1 || placesOf(previous).get(document.parsed)?.length !== 1) return undefined;
    return at[0] - previous.lines[index];
  };
  const findings: Finding[] = [];
  for (const finding of entry.findings) {
    const related = [];
    for (const r of finding.related) {
      if (r.uri !== uri) {
        related.push(r);
        continue;
      }
      const shift = shiftOf(r.range.start.line);
      if (shift === undefined) return undefined;
      related.push({ ...r, range: shiftRange(r.range, shift) });
    }
    const shift = finding.range && finding.uri === uri ? shiftOf(finding.range.start.line) : 0;
    if (shift === undefined) return undefined;
    // Every field but the fixes (a field path too: a chart's fix is placed by it), moved.
    const copy = withoutFixes(finding);
    copy.range = finding.range && shiftRange(finding.range, shift);
    copy.related = related;
    keepFixesCurrent(copy, (part) => refresh(copy, part));
    findings.push(copy);
  }
  return { ...entry, findings, line };
}

function placesOf(state: FileState): Map<ParsedChunk, number[]> {
  return (state.places ??= new Map([...indexesByParse(state.file.documents)].map(([parsed, at]) => [parsed, at.map((i) => state.lines[i])])));
}

/** Where each parse (each document text) is in a file's documents. */
function indexesByParse(documents: readonly ManifestDocument[]): Map<ParsedChunk, number[]> {
  const places = new Map<ParsedChunk, number[]>();
  documents.forEach((d, i) => {
    const at = places.get(d.parsed);
    if (at) at.push(i);
    else places.set(d.parsed, [i]);
  });
  return places;
}

function shiftRange(range: Range, lines: number): Range {
  return { start: { line: range.start.line + lines, character: range.start.character }, end: { line: range.end.line + lines, character: range.end.character } };
}

function lastAtOrBefore(sorted: number[], value: number): number {
  return countLeading(sorted.length, (i) => sorted[i] <= value) - 1;
}
