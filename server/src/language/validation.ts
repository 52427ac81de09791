import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import { changeInsideIgnoredDocument } from '../manifest/ignored-edit';
import { parseManifestAfterChangesInSteps, parseManifestInSteps, sameText, type ManifestFile } from '../manifest/parse';
import { combinedChange } from '../manifest/split';
import { changeBetween, type TextChange } from '../manifest/text';
import { IncrementalAnalysis } from '../rules/incremental';
import type { Finding, SeverityOverride } from '../rules/types';
import { runSteps, type Steps } from '../steps';
import { toDiagnostic } from './convert';
import { describeError, perDocument } from './guard';
import type { OpenDocument } from './open-document';
import { diagnosticsReusing, notShownDiagnostic, shownFindings, type Published } from './published-diagnostics';
import { inSlices, SlicedWork } from './sliced-work';
import { editorUnits } from './units';

export interface ValidationHost {
  connection: Connection;
  documents: TextDocuments<OpenDocument>;
  inventory: Inventory;
  enabled(): boolean;
  severities(): Record<string, SeverityOverride>;
  cluster(): ClusterInfo | undefined;
  isManifest(uri: string): boolean;
  /** The key of the same file as read from disk, which an open document replaces in the inventory. */
  diskUri(uri: string): string;
  docsHref(ruleId: string): string | undefined;
  /** Called after each validation (the server may collect garbage once it is idle). */
  worked(): void;
}

/** The longest wait after a keystroke before validating; cheaper analyses wait as long as they last. */
const MAX_DEBOUNCE_MS = 150;

/** How long typing inside a huge document no rule reads must pause before that document is parsed again. */
const IGNORED_EDIT_PARSE_MS = 500;

/**
 * How much text an open, or an edit, must span for its validation to run in slices with requests answered
 * in between: about 50 ms of parsing and analysis. A keystroke is validated at once.
 */
const SLICED_CHARACTERS = 256 * 1024;

/** A validation running in slices: of which version, and what to do once it is done. */
interface Job {
  version: number;
  work: SlicedWork<Finding[]>;
  /** Its diagnostics are sent even if unchanged (the client waits for this version). */
  own: boolean;
  /** Computed for a request, with no validation asked: its findings are sent only if one is asked for this version meanwhile. */
  quiet?: boolean;
  /** Validations asked for while it ran (a newer version, or another document changed): run once after it. */
  after?: { own: boolean; typed: boolean };
  /** Resolves once it has ended (done, failed or given up). */
  ended?: Promise<void>;
}

/**
 * The validation loop of open documents: debounced by what the last analysis cost, incremental (an edit
 * re-parses its own YAML documents and re-analyses what depends on them), and fair (documents that
 * another one's edit may affect are validated once, after the burst, one at a time so requests are
 * answered between them; their diagnostics are sent only when they changed). A large document opened, or
 * an edit spanning much of one, is validated in slices with requests answered in between.
 */
export class Validation {
  private analysis = new IncrementalAnalysis();
  private readonly cache = new Map<string, { version: number; findings: Finding[] }>();
  /** The file key each open document stands for in the inventory, where it is another than its own (see closed). */
  private readonly stoodFor = new Map<string, string>();
  /** What was last published for each document: its findings, and the diagnostic each was sent as (in the same order). */
  private readonly published = new Map<string, Published>();
  private readonly timers = new Map<string, Scheduled>();
  /** What validating each document after its last edit cost, in milliseconds. */
  private readonly costs = new Map<string, number>();
  /** When each document was last edited. */
  private readonly editedAt = new Map<string, number>();
  /** Documents to validate again because another document changed; validated together, once. */
  private readonly others = new Set<string>();
  private othersTimer: NodeJS.Timeout | undefined;
  /** Documents answered from their previous parse after an edit inside a huge CRD: parsed again when typing pauses. */
  private readonly pendingParses = new Map<string, NodeJS.Timeout>();
  /** The file of each open document that the other open documents were last validated against. */
  private readonly spreadFiles = new Map<string, ManifestFile>();
  /** The file parsed from each open document, and at which of its revisions: later changes are followed from there. */
  private readonly parsedAt = new Map<string, { file: ManifestFile; revision: number }>();
  /** Validations running in slices, by document. */
  private readonly jobs = new Map<string, Job>();
  /**
   * The file Fix all parsed from the text its edit makes (at most one, the latest): the validation after the
   * edit takes it instead of parsing that text again. Dropped by the next validation of its document.
   */
  private fixed: ManifestFile | undefined;

