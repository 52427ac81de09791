import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CodeActionTriggerKind,
  createConnection,
  DidChangeConfigurationNotification,
  ErrorCodes,
  FileChangeType,
  type FileEvent,
  ProposedFeatures,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type CodeAction,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { openDocuments, type OpenDocument } from './language/open-document';
import { splitMessage } from './rules/message-parts';
import { groupBy } from './grouped';
import { SIMULATE_WORKLOAD_COMMAND } from './simulate/messages';
import { breaksParsing, fixFileInSteps, preferredFix, severalFixable } from './fixes/apply';
import { composeRounds } from './fixes/edit';
import { takeFileFromDisk, takeFileFromDiskInSteps } from './inventory/file-from-disk';
import { pathOf, realPathOf } from './language/file-uri';
import { Inventory } from './inventory/inventory';
import { isManifestName, readManifestFile } from './inventory/manifest-files';
import { documentEdit, toCodeAction, toSourceCodeAction, toTextEdits } from './language/convert';
import { editorUnits } from './language/units';
import { factsDocsHref, ruleDocsHref } from './language/docs-link';
import { factOf } from './manifest/facts';
import { containsPosition, type Range } from './manifest/text';
import { ruleById } from './rules';
import type { Finding } from './rules/types';
import { DEFAULT_SETTINGS, readSettings, shownSetting, type ServerSettings } from './settings';
import { isObject } from './is-object';
import { hoverAt } from './explain/hover';
import { renderedHover } from './explain/rendered-hover';
import type { ClusterInfo } from './cluster/types';
import { FEATURES } from './language/features';
import type { ServerState } from './language/state';
import { IdleCollection } from './language/idle-collection';
import { Validation } from './language/validation';
import { describeError, keepServingOnUncaught, withCheckedDocumentSync, withCheckedMessages } from './language/guard';
import { createStdioConnection } from './language/stdio-connection';
import { allocateInYoungGeneration } from './language/young-allocation';
import { inSlices, SlicedWork } from './language/sliced-work';
import { WorkspaceScan } from './language/workspace-scan';
import { ServerCommands } from './protocol';
import { insideVersionControl } from './files/version-control';
import { isFolder } from './files/file-kind';
import type { Steps } from './steps';

allocateInYoungGeneration();

// A generic LSP client may start the server with no transport flag at all; stdio is what it expects then.
if (!process.argv.slice(2).some((arg) => /^--(stdio|node-ipc|socket|pipe)(=|$)/.test(arg))) process.argv.push('--stdio');
// Any message from the editor (a hover, a lightbulb on a cursor move) means someone is at work: no collection then.
// Logged through the connection itself, once it is made.
const connection = withCheckedMessages(process.argv.includes('--stdio') ? createStdioConnection(() => idleCollection.heard()) : createConnection(ProposedFeatures.all), (message) => logError(message));
const logError = (message: string) => connection.console.error(`kube-resilience: ${message}`);
const warnOfSetting = (problem: string) => connection.console.warn(`kube-resilience: settings: ${problem}`);
keepServingOnUncaught(logError);
const documents = new TextDocuments(openDocuments);
const inventory = new Inventory();
let settings: ServerSettings = DEFAULT_SETTINGS;
let cluster: ClusterInfo | undefined;
let roots: string[] = [];
let pullConfiguration = false;
/** The client fills in a code action's edit on demand (codeAction/resolve), so costly ones are computed only when picked. */
let resolvesEdits = false;
/** The client takes edits of one version of a document, and refuses them once the document has changed. */
let versionedEdits = false;
/** The client shows a code action it cannot apply, greyed, with why (a rendered finding's fix no edit of the chart carries out). */
let showsDisabledActions = false;
/** The client tells when workspace folders are added or removed. */
let foldersChange = false;
/** The client takes file watchers registered at run time, with patterns relative to a folder. */
let watchesRelativePatterns = false;
let runsSimulations = false;

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
  get roots() {
    return roots;
  },
  get watchesRelativePatterns() {
    return watchesRelativePatterns;
  },
  get runsSimulations() {
    return runsSimulations;
  },
  setCluster(next) {
    cluster = next;
    inventory.setCluster(next?.resources ?? []);
    validation.reset();
    revalidateOpen();
  },
  findings: (uri) => validation.findings(uri),
  revalidateOpen: () => revalidateOpen(),
};

