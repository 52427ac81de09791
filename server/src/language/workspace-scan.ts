import { statSync, type Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { within, withinAny } from '../files/within';
import type { Inventory } from '../inventory/inventory';
import { manifestFilesInSteps, readManifestFile, walkEnters, walkReaches } from '../inventory/manifest-files';
import { cachedRealPaths, isFolder, realPathOrUndefined } from '../files/file-kind';
import { mayHoldResources, parseManifestInSteps } from '../manifest/parse';
import { runSteps, type Steps } from '../steps';
import { ServerCommands } from '../protocol';
import { pathOf, realPathOf } from './file-uri';
import { describeError } from './guard';
import { lateProgress, type LateProgress } from './late-progress';
import { inSlices, SlicedWork } from './sliced-work';

/** How many manifest files are read at most in each workspace folder. */
export const MAX_FILES_PER_FOLDER = 5000;

export interface ScanHost {
  connection: Connection;
  inventory: Inventory;
  /** Whether the file at this uri (as the editor or the disk spells it) is open in the editor, where the open text stands for it. */
  isOpen(diskUri: string): boolean;
  /** The scan has ended, read to the end or cancelled: what depends on the files it read is analysed again. */
  scanned(): void;
  /** Called after each slice of work (the server may collect garbage once it is idle). */
  worked(): void;
}

interface Run {
  cancelled: boolean;
  progress: LateProgress;
  read: number;
}

/**
 * Reads the manifests of the workspace folders into the inventory, in slices (see inSlices) so requests stay
 * answered meanwhile: a folder is walked an entry at a time, a large file parsed a YAML document at a time.
 * A folder added while a scan runs is read after the others; a folder removed is no longer read, and what
 * was read of it leaves the inventory. Once a scan has lasted a second the editor shows its progress, and
 * can cancel it: the analysis then knows the files read so far and the open documents.
 */
export class WorkspaceScan {
  /** The workspace folders, as paths. */
  private readonly folders = new Set<string>();
  /** Each workspace folder's real path (links resolved), by its path. */
  private readonly realFolders = new Map<string, string | undefined>();
  /** The key of each file read, by its real path (see keyOf). */
  private readonly keys = new Map<string, string>();
  /** The same, the other way: the real path of the file read under each key (a deleted link's file is found by it). */
  private readonly realOfKey = new Map<string, string>();
  /** Folders waiting to be read (a workspace folder, or a folder created below `root`, one), the next first. */
  private readonly queue: { walk: string; root: string }[] = [];
  private run: Run | undefined;

  constructor(
    private readonly host: ScanHost,
    /** How many manifest files are read at most in each folder. */
    private readonly maxFiles = MAX_FILES_PER_FOLDER,
  ) {}

  /** Folders (as uris; only `file:` ones are read) joined the workspace: their manifests are read. */
  add(folderUris: readonly string[]): void {
    for (const path of folderUris.map(pathOf)) {
      if (!path || this.folders.has(path)) continue;
      this.folders.add(path);
      this.realFolders.set(path, realPathOrUndefined(path));
      this.queue.push({ walk: path, root: path });
    }
    this.startIfQueued();
  }

  /**
   * Reads every workspace folder again (after a cancelled scan, say); one being read now is read again after.
   * A file whose text is what the inventory holds is not parsed again.
   */
  again(): void {
    for (const path of this.folders) if (!this.queue.some((queued) => queued.walk === path)) this.queue.push({ walk: path, root: path });
    this.startIfQueued();
  }

  /**
   * A folder was created (or renamed into place) on disk: the manifests below it are read, when a workspace folder's
   * walk would enter it. An editor tells of a folder moved in with one event, not one per file.
   */
  folderCreated(path: string): void {
    const root = [...this.folders].find((folder) => walkEnters(folder, path));
    if (!root || !isFolder(path) || this.queue.some((queued) => queued.walk === path)) return;
    this.queue.push({ walk: path, root });
    this.startIfQueued();
  }

  /**
   * The key the scan read a file under, by the file's real path: an editor may open it by another path (through a
   * link, or the link a workspace was opened through), and its open document then stands for that key.
   */
  keyOf(realPath: string): string | undefined {
    const key = this.keys.get(realPath);
    if (key === undefined) return undefined;
    // A key is the path the file was read by: once that path leads elsewhere (a link deleted), the file goes by its own.
    const path = pathOf(key) ?? '';
    if (path === realPath || realPathOf(path) === realPath) return key;
    this.keys.delete(realPath);
    this.realOfKey.delete(key);
    return undefined;
  }

  /**
   * The real path of the file read under `key`, once `key` leads to it no more (a link deleted): the file it read
   * may still be in the workspace under its own path, not read there as it was known already.
   */
  realFileLeft(key: string): string | undefined {
    const real = this.realOfKey.get(key);
    return real !== undefined && this.keyOf(real) !== key ? real : undefined;
  }

  /**
   * Whether the file at `path` is one the scan reads: below a workspace folder, in no folder its walk passes by, and
   * not behind a linked folder that leads out of it (an editor may open one there, or tell of one created).
   */
  holds(path: string, realFolderOf: (folder: string) => string | undefined = realPathOrUndefined): boolean {
    const reaching = [...this.folders].filter((folder) => walkReaches(folder, path));
    if (!reaching.length) return false;
    // Through whatever links, the file's folder is in the workspace folder's real one, as every folder its walk enters.
    const realFolder = realFolderOf(dirname(path));
    return !!realFolder && reaching.some((folder) => {
      const root = this.realFolders.get(folder) ?? realFolderOf(folder);
      return !!root && within(root, realFolder);
    });
  }

  /**
   * The files read from below any of `folders` (or those files themselves) that are gone from disk, or that the scan
   * no longer reads, leave the inventory, but open ones; returns whether any did. A folder deleted or renamed comes
   * as one event, or as none (reading the workspace again then finds what is there, and this what is not). One walk
   * of the inventory for them all: a batch of 10,000 deleted paths walked it 10,000 times, holding requests up 50 s.
   */
  forgetMissing(folders: readonly string[]): boolean {
    return runSteps(this.forgetMissingInSteps(folders));
  }

  *forgetMissingInSteps(folders: readonly string[]): Steps<boolean> {
    if (folders.length === 0) return false;
    const { inventory } = this.host;
    let forgot = false;
    // One look at each folder's real path: the files of a folder are many.
    const realFolderOf = cachedRealPaths();
    const under = withinAny(folders);
    for (const file of inventory.allFiles()) {
      const path = pathOf(file.uri);
      if (!path || !under(path) || this.host.isOpen(file.uri)) continue;
      if (!this.holds(path, realFolderOf) || !isRegularFile(path)) {
        inventory.removeFile(file.uri);
        forgot = true;
      }
      yield;
    }
    return forgot;
  }

  private startIfQueued(): void {
    if (!this.run && this.queue.length > 0) this.start();
  }

  /** Folders left the workspace: they are not read any more, and their files leave the inventory but those still in another folder or open. */
  remove(folderUris: readonly string[]): void {
    const removed = folderUris.map(pathOf).filter((path): path is string => !!path && this.folders.delete(path));
    if (removed.length === 0) return;
    for (const folder of removed) this.realFolders.delete(folder);
    this.queue.splice(0, this.queue.length, ...this.queue.filter((queued) => this.folders.has(queued.root)));
    const { inventory } = this.host;
    const underRemoved = withinAny(removed);
    const underKept = withinAny([...this.folders]);
    for (const file of inventory.allFiles()) {
      const path = pathOf(file.uri);
      if (!path || !underRemoved(path) || underKept(path)) continue;
      if (!this.host.isOpen(file.uri)) inventory.removeFile(file.uri);
    }
    // A file read under a folder removed may also be another folder's (a link to the same one), where it was left
    // unread: those folders are read again (only then: a walk of every folder is long).
    const remaining = [...this.realFolders.values()].filter((real): real is string => !!real);
    const shared = [...this.keys].some(([real, uri]) => {
      const path = pathOf(uri);
      return !!path && underRemoved(path) && remaining.some((folder) => within(folder, real));
    });
    if (shared) this.again();
  }

  private start(): void {
    const run: Run = { cancelled: false, read: 0, progress: lateProgress(this.host.connection, 'Kube Resilience', 'Listing manifests', () => this.cancel(run)) };
    this.run = run;
    inSlices(new SlicedWork(this.readQueued(run)), () => !run.cancelled, () => this.host.worked())
      .catch((error: unknown) => this.host.connection.console.error(`kube-resilience: workspace scan: ${describeError(error)}`))
      .finally(() => {
        run.progress.done();
        this.run = undefined;
        if (run.cancelled) {
          this.host.connection.console.log(
            `kube-resilience: workspace scan cancelled after ${run.read} files: findings across files consider those and the open documents (the command ${ServerCommands.readWorkspaceAgain}, "Kube Resilience: Read the Workspace Again", reads the rest)`,
          );
        }
        // Folders added after the last step had looked at the queue, or after a cancel (which emptied it).
        if (this.queue.length > 0) this.start();
        this.host.scanned();
      });
  }

  private cancel(run: Run): void {
    run.cancelled = true;
    this.queue.length = 0;
  }

  /** Reads the queued folders one after another, those added meanwhile included. */
  private *readQueued(run: Run): Steps<void> {
    for (let queued = this.queue.shift(); queued !== undefined; queued = this.queue.shift()) {
      const { walk, root: folder } = queued;
      const name = basename(walk) || walk;
      run.progress.report(`Listing manifests in ${name}`);
      const paths = yield* manifestFilesInSteps(walk, this.maxFiles, undefined, folder);
      if (paths.length >= this.maxFiles) {
        // Past the limit, a PDB or Service in a file not read looks missing: said once, where it can be seen.
        this.host.connection.console.warn(
          `kube-resilience: ${walk} holds ${this.maxFiles} YAML and JSON files or more: the first ${this.maxFiles} found are read, and findings across files do not see the others (an open file counts)`,
        );
      }
      let shown = -1;
      for (let i = 0; i < paths.length && this.folders.has(folder); i++) {
        // Each percent once: thousands of files would otherwise be thousands of messages.
        const percentage = Math.floor((100 * i) / paths.length);
        if (percentage !== shown) run.progress.report(`Reading manifests in ${name}: ${i + 1} of ${paths.length} files`, (shown = percentage));
        yield* this.readFile(paths[i], folder);
        run.read++;
        yield;
      }
      if (this.folders.has(folder)) yield* this.forgetMissingInSteps([walk]);
    }
  }

  /** Puts a manifest file into the inventory, unless it is open in the editor (or its folder was removed) by the time it is parsed. */
  private *readFile(path: string, folder: string): Steps<void> {
    const { inventory } = this.host;
    const uri = pathToFileURL(path).toString();
    const real = realPathOf(path);
    const known = this.keys.get(real);
    // One real file is one file: met again through another workspace folder (a link to the first), it stays under
    // the key it was read by while that one is the scan's (under both, a budget deleted or edited there still
    // counted by the other).
    const knownPath = known !== undefined && known !== uri ? pathOf(known) : undefined;
    if (knownPath && inventory.getFile(known!) && this.holds(knownPath)) return;
    if (known !== undefined) this.realOfKey.delete(known);
    this.keys.set(real, uri);
    this.realOfKey.set(uri, real);
    if (this.host.isOpen(uri)) return;
    try {
      const revision = inventory.revisionOf(uri);
      const held = inventory.getFile(uri);
      const { text } = readManifestFile(path);
      // A JSON file of 800 KB that holds no resource (an API description) held every request up for a third of a second, parsed.
      if (!mayHoldResources(uri, text) || held?.text === text) return;
      const file = yield* parseManifestInSteps(uri, text);
      // Changed on disk (or emptied) while it was parsed, the file is in the inventory as it is now: this older text stays out.
      if (this.host.isOpen(uri) || !this.folders.has(folder) || inventory.revisionOf(uri) !== revision) return;
      inventory.setFile(file);
      if (file.clusterSnapshot) this.host.connection.console.log(`${path} is a cluster snapshot (live objects), not manifests: left out of the analysis`);
    } catch {
      // Unreadable files are simply not part of the workspace view.
    }
  }
}

/** The manifest files of the workspace folders (uris), walked in steps. */
export function* manifestFilesOf(folderUris: readonly string[]): Steps<string[]> {
  const found: string[] = [];
  for (const path of folderUris.map(pathOf)) if (path) found.push(...(yield* manifestFilesInSteps(path, MAX_FILES_PER_FOLDER)));
  return found;
}

function isRegularFile(path: string): boolean {
  return statOf(path)?.isFile() ?? false;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