  constructor(private readonly host: ValidationHost) {}

  /** Fix all's parse of the text its edit will make of a document, for the validation once the edit is applied. */
  fixedTo(file: ManifestFile): void {
    this.fixed = file;
  }

  /** An analysis of a scratch copy of the inventory that starts from what the validation analysed of `uri`. */
  analysisOnScratch(uri: string, scratch: Inventory): IncrementalAnalysis {
    return this.analysis.forkFor(uri, scratch);
  }

  /**
   * The current findings of an open document (cached by version), once a validation of it running in slices
   * has ended: a request waits for them there while other requests are answered, and two parses of one
   * document never run at once.
   */
  async findings(uri: string): Promise<Finding[]> {
    this.validatePendingNow(uri);
    if (!this.jobs.has(uri)) this.computeInSlicesIfLong(uri);
    for (let job = this.jobs.get(uri); job; job = this.jobs.get(uri)) await job.ended;
    return this.findingsFor(uri);
  }

  /**
   * Findings no validation is waiting to compute (validated on save, the document edited since) are computed
   * for the request in slices when that is long work, and sent only if a validation asks for them meanwhile.
   */
  private computeInSlicesIfLong(uri: string): void {
    const doc = this.host.documents.get(uri);
    if (!doc || !this.host.enabled() || !this.host.isManifest(uri) || this.cache.get(uri)?.version === doc.version) return;
    if (this.isLongWork(doc)) this.startInSlices(uri, doc, { own: false, typed: false, quiet: true });
  }

  /**
   * A validation of the document waiting for typing to pause, or for other documents' turn, runs now, in
   * slices when it is long work: computed at once for the request instead, the findings of a paste over the
   * 106k-line file held every other request up for 0.7–0.9 s, and the validation then did it all again.
   */
  private validatePendingNow(uri: string): void {
    const waiting = this.timers.get(uri);
    if (waiting) waiting.now();
    else if (this.others.delete(uri)) this.validate(uri, false);
  }

  /** The current findings of a document no validation in slices is running for. */
  private findingsFor(uri: string): Finding[] {
    const doc = this.host.documents.get(uri);
    if (!doc || !this.host.enabled() || !this.host.isManifest(uri)) return [];
    const cached = this.cache.get(uri);
    if (cached && cached.version === doc.version) return cached.findings;
    return runSteps(this.findingsInSteps(uri, doc));
  }

  /** findingsFor in steps: the document's parse, then its analysis, pause after each YAML document. */
  private *findingsInSteps(uri: string, doc: OpenDocument): Steps<Finding[]> {
    const { inventory } = this.host;
    const { version } = doc;
    const file = yield* this.parseInSteps(doc);
    const disk = this.host.diskUri(uri);
    if (disk !== uri) {
      inventory.removeFile(disk);
      this.stoodFor.set(uri, disk);
    } else this.stoodFor.delete(uri);
    inventory.setFile(file);
    const options = { severities: this.host.severities(), cluster: this.host.cluster() };
    // A chart's or Kustomize root's files are analysed as they render (a patch is never a resource on its own).
    const units = editorUnits();
    const own = units?.replacesPlainAnalysis(uri) ? [] : (yield* this.analysis.analyzeInSteps(file, inventory, options)).filter((f) => f.uri === uri && f.range);
    const findings = [...own, ...(units?.findingsFor(uri, () => doc.getText()) ?? [])];
    this.cache.set(uri, { version, findings });
    return findings;
  }

