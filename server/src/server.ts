import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CodeActionTriggerKind,
  createConnection,
  DidChangeConfigurationNotification,
  FileChangeType,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fixFile } from './fixes/apply';
import { Inventory } from './inventory/inventory';
import { findManifestFiles, MANIFEST_EXTENSIONS, readManifestFile } from './inventory/manifest-files';
import { toCodeAction, toDiagnostic } from './language/convert';
import { ruleDocsHref } from './language/docs-link';
import { parseManifest } from './manifest/parse';
import { containsPosition } from './manifest/text';
import { analyzeFile } from './rules/engine';
import type { Finding } from './rules/types';
import { DEFAULT_SETTINGS, readSettings, type ServerSettings } from './settings';
import { hoverAt } from './explain/hover';
import type { ClusterInfo } from './cluster/types';
import { FEATURES } from './language/features';
import type { ServerState } from './language/state';

// A generic LSP client may start the server with no transport flag at all; stdio is what it expects then.
if (!process.argv.slice(2).some((arg) => /^--(stdio|node-ipc|socket|pipe)(=|$)/.test(arg))) process.argv.push('--stdio');
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const inventory = new Inventory();
const findings = new Map<string, { version: number; findings: Finding[] }>();
const timers = new Map<string, { timer: NodeJS.Timeout; spread: boolean }>();
/** The text of each open document that the other open documents were last analysed against. */
const spreadTexts = new Map<string, string>();
let settings: ServerSettings = DEFAULT_SETTINGS;
let cluster: ClusterInfo | undefined;
let roots: string[] = [];
let pullConfiguration = false;
/** The client fills in a code action's edit on demand (codeAction/resolve), so costly ones are computed only when picked. */
let resolvesEdits = false;

/** What feature modules (language/*.ts) share with this file. */
const state: ServerState = {
  connection,
  documents,
  inventory,
  get settings() {
    return settings;
  },
  get cluster() {
    return cluster;
  },
  setCluster(next) {
    cluster = next;
    inventory.setCluster(next?.resources ?? []);
    findings.clear();
    revalidateOpen();
  },
  findingsFor,
  revalidateOpen: () => revalidateOpen(),
};