const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.kube-resilience`;
// Outside source.fixAll on purpose: codeActionsOnSave applies every action under it, and per-rule
// whole-document edits on top of the fix-all one would overwrite each other.
const FIX_RULE_KIND = `${CodeActionKind.Source}.kube-resilience.fixRule`;

connection.onInitialize((given): InitializeResult => {
  // Read as the client sent it, whatever its shape: initialize is asked once, and a throw here left a server
  // half set up that refused the client's next try.
  const params = (given ?? {}) as Partial<InitializeParams>;
  const capabilities = params.capabilities ?? {};
  const options = params.initializationOptions;
  settings = readSettings(options?.settings ?? options, warnOfSetting, isRuleId);
  pullConfiguration = !!capabilities.workspace?.configuration && !options?.settings;
  const properties = capabilities.textDocument?.codeAction?.resolveSupport?.properties;
  resolvesEdits = Array.isArray(properties) && properties.includes('edit');
  versionedEdits = !!capabilities.workspace?.workspaceEdit?.documentChanges;
  showsDisabledActions = !!capabilities.textDocument?.codeAction?.disabledSupport;
  const folders = Array.isArray(params.workspaceFolders) ? params.workspaceFolders.flatMap((f) => (typeof f?.uri === 'string' ? [f.uri] : [])) : undefined;
  roots = folders ?? (typeof params.rootUri === 'string' ? [params.rootUri] : []);
  foldersChange = !!capabilities.workspace?.workspaceFolders;
  const watched = capabilities.workspace?.didChangeWatchedFiles;
  watchesRelativePatterns = !!watched?.dynamicRegistration && !!watched.relativePatternSupport;
  // A lens or a link whose command the client does not have fails when picked (Neovim, Helix, Emacs).
  const clientCommands: unknown[] = Array.isArray(options?.clientCommands) ? options.clientCommands : [];
  runsSimulations = clientCommands.includes(SIMULATE_WORKLOAD_COMMAND);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND, FIX_RULE_KIND], resolveProvider: true },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true }, fileOperations: FOLDER_OPERATIONS },
      // Those the client registers itself are not offered for it to register (twice would fail there); it sends them still.
      executeCommandProvider: { commands: Object.values(ServerCommands).filter((command) => !clientCommands.includes(command)) },
      ...Object.assign({}, ...FEATURES.map((f) => f.capabilities ?? {})),
    },
    serverInfo: { name: 'kube-resilience' },
  };
});

/**
 * Folders created, renamed or deleted in the editor: an editor's file watcher tells of a folder removed with one
 * event for the folder, which a watcher of manifest names lets through to no one (VS Code's does so).
 */
const FOLDER_OPERATIONS = (() => {
  const folders = { filters: [{ pattern: { glob: '**/*', matches: 'folder' as const } }] };
  return { didCreate: folders, didRename: folders, didDelete: folders };
})();

connection.onInitialized(async () => {
  if (pullConfiguration) {
    connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
    await refreshPulledSettings();
  }
  settingsChanged();
  if (foldersChange) connection.workspace.onDidChangeWorkspaceFolders(workspaceFoldersChanged);
  scan.add(roots);
});

/** A client's change of workspace folders, whatever it sent: one of another shape is said, not failed on. */
function workspaceFoldersChanged(event: unknown): void {
  const uris = (list: unknown) => (Array.isArray(list) ? list.flatMap((folder) => (isObject(folder) && typeof folder.uri === 'string' ? [folder.uri] : [])) : undefined);
  const added = uris(isObject(event) ? event.added : undefined);
  const removed = uris(isObject(event) ? event.removed : undefined);
  if (!added || !removed) return logError('ignored a DidChangeWorkspaceFolders notification: its event has no lists of folders added and removed');
  foldersChanged(added, removed);
}

/** Workspace folders added or removed: the added ones are read, the removed ones' files leave the analysis. */
function foldersChanged(added: string[], removed: string[]): void {
  roots = roots.filter((root) => !removed.includes(root)).concat(added.filter((root) => !roots.includes(root)));
  scan.remove(removed);
  scan.add(added);
  void editorUnits()?.foldersChanged();
  revalidateOpen();
}

function settingsChanged(): void {
  for (const feature of FEATURES) feature.settingsChanged?.(state);
}

async function refreshPulledSettings(): Promise<void> {
  try {
    const [value] = await connection.workspace.getConfiguration([{ section: 'kubeResilience' }]);
    if (isObject(value)) settings = readSettings(value, warnOfSetting, isRuleId);
    // Read as the defaults, another shape turned the cluster back on (as pushed settings did).
    else if (value !== undefined && value !== null) warnOfSetting(`kubeResilience was answered as ${shownSetting(value)}, not an object: the settings in use are kept`);
  } catch {
    // A client without this section keeps the defaults.
  }
}

connection.onDidChangeConfiguration(async (change) => {
  const pushed = change.settings?.kubeResilience;
  if (isObject(pushed)) settings = readSettings(pushed, warnOfSetting, isRuleId);
  else if (pullConfiguration) await refreshPulledSettings();
  // Pushed in another shape, they would have been the defaults: a client's slip turned the cluster back on.
  else if (pushed !== undefined && pushed !== null) warnOfSetting(`kubeResilience was pushed as ${shownSetting(pushed)}, not an object: the settings in use are kept`);
  settingsChanged();
  validation.reset();
  revalidateOpen();
});

/**
 * The key of a file read from disk. Editors may spell the same path another way (VS Code writes
 * `%2B` for `+` and `c%3A` for `c:`), or reach it through a link: keyed as the workspace scan read the same real
 * file (else by one spelling), an open document can replace its disk copy.
 */
function diskUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    const path = fileURLToPath(uri);
    return scan.keyOf(realPathOf(path)) ?? pathToFileURL(path).toString();
  } catch {
    return uri;
  }
}

function textOnDisk(disk: string): string {
  return readManifestFile(fileURLToPath(disk)).text;
}

/** The open document that stands for the file at `disk` (opened by its path, or through a link). */
function openDocumentAt(disk: string) {
  if (!openByDisk) {
    openByDisk = new Map();
    for (const doc of documents.all()) {
      const at = diskUri(doc.uri);
      if (!openByDisk.has(at)) openByDisk.set(at, doc);
    }
    // Kept while this turn of work lasts: documents open and close, and links change, between messages. Asked for each
    // file of a folder, or each event of a batch, it resolved every open document's path each time (5 s for 5,000 events).
    queueMicrotask(() => (openByDisk = undefined));
  }
  return openByDisk.get(disk);
}

let openByDisk: Map<string, OpenDocument> | undefined;

function isRuleId(id: string): boolean {
  return ruleById(id) !== undefined;
}

/**
 * Whether an open document is a manifest to analyse: a file's, or a new one's. Another scheme is another view of
 * some file (a git revision, a diff's other side): analysed beside the file, each was the other's second PDB.
 */
function isManifestUri(uri: string): boolean {
  if (!/^(file|untitled):/i.test(uri)) return false;
  return isManifestName(uri) || documents.get(uri)?.languageId === 'yaml' || documents.get(uri)?.languageId === 'json';
}

const idleCollection = new IdleCollection();

const validation = new Validation({
  connection,
  documents,
  inventory,
  enabled: () => settings.enable,
  severities: () => settings.rules,
  cluster: () => cluster,
  isManifest: isManifestUri,
  diskUri,
  docsHref: ruleDocsHref,
  worked: () => idleCollection.worked(),
});

const scan = new WorkspaceScan({
  connection,
  inventory,
  isOpen: (uri) => !!documents.get(uri) || !!openDocumentAt(uri),
  scanned: () => revalidateOpen(),
  worked: () => idleCollection.worked(),
});

function schedule(uri: string, delay?: number): void {
  validation.schedule(uri, delay);
}

function revalidateOpen(except?: string): void {
  validation.revalidateOpen(except);
}

documents.onDidOpen((e) => {
  openByDisk = undefined;
  // Opened again without a close between (a client that lost track): what was known of the old text goes.
  validation.closed(e.document.uri);
  schedule(e.document.uri, 0);
});
documents.onDidChangeContent((e) => {
  if (settings.run === 'onType') schedule(e.document.uri);
});
documents.onDidSave((e) => schedule(e.document.uri, 0));
documents.onDidClose((e) => {
  openByDisk = undefined;
  const stoodFor = validation.closed(e.document.uri);
  connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  const disk = diskUri(e.document.uri);
  // The same file still open by another path (through a link): its open text goes on standing for the file.
  const still = openDocumentAt(disk);
  if (still) {
    if (forget(e.document.uri)) revalidateOpen();
    return;
  }
  // What the other documents see falls back to the file on disk, when the workspace scan reads it; else to nothing
  // (a file opened from outside the workspace folders, or from a build folder, leaves the analysis with its editor).
  let changed = backFromDisk(disk, e.document.uri);
  // Opened through a link deleted since, it no longer leads to the file it stood for, which is still there.
  if (stoodFor && stoodFor !== disk && !openDocumentAt(stoodFor)) changed = backFromDisk(stoodFor) || changed;
  if (changed) revalidateOpen();
});

/**
 * The inventory takes the workspace file at `disk` as it is on disk, in place of what it holds under `key`, or forgets
 * both when the scan does not read that file; whether that changed it.
 */
function backFromDisk(disk: string, key = disk): boolean {
  return isWorkspaceFile(disk) ? takeFileFromDisk(inventory, key, disk, () => textOnDisk(disk)) : forget(key, disk);
}

/** Whether the file at `disk` is one of the workspace's, as its scan reads them. */
function isWorkspaceFile(disk: string): boolean {
  const path = pathOf(disk);
  return !!path && scan.holds(path);
}

/** The inventory holds nothing more under these keys; returns whether it held something. */
function forget(...uris: string[]): boolean {
  const held = uris.some((uri) => inventory.getFile(uri));
  for (const uri of uris) inventory.removeFile(uri);
  return held;
}

connection.onExecuteCommand(({ command }) => {
  // An unknown command is said to be one: answering null told the client it had run.
  if (!(Object.values(ServerCommands) as string[]).includes(command)) return new ResponseError(ErrorCodes.InvalidParams, `ExecuteCommand: unknown command "${command}"`);
  if (command === ServerCommands.readWorkspaceAgain) scan.again();
  return null;
});

/** Watched files' events not followed yet, by uri, in the order of each one's last event (which alone tells what it is now). */
const watchedEvents = new Map<string, FileEvent>();
let followingEvents = false;

connection.onDidChangeWatchedFiles((params) => {
  // A chart's folder is watched whole: at the root of a repository, git's own files come too, with every status.
  // A manifest in a chart comes twice (the manifest watcher's and the chart's), which the client does not merge; a
  // client that does not merge Created, Deleted, Created of one file sends all three, and the last is what it is now.
  const changes = lastEventOfEach(params.changes.filter((c) => !insideVersionControl(c.uri)));
  if (!changes.length) return;
  void editorUnits()?.filesChanged(changes.map((c) => ({ uri: c.uri, created: c.type === FileChangeType.Created, deleted: c.type === FileChangeType.Deleted })));
  for (const change of changes) {
    watchedEvents.delete(change.uri);
    watchedEvents.set(change.uri, change);
  }
  if (!followingEvents) followWatchedEvents();
});

function lastEventOfEach(changes: readonly FileEvent[]): FileEvent[] {
  const last = new Map<string, FileEvent>();
  for (const change of changes) {
    last.delete(change.uri);
    last.set(change.uri, change);
  }
  return [...last.values()];
}

/** Follows the events in slices, as the workspace scan reads: a batch of thousands, or a file of 30 MB, held every request up for seconds. */
function followWatchedEvents(): void {
  followingEvents = true;
  inSlices(new SlicedWork(followedInSteps()), () => true, () => idleCollection.worked())
    .catch((error: unknown) => logError(`following file changes: ${describeError(error)}`))
    .finally(() => {
      followingEvents = false;
      if (watchedEvents.size) followWatchedEvents();
    });
}

function* followedInSteps(): Steps<void> {
  let changed = false;
  const deleted: string[] = [];
  for (let event = firstOf(watchedEvents); event; event = firstOf(watchedEvents)) {
    watchedEvents.delete(event.uri);
    const disk = diskUri(event.uri);
    const path = pathOf(disk);
    // A folder may be named like a manifest (`base.yaml/`): deleted, it cannot be told from a file, so both are forgotten.
    if (path && event.type === FileChangeType.Deleted) deleted.push(path);
    if (!isManifestName(event.uri) || (path && event.type !== FileChangeType.Deleted && isFolder(path))) {
      if (path && event.type === FileChangeType.Created) scan.folderCreated(path);
    } else if (!openDocumentAt(disk)) {
      // A file the scan does not read (in `dist/`, `node_modules/`, outside the folders) does not join on an event either.
      if (event.type !== FileChangeType.Deleted && isWorkspaceFile(disk)) changed = (yield* takeFileFromDiskInSteps(inventory, disk, disk, () => textOnDisk(disk), () => !openDocumentAt(disk))) || changed;
      else if (forget(disk)) {
        changed = true;
        // A link the scan read a file by, deleted: the file may still be in the workspace by its own path.
        const left = scan.realFileLeft(disk);
        const own = left && pathToFileURL(left).toString();
        if (own && !openDocumentAt(own)) backFromDisk(own);
      }
    }
    yield;
  }
  // An event of a path that is no manifest may be a folder's: one deleted or renamed takes the files read from below it out.
  if (deleted.length) changed = (yield* scan.forgetMissingInSteps(deleted)) || changed;
  // Open documents see the others through the inventory: a change it did not take (a chart's `.txt`) changes none of
  // their findings here (a chart it renders again revalidates them when its render is in).
  if (changed) revalidateOpen();
}

function firstOf<T>(map: Map<string, T>): T | undefined {
  return map.values().next().value;
}

/** The uris a file operation names (`files` of `uri`s, or of `oldUri` and `newUri` for a rename), whatever the client sent. */
function operationUris(params: unknown, field: 'uri' | 'oldUri' | 'newUri'): string[] {
  const files = isObject(params) && Array.isArray(params.files) ? params.files : [];
  return files.flatMap((file) => (isObject(file) && typeof file[field] === 'string' ? [file[field] as string] : []));
}

/** Folders deleted or renamed in the editor: the files read from below the old ones are forgotten, the new ones read. */
function foldersOperated(deleted: string[], created: string[]): void {
  const paths = (uris: string[]) => uris.map((uri) => pathOf(diskUri(uri))).filter((path): path is string => !!path);
  const changed = scan.forgetMissing(paths(deleted));
  for (const path of paths(created)) scan.folderCreated(path);
  if (changed) revalidateOpen();
  // A chart or overlay copied in, renamed or deleted comes as its folder: its units are found anew.
  if (deleted.length || created.length) void editorUnits()?.foldersChanged();
}

connection.workspace.onDidDeleteFiles((params) => foldersOperated(operationUris(params, 'uri'), []));
connection.workspace.onDidCreateFiles((params) => foldersOperated([], operationUris(params, 'uri')));
connection.workspace.onDidRenameFiles((params) => foldersOperated(operationUris(params, 'oldUri'), operationUris(params, 'newUri')));

connection.onHover(async (params) => {
  if (!settings.enable) return null;
  const findings = await validation.findings(params.textDocument.uri);
  const doc = documents.get(params.textDocument.uri);
  const file = doc && inventory.getFile(doc.uri);
  if (!file) return null;
  const markdown = hoverAt(file, params.position, inventory, findings, cluster, { ruleHref: ruleDocsHref, factsHref: factsDocsHref, drainLinks: runsSimulations });
  if (markdown) return { contents: { kind: 'markdown', value: markdown.text }, range: markdown.range };
  const rendered = renderedHover(findings, params.position.line, ruleDocsHref);
  return rendered ? { contents: { kind: 'markdown', value: rendered } } : null;
});

connection.onCodeAction(async (params, token) => {
  const { only } = params.context;
  const automatic = params.context.triggerKind === CodeActionTriggerKind.Automatic;
  // An editor's lightbulb on a line where none of our diagnostics are (asked on every cursor move) has
  // nothing to offer: it is answered without the findings, which a document just edited or being
  // validated in slices would have to compute or wait for first.
  if (automatic && !only && !params.context.diagnostics.some((d) => d.source === 'kube-resilience')) return [];
  const all = await validation.findings(params.textDocument.uri);
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return [];
  const uri = doc.uri;
  const file = inventory.getFile(uri)!;
  const actions: CodeAction[] = [];
  const wantsQuickFix = !only || only.some((k) => CodeActionKind.QuickFix.startsWith(k) || k.startsWith(CodeActionKind.QuickFix));
  // An editor's own lightbulb request (on every cursor move) shows no source actions: fixing the whole
  // file for it would only hold the server up. Asked for by kind, or by hand, it is offered.
  const wantsFixAll = only ? only.some((k) => FIX_ALL_KIND.startsWith(k)) : !automatic;
  if (wantsQuickFix) {
    // Every quick fix is built before the first wait: a whole-file fix yields to other messages, and a
    // change read meanwhile moves the document to another version than the findings' (whose fixes are
    // written on demand).
    const version = versionedEdits ? doc.version : undefined;
    const seenRules = new Set<string>();
    const ruleFixes: { at: number; title: string; ruleId: string; diagnostic: Diagnostic }[] = [];
    const findingOf = findingsByDiagnostic(all);
    for (const diagnostic of params.context.diagnostics) {
      if (diagnostic.source !== 'kube-resilience') continue;
      const finding = findingOf(diagnostic) ?? all.find((f) => f.ruleId === diagnostic.code && containsPosition(f.range!, params.range.start));
      if (!finding) continue;
      for (const fix of finding.fixes) if (!breaksParsing(file, fix.edits)) actions.push(toCodeAction(uri, file.lines, fix, diagnostic, version));
      if ('rendered' in finding) actions.push(...renderedFixActions(uri, finding, diagnostic));
      if (seenRules.has(finding.ruleId)) continue;
      seenRules.add(finding.ruleId);
      if (severalFixable(all, finding.ruleId)) {
        const title = `Fix all ${finding.ruleId} findings in this file`;
        // Offered with every lightbulb: a whole-file fix costs 100–200 ms in a large manifest, so it waits until picked.
        if (resolvesEdits) actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], data: { uri, ruleId: finding.ruleId } satisfies FixRuleData });
        else ruleFixes.push({ at: actions.length, title, ruleId: finding.ruleId, diagnostic });
      }
    }
    // From the last one on, so that each goes where it was asked for.
    for (const { at, title, ruleId, diagnostic } of ruleFixes.reverse()) {
      const fixed = await fixWholeDocument(uri, ruleId, token);
      if (fixed) actions.splice(at, 0, { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: fixed });
    }
  }
  if (wantsFixAll && all.some((f) => preferredFix(f))) {
    // Named by its kind (codeActionsOnSave asks for source.fixAll and applies what it gets), it is computed now;
    // offered in a menu, it waits until picked where the client can ask for it then (0.4–0.9 s on 106,000 lines).
    const named = !!only?.some((k) => k.startsWith(CodeActionKind.SourceFixAll));
    const action = await wholeFileFix(doc, 'Fix all Kube Resilience findings', FIX_ALL_KIND, undefined, named, token);
    if (action) actions.push(action);
  }
  // Only when source actions are asked for by name ("Source Action…"): one whole-file fix per rule is
  // too costly to compute for every lightbulb request, which has the quick-fix variant anyway.
  const asksForRuleFixes = !!only?.some((k) => FIX_RULE_KIND.startsWith(k) || k.startsWith(FIX_RULE_KIND));
  const fixableRules = asksForRuleFixes ? new Set(all.filter((f) => preferredFix(f)).map((f) => f.ruleId)) : [];
  for (const ruleId of fixableRules) {
    const kind = `${FIX_RULE_KIND}.${ruleId}`;
    if (!only?.some((k) => kind.startsWith(k))) continue;
    const action = await wholeFileFix(doc, `Fix all ${ruleId} findings in this file`, kind, ruleId, false, token);
    if (action) actions.push(action);
  }
  return actions;
});

/**
 * A whole-file fix (of one rule, or of all): with its edit, or, for a client that asks for an action's edit
 * when it is picked, unless `now`, without it (see onCodeActionResolve).
 */
async function wholeFileFix(doc: OpenDocument, title: string, kind: string, ruleId: string | undefined, now: boolean, token: CancellationToken): Promise<CodeAction | undefined> {
  if (resolvesEdits && !now) return { title, kind, data: { uri: doc.uri, ...(ruleId ? { ruleId } : {}) } satisfies FixRuleData };
  const edit = await fixWholeDocument(doc.uri, ruleId, token, now);
  return edit && { title, kind, edit };
}

/**
 * The finding each diagnostic was published for, found by rule and range. A lightbulb carries the few
 * diagnostics under the cursor, and is asked on every cursor move: those are looked for one by one (3,600
 * findings on the 106k-line file: well under a millisecond). A request that carries many (a selection of the
 * whole file) is answered from an index of the findings, built once per version (3.4 ms there).
 */
function findingsByDiagnostic(findings: readonly Finding[]): (diagnostic: Diagnostic) => Finding | undefined {
  let looked = 0;
  return (diagnostic) => {
    const atRange =
      ++looked <= LOOKED_FOR_ONE_BY_ONE
        ? findings.filter((f) => f.range && f.ruleId === String(diagnostic.code) && sameRange(f.range, diagnostic.range))
        : (factOf(findingIndexes, findings, () => groupBy(findings.filter((f) => f.range), (f) => findingKey(f.ruleId, f.range!))).get(findingKey(diagnostic.code, diagnostic.range)) ?? []);
    // Two findings of a rule on one line (one values key two workloads print) are told apart by what they say.
    return atRange.length > 1 ? (atRange.find((f) => splitMessage(f.message).headline === diagnostic.message) ?? atRange[0]) : atRange[0];
  };
}

const LOOKED_FOR_ONE_BY_ONE = 8;
const findingIndexes = new WeakMap<object, Map<string, Finding[]>>();

function findingKey(code: unknown, { start, end }: Range): string {
  return `${code}|${start.line}:${start.character}|${end.line}:${end.character}`;
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** What an action without its edit carries to have it computed when picked: one rule's fixes, or (no rule) all. */
interface FixRuleData {
  uri: string;
  ruleId?: string;
}

/**
 * Fixes of a finding on what a chart or overlay renders: edits of its values files, templates or patches. A fix
 * of the rule that no such edit carries out is shown greyed with why, where the client shows such actions.
 */
function renderedFixActions(uri: string, finding: Finding, diagnostic: Diagnostic): CodeAction[] {
  const units = editorUnits();
  if (!units || !finding.range) return [];
  const { fixes, unwritten } = units.sourceFixesAt(uri, finding);
  const actions = fixes
    .map((fix) => toSourceCodeAction(fix, diagnostic, (path) => units.sourceText(path), (path) => units.openDocument(path)))
    .filter((action): action is CodeAction => !!action);
  if (!showsDisabledActions) return actions;
  return [...actions, ...unwritten.map(({ title, reason }): CodeAction => ({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], disabled: { reason: `Not written: ${reason}` } }))];
}

connection.onCodeActionResolve(async (action, token) => {
  const data = action.data as Partial<FixRuleData> | undefined;
  const doc = data?.uri ? documents.get(data.uri) : undefined;
  if (!doc || (data!.ruleId !== undefined && typeof data!.ruleId !== 'string')) return action;
  return { ...action, edit: (await fixWholeDocument(doc.uri, data!.ruleId, token, true)) ?? { changes: {} } };
});

/**
 * Applies the fixes of one rule (or, with none, of every rule) on a scratch copy of the inventory in slices
 * (see inSlices) between turns of the event loop, so other requests are answered meanwhile, and
 * stops when the request is cancelled;
 * then answers with the edits the fixes amount to, each place apart: an editor keeps its cursor, folds
 * and scroll position around them, which one edit over the whole document took away. When the fixes were `asked`
 * for (picked, or named, as on save), a file too large to fix is said in a message.
 */
async function fixWholeDocument(uri: string, ruleId: string | undefined, token?: CancellationToken, asked = false) {
  // Once a validation of the document running in slices has ended, the fixes start from what it analysed.
  await validation.findings(uri);
  const opened = documents.get(uri);
  const text = opened?.getText();
  if (text === undefined) return undefined;
  const accept = ruleId === undefined ? () => true : (f: Finding) => f.ruleId === ruleId;
  const scratch = inventory.scratch();
  // What the validation analysed of the document is not analysed again.
  const analysis = validation.analysisOnScratch(uri, scratch);
  const steps = fixFileInSteps(uri, text, scratch, { severities: settings.rules, cluster }, accept, (file, inv, options) => analysis.analyzeInSteps(file, inv, options));
  // Closed or typed into meanwhile, its edits would be of a text that is gone (see below): it stops at once.
  const version = opened!.version;
  const current = () => documents.get(uri) === opened && opened!.version === version;
  const outcome = await inSlices(new SlicedWork(steps), () => !token?.isCancellationRequested && current(), () => idleCollection.worked());
  if (!outcome) return undefined;
  const { text: fixed, file: fixedFile, rounds, refused } = outcome.value;
  // Said when the fix was asked for (picked, or on save), not for every lightbulb that works it out beforehand.
  if (refused && asked) void connection.window.showWarningMessage(`Kube Resilience wrote no fixes in this file: ${refused}.`);
  // Typed into meanwhile: the edits are of the text before, and would land in the wrong places.
  if (fixed === text || documents.get(uri)?.getText() !== text) return undefined;
  // The document holds `text` (checked above): its own line offsets give the ranges, nothing is parsed again.
  const document = documents.get(uri)!;
  // Once the edit is applied, the document holds the text the fixes ended with: its parse is handed over.
  validation.fixedTo(fixedFile);
  // A fix picked from a lightbulb after more typing is refused by a client that knows versions.
  return documentEdit(uri, toTextEdits(composeRounds(rounds), (offset) => document.positionAt(offset)), versionedEdits ? document.version : undefined);
}

for (const feature of FEATURES) feature.register(state);

documents.listen(withCheckedDocumentSync(connection, logError, (uri) => documents.get(uri) !== undefined));
connection.listen();