  /**
   * Validates at once when the previous edit came at least as long ago as the last validation lasted;
   * edits coming faster than that are a burst, validated once it pauses for that long (at most 150 ms).
   * So each keystroke of steady typing is answered as soon as it can be, and fast typing over a costly
   * document is not validated keystroke by keystroke.
   */
  schedule(uri: string, delay = this.pacing(uri)): void {
    this.timers.get(uri)?.cancel();
    this.others.delete(uri);
    this.timers.set(
      uri,
      after(delay, () => {
        this.timers.delete(uri);
        this.validate(uri, true, true);
      }),
    );
  }

  private pacing(uri: string): number {
    const now = performance.now();
    const previousEdit = this.editedAt.get(uri);
    this.editedAt.set(uri, now);
    const last = this.costs.get(uri);
    return last !== undefined && previousEdit !== undefined && now - previousEdit < last ? Math.min(MAX_DEBOUNCE_MS, last) : 0;
  }

  /** Every open document (but `except`) is validated again once, after the current burst of work. */
  revalidateOpen(except?: string): void {
    for (const doc of this.host.documents.all()) if (doc.uri !== except && !this.timers.has(doc.uri)) this.others.add(doc.uri);
    clearTimeout(this.othersTimer);
    this.othersTimer = setTimeout(() => this.validateOthers(), MAX_DEBOUNCE_MS);
  }

  /** Everything known changed (settings, cluster): nothing cached is reused. */
  reset(): void {
    this.cache.clear();
    this.jobs.clear();
    this.analysis = new IncrementalAnalysis();
  }

  /**
   * The document was closed: what was known of it goes. Returns the file key it stood for when it was last analysed
   * (opened through a link, the file read from its real path), which it may no longer lead to (the link deleted).
   */
  closed(uri: string): string | undefined {
    const stoodFor = this.stoodFor.get(uri);
    this.stoodFor.delete(uri);
    this.jobs.delete(uri);
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
    clearTimeout(this.pendingParses.get(uri));
    this.pendingParses.delete(uri);
    this.others.delete(uri);
    this.cache.delete(uri);
    this.costs.delete(uri);
    this.editedAt.delete(uri);
    this.published.delete(uri);
    this.spreadFiles.delete(uri);
    this.parsedAt.delete(uri);
    if (this.fixed?.uri === uri) this.fixed = undefined;
    this.analysis.forget(uri);
    return stoodFor;
  }

  private validateOthers(): void {
    const next = this.others.values().next();
    if (next.done) return;
    this.others.delete(next.value);
    this.validate(next.value, false);
    // One document at a time: requests that arrived meanwhile are answered before the next.
    if (this.others.size) this.othersTimer = setTimeout(() => this.validateOthers(), 0);
  }

  /** Runs from timers: an engine exception is logged for this document and stops neither the server nor the others. */
  private validate(uri: string, own: boolean, typed = false): void {
    perDocument(uri, 'analysing', this.logError, () => this.validateNow(uri, own, typed));
    this.host.worked();
  }

  private readonly logError = (message: string) => this.host.connection.console.error(`kube-resilience: ${message}`);

  private validateNow(uri: string, own: boolean, typed: boolean): void {
    const doc = this.host.documents.get(uri);
    if (!doc) return;
    const running = this.jobs.get(uri);
    if (running) {
      // Asked again while a validation runs in slices: after it, from what it did (restarting it on every
      // keystroke would never finish while typing goes on).
      if (own && running.version === doc.version) running.own = true;
      else running.after = { own: own || !!running.after?.own, typed: typed || !!running.after?.typed };
      return;
    }
    if (typed && this.answeredFromPreviousParse(uri, doc)) return;
    clearTimeout(this.pendingParses.get(uri));
    this.pendingParses.delete(uri);
    this.cache.delete(uri);
    const started = performance.now();
    if (!this.isLongWork(doc)) return this.validated(uri, doc.version, own, typed, started, this.findingsFor(uri));
    this.startInSlices(uri, doc, { own, typed });
  }