const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.kube-resilience`;
// Outside source.fixAll on purpose: codeActionsOnSave applies every action under it, and per-rule
// whole-document edits on top of the fix-all one would overwrite each other.
const FIX_RULE_KIND = `${CodeActionKind.Source}.kube-resilience.fixRule`;
const DEBOUNCE_MS = 150;

connection.onInitialize((params): InitializeResult => {
  settings = readSettings(params.initializationOptions?.settings ?? params.initializationOptions);
  pullConfiguration = !!params.capabilities.workspace?.configuration && !params.initializationOptions?.settings;
  resolvesEdits = !!params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit');
  roots = (params.workspaceFolders ?? []).map((f) => f.uri).concat(params.workspaceFolders ? [] : params.rootUri ? [params.rootUri] : []);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, FIX_RULE_KIND], resolveProvider: true },
      ...Object.assign({}, ...FEATURES.map((f) => f.capabilities ?? {})),
    },
    serverInfo: { name: 'kube-resilience' },
  };
});

connection.onInitialized(async () => {
  if (pullConfiguration) {
    connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
    await refreshPulledSettings();
  }
  settingsChanged();
  scanWorkspace();
});

function settingsChanged(): void {
  for (const feature of FEATURES) feature.settingsChanged?.(state);
}

async function refreshPulledSettings(): Promise<void> {
  try {
    const [value] = await connection.workspace.getConfiguration([{ section: 'kubeResilience' }]);
    if (value) settings = readSettings(value);
  } catch {
    // A client without this section keeps the defaults.
  }
}

connection.onDidChangeConfiguration(async (change) => {
  const pushed = change.settings?.kubeResilience;
  if (pushed) settings = readSettings(pushed);
  else if (pullConfiguration) await refreshPulledSettings();
  settingsChanged();
  revalidateOpen();
});

/** Reads every manifest below the workspace folders, a few files at a time so requests stay answered. */
function scanWorkspace(): void {
  const paths = roots.filter((r) => r.startsWith('file:')).flatMap((r) => findManifestFiles(fileURLToPath(r), 5000));
  const step = () => {
    for (const path of paths.splice(0, 25)) {
      const uri = pathToFileURL(path).toString();
      if (openDocumentAt(uri)) continue;
      try {
        const file = parseManifest(uri, readManifestFile(path).text);
        inventory.setFile(file);
        if (file.clusterSnapshot) connection.console.log(`${path} is a cluster snapshot (live objects), not manifests: left out of the analysis`);
      } catch {
        // Unreadable files are simply not part of the workspace view.
      }
    }
    if (paths.length) setImmediate(step);
    else revalidateOpen();
  };
  step();
}

/**
 * The key of a file read from disk. Editors may spell the same path another way (VS Code writes
 * `%2B` for `+` and `c%3A` for `c:`); keyed by one spelling, an open document can replace its disk copy.
 */
function diskUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return pathToFileURL(fileURLToPath(uri)).toString();
  } catch {
    return uri;
  }
}

function openDocumentAt(disk: string) {
  return documents.all().find((doc) => diskUri(doc.uri) === disk);
}

function isManifestUri(uri: string): boolean {
  return MANIFEST_EXTENSIONS.test(uri) || documents.get(uri)?.languageId === 'yaml' || documents.get(uri)?.languageId === 'json';
}

/**
 * Debounced validation. `spread` (this document's own edit) also re-analyses the other open documents
 * once its text settles; re-analyses caused by another document never spread further, or two open
 * files would keep rescheduling each other forever.
 */
function schedule(uri: string, delay = DEBOUNCE_MS, spread = true): void {
  const pending = timers.get(uri);
  clearTimeout(pending?.timer);
  const spreads = spread || !!pending?.spread;
  timers.set(uri, {
    spread: spreads,
    timer: setTimeout(() => {
      timers.delete(uri);
      validate(uri, spreads);
    }, delay),
  });
}

function revalidateOpen(except?: string): void {
  for (const doc of documents.all()) if (doc.uri !== except) schedule(doc.uri, DEBOUNCE_MS * 2, false);
}

function findingsFor(uri: string): Finding[] {
  const doc = documents.get(uri);
  if (!doc || !settings.enable || !isManifestUri(uri)) return [];
  const cached = findings.get(uri);
  if (cached && cached.version === doc.version) return cached.findings;
  const file = parseManifest(uri, doc.getText());
  if (diskUri(uri) !== uri) inventory.removeFile(diskUri(uri));
  inventory.setFile(file);
  const result = analyzeFile(file, inventory, { severities: settings.rules, cluster }).filter((f) => f.uri === uri && f.range);
  findings.set(uri, { version: doc.version, findings: result });
  return result;
}

function validate(uri: string, spread: boolean): void {
  const doc = documents.get(uri);
  if (!doc) return;
  findings.delete(uri);
  const diagnostics = findingsFor(uri).map((f) => toDiagnostic(f, ruleDocsHref));
  connection.sendDiagnostics({ uri, version: doc.version, diagnostics });
  // Other open files may depend on this one (a PDB here, its Deployment there).
  const text = doc.getText();
  if (spread && spreadTexts.get(uri) !== text) {
    spreadTexts.set(uri, text);
    revalidateOpen(uri);
  }
}

documents.onDidOpen((e) => schedule(e.document.uri, 0));
documents.onDidChangeContent((e) => {
  if (settings.run === 'onType') schedule(e.document.uri);
});
documents.onDidSave((e) => schedule(e.document.uri, 0));
documents.onDidClose((e) => {
  clearTimeout(timers.get(e.document.uri)?.timer);
  timers.delete(e.document.uri);
  findings.delete(e.document.uri);
  spreadTexts.delete(e.document.uri);
  connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  const open = inventory.getFile(e.document.uri)?.text;
  const disk = diskUri(e.document.uri);
  inventory.removeFile(e.document.uri);
  try {
    inventory.setFile(parseManifest(disk, readManifestFile(fileURLToPath(disk)).text));
  } catch {
    inventory.removeFile(disk);
  }
  // What the other documents see falls back to the file on disk (or to nothing).
  if (open !== inventory.getFile(disk)?.text) revalidateOpen();
});

connection.onDidChangeWatchedFiles((params) => {
  for (const change of params.changes) {
    const disk = diskUri(change.uri);
    if (openDocumentAt(disk) || !MANIFEST_EXTENSIONS.test(change.uri)) continue;
    if (change.type === FileChangeType.Deleted) inventory.removeFile(disk);
    else {
      try {
        inventory.setFile(parseManifest(disk, readManifestFile(fileURLToPath(disk)).text));
      } catch {
        inventory.removeFile(disk);
      }
    }
  }
  revalidateOpen();
});

connection.onHover((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc || !settings.enable) return null;
  findingsFor(doc.uri);
  const file = inventory.getFile(doc.uri);
  if (!file) return null;
  const markdown = hoverAt(file, params.position, inventory, findingsFor(doc.uri), cluster, { ruleHref: ruleDocsHref });
  return markdown ? { contents: { kind: 'markdown', value: markdown.text }, range: markdown.range } : null;
});

function sameDiagnostic(finding: Finding, diagnostic: Diagnostic): boolean {
  const r = finding.range!;
  return finding.ruleId === diagnostic.code && r.start.line === diagnostic.range.start.line && r.start.character === diagnostic.range.start.character && r.end.line === diagnostic.range.end.line && r.end.character === diagnostic.range.end.character;
}

connection.onCodeAction((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return [];
  const uri = doc.uri;
  const all = findingsFor(uri);
  const file = inventory.getFile(uri)!;
  const only = params.context.only;
  const actions: CodeAction[] = [];
  const wantsQuickFix = !only || only.some((k) => CodeActionKind.QuickFix.startsWith(k) || k.startsWith(CodeActionKind.QuickFix));
  // An editor's own lightbulb request (on every cursor move) shows no source actions: fixing the whole
  // file for it would only hold the server up. Asked for by kind, or by hand, it is computed.
  const automatic = params.context.triggerKind === CodeActionTriggerKind.Automatic;
  const wantsFixAll = only ? only.some((k) => FIX_ALL_KIND.startsWith(k)) : !automatic;
  if (wantsQuickFix) {
    const seenRules = new Set<string>();
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== 'kube-resilience') continue;
      const finding = all.find((f) => sameDiagnostic(f, diagnostic)) ?? all.find((f) => f.ruleId === diagnostic.code && containsPosition(f.range!, params.range.start));
      if (!finding) continue;
      for (const fix of finding.fixes) actions.push(toCodeAction(uri, file.lines, fix, diagnostic));
      const sameRule = all.filter((f) => f.ruleId === finding.ruleId && f.fixes.some((x) => x.preferred));
      if (sameRule.length > 1 && !seenRules.has(finding.ruleId)) {
        seenRules.add(finding.ruleId);
        const title = `Fix all ${finding.ruleId} findings in this file`;
        // Offered with every lightbulb: a whole-file fix costs 100–200 ms in a large manifest, so it waits until picked.
        if (resolvesEdits) actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], data: { uri, ruleId: finding.ruleId } satisfies FixRuleData });
        else {
          const fixed = fixWholeDocument(uri, doc.getText(), (f) => f.ruleId === finding.ruleId);
          if (fixed) actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: fixed });
        }
      }
    }
  }
  if (wantsFixAll && all.some((f) => f.fixes.some((x) => x.preferred))) {
    const fixed = fixWholeDocument(uri, doc.getText(), () => true);
    if (fixed) actions.push({ title: 'Fix all Kube Resilience findings', kind: FIX_ALL_KIND, edit: fixed });
  }
  // Only when source actions are asked for by name ("Source Action…"): one whole-file fix per rule is
  // too costly to compute for every lightbulb request, which has the quick-fix variant anyway.
  const asksForRuleFixes = !!only?.some((k) => FIX_RULE_KIND.startsWith(k) || k.startsWith(FIX_RULE_KIND));
  const fixableRules = asksForRuleFixes ? new Set(all.filter((f) => f.fixes.some((x) => x.preferred)).map((f) => f.ruleId)) : [];
  for (const ruleId of fixableRules) {
    const kind = `${FIX_RULE_KIND}.${ruleId}`;
    if (!only?.some((k) => kind.startsWith(k))) continue;
    const fixed = fixWholeDocument(uri, doc.getText(), (f) => f.ruleId === ruleId);
    if (fixed) actions.push({ title: `Fix all ${ruleId} findings in this file`, kind, edit: fixed });
  }
  return actions;
});

interface FixRuleData {
  uri: string;
  ruleId: string;
}

connection.onCodeActionResolve((action) => {
  const data = action.data as Partial<FixRuleData> | undefined;
  const doc = data?.uri ? documents.get(data.uri) : undefined;
  if (!doc || typeof data?.ruleId !== 'string') return action;
  const ruleId = data.ruleId;
  return { ...action, edit: fixWholeDocument(doc.uri, doc.getText(), (f) => f.ruleId === ruleId) ?? { changes: {} } };
});

/** Applies fixes on a scratch inventory view, then answers with one edit over the whole document. */
function fixWholeDocument(uri: string, text: string, accept: (f: Finding) => boolean) {
  const { text: fixed } = fixFile(uri, text, inventory, { severities: settings.rules, cluster }, accept);
  inventory.setFile(parseManifest(uri, text));
  if (fixed === text) return undefined;
  const lines = parseManifest(uri, text).lines;
  return { changes: { [uri]: [{ range: lines.range(0, text.length), newText: fixed }] } };
}

for (const feature of FEATURES) feature.register(state);

documents.listen(connection);
connection.listen();