  /** The document's findings computed in slices, as its job: validations asked meanwhile wait for it (see validateNow). */
  private startInSlices(uri: string, doc: OpenDocument, { own, typed, quiet }: { own: boolean; typed: boolean; quiet?: boolean }): void {
    const started = performance.now();
    const job: Job = { version: doc.version, work: new SlicedWork(this.findingsInSteps(uri, doc)), own, quiet };
    this.jobs.set(uri, job);
    const ended = () => {
      this.jobs.delete(uri);
      if (job.after) this.validate(uri, job.after.own, job.after.typed);
    };
    job.ended = inSlices(job.work, () => this.jobs.get(uri) === job, () => this.host.worked())
      .then((outcome) => {
        if (!outcome) return;
        if (this.host.documents.get(uri)?.version === job.version && (!job.quiet || job.own)) this.validated(uri, job.version, job.own, typed, started, outcome.value);
        ended();
      })
      .catch((error: unknown) => {
        this.logError(`analysing ${uri} failed: ${describeError(error)}`);
        if (this.jobs.get(uri) === job) ended();
      });
  }

  /**
   * Whether validating the document now is long work, to run in slices: its first parse when it is large, or
   * an edit that spans a large part of it (a paste, a Fix all applied).
   */
  private isLongWork(doc: OpenDocument): boolean {
    const previous = this.host.inventory.getFile(doc.uri);
    const changes = previous && this.changesSinceParse(doc, previous);
    if (!changes) return doc.getText().length >= SLICED_CHARACTERS;
    // Where the changes lie, about: each is of the text the ones before it made (an edit of many places
    // shifts them by what it inserts), which is close enough to tell a keystroke from a rewrite.
    let from = Infinity;
    let to = -Infinity;
    for (const change of changes) {
      from = Math.min(from, change.start);
      to = Math.max(to, change.end, change.start + change.text.length);
    }
    return to - from >= SLICED_CHARACTERS;
  }

  /** The findings of a validation are in: sent where they changed (or are the answer to the document's own edit). */
  private validated(uri: string, version: number, own: boolean, typed: boolean, started: number, findings: Finding[]): void {
    if (typed) this.costs.set(uri, performance.now() - started);
    const previous = this.published.get(uri)?.all;
    // Its own edit always answers (the client waits for this version); another's only when something changed.
    if (own || !previous || previous.length !== findings.length || previous.some((f, i) => f !== findings[i])) this.publish(uri, version, findings);
    const file = this.host.inventory.getFile(uri);
    const spread = this.spreadFiles.get(uri);
    // Other open files may depend on this one (a PDB here, its Deployment there). Asked first whether there
    // are any: comparing the texts walks every document of the file, on every keystroke.
    if (own && file && this.host.documents.all().length > 1 && (!spread || !sameText(spread, file))) {
      this.spreadFiles.set(uri, file);
      this.revalidateOpen(uri);
    }
  }

  /**
   * A keystroke inside an indented line of a huge document no rule reads (a CRD) changes no finding while
   * the document still parses: the previous findings answer for this version at once, and the document is
   * parsed again once typing pauses, which brings invalid-yaml if it no longer parses. Hovers and code
   * actions ask for `findings`, which parses the current text whatever is pending.
   */
  private answeredFromPreviousParse(uri: string, doc: OpenDocument): boolean {
    const previous = this.host.inventory.getFile(uri);
    const published = this.published.get(uri)?.all;
    if (!previous || !published || published.some((f) => f.rendered) || editorUnits()?.replacesPlainAnalysis(uri)) return false;
    const change = this.changeSinceParse(doc, previous);
    if (!change || !changeInsideIgnoredDocument(previous, change)) return false;
    this.publish(uri, doc.version, published);
    this.costs.delete(uri);
    clearTimeout(this.pendingParses.get(uri));
    this.pendingParses.set(
      uri,
      setTimeout(() => {
        this.pendingParses.delete(uri);
        this.validate(uri, true);
      }, IGNORED_EDIT_PARSE_MS),
    );
    return true;
  }

  /** The document's file: after an edit, the file parsed before followed through the changes made since. */
  private *parseInSteps(doc: OpenDocument): Steps<ManifestFile> {
    const previous = this.host.inventory.getFile(doc.uri);
    const changes = previous && this.changesSinceParse(doc, previous);
    const { revision } = doc;
    const file = this.takeFixed(doc) ?? (previous && changes ? yield* parseManifestAfterChangesInSteps(previous, changes) : yield* parseManifestInSteps(doc.uri, doc.getText(), previous));
    this.parsedAt.set(doc.uri, { file, revision });
    doc.forgetChangesUpTo(revision);
    return file;
  }

  /** What changed in the document since `previous` was parsed from it; undefined when nothing did. */
  private changeSinceParse(doc: OpenDocument, previous: ManifestFile): TextChange | undefined {
    const changes = this.changesSinceParse(doc, previous);
    if (changes) return changes.length ? combinedChange(previous.documents, changes) : undefined;
    const text = doc.getText();
    return text === previous.text ? undefined : changeBetween(previous.text, text);
  }

  /** Fix all's parse of the document's text, when the document holds the text its edit made (it is taken once). */
  private takeFixed(doc: OpenDocument): ManifestFile | undefined {
    const fixed = this.fixed;
    if (fixed?.uri !== doc.uri) return undefined;
    this.fixed = undefined;
    return doc.getText() === fixed.text ? fixed : undefined;
  }

  /** The document's changes since `previous`, when that is the file parsed from it and the document still knows them. */
  private changesSinceParse(doc: OpenDocument, previous: ManifestFile): TextChange[] | undefined {
    const at = this.parsedAt.get(doc.uri);
    return at?.file === previous ? doc.changesSince(at.revision) : undefined;
  }

  /**
   * Sends the findings as diagnostics, the same objects for the findings sent before (the encoder reuses their
   * bytes). Kept beside this publish's findings, not in one WeakMap for all: V8's young-generation collections
   * keep a long-lived WeakMap's values whatever its keys, so each keystroke's diagnostics went to the old generation.
   */
  private publish(uri: string, version: number, findings: Finding[]): void {
    const shown = shownFindings(findings);
    const diagnostics = diagnosticsReusing(this.published.get(uri), shown, (finding) => toDiagnostic(finding, uri, (id) => this.host.docsHref(id)));
    this.published.set(uri, { findings: shown, diagnostics, all: findings });
    this.host.connection.sendDiagnostics({ uri, version, diagnostics: shown === findings ? diagnostics : [...diagnostics, notShownDiagnostic(findings.length)] });
  }
}

interface Scheduled {
  cancel(): void;
  /** Runs the work now instead of when due. */
  now(): void;
}

/**
 * Runs `work` after `delay` ms, then after two immediates. A validation due at once does not wait a timer's
 * turn of the event loop (1–2 ms on every keystroke). The protocol library handles each message read on an
 * immediate of its own, queued after the one handling the message before: so a change already read
 * reschedules the validation before its second immediate runs, whether it was due at once or its timer
 * fired between two changes of a burst (a timer of 1 ms fires whenever the clock ticks), and a burst is
 * validated once.
 */
function after(delay: number, work: () => void): Scheduled {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const soon = () => {
    immediate = setImmediate(() => {
      immediate = setImmediate(work);
    });
  };
  if (delay > 0) timer = setTimeout(soon, delay);
  else soon();
  const cancel = () => {
    clearTimeout(timer);
    clearImmediate(immediate);
  };
  return {
    cancel,
    now: () => {
      cancel();
      work();
    },
  };
}
