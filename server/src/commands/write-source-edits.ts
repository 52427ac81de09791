import { realpathSync, rmSync } from 'node:fs';
import { nameTaken } from '../files/file-kind';
import { ChangedMeanwhileError } from '../files/atomic-write';
import { describeFileError } from '../files/read-bounded';
import { applyEdits } from '../fixes/edit';
import { readManifestFile, writeManifestFile, type ManifestEncoding } from '../inventory/manifest-files';
import type { SourceEdits } from '../render/types';

/** Why a fix could not be written: the file that stopped it, and those written before it that could not be put back. */
export interface WriteFailure {
  path: string;
  reason: string;
  notPutBack: string[];
  /** Files written before it that had other hard links: put back, they part from those all the same. */
  unlinked: { path: string; others: number }[];
}

/** A fix's files as written: `undo` puts each back as it was (a created one removed) and returns those it could not. */
export interface WrittenEdits {
  undo(): string[];
  /** Files written that had other hard links, which keep the text they had. */
  unlinked: { path: string; others: number }[];
}

/**
 * Writes a fix's source edits, all or none: a write that fails undoes those before it. The file that stopped it
 * and why when one cannot be read or written, or a file to create is there already (made since the fix was
 * worked out, or a link: it would be replaced).
 */
export function writeSourceEdits(edits: SourceEdits): WrittenEdits | WriteFailure {
  const taken = edits.creates.find((c) => nameTaken(c.path));
  if (taken) return { path: taken.path, reason: 'a file (or a link) is there already, which this fix would replace: not written', notPutBack: [], unlinked: [] };
  const writes: Write[] = [];
  for (const edit of edits.edits) {
    try {
      const { text, encoding } = readManifestFile(edit.path);
      // Saved since the fix was computed on it: its offsets would land in the wrong places.
      if (text !== edit.against) return { path: edit.path, reason: new ChangedMeanwhileError().message, notPutBack: [], unlinked: [] };
      // Written at its real path: a link stays a link.
      writes.push({ path: realpathSync(edit.path), before: text, text: applyEdits(text, edit.edits), encoding });
    } catch (error) {
      return { path: edit.path, reason: describeFileError(error), notPutBack: [], unlinked: [] };
    }
  }
  for (const create of edits.creates) writes.push({ path: create.path, text: create.text, encoding: 'utf8' });
  const done: typeof writes = [];
  const unlinked: WrittenEdits['unlinked'] = [];
  for (const write of writes) {
    try {
      const others = writeManifestFile(write.path, write.text, write.encoding, write.before);
      if (others > 0) unlinked.push({ path: write.path, others });
      done.push(write);
    } catch (error) {
      return { path: write.path, reason: describeFileError(error), notPutBack: undoWrites(done), unlinked };
    }
  }
  return { undo: () => undoWrites(done), unlinked };
}

/** Undoes writes, the last first; the paths it could not put back. */
function undoWrites(done: readonly Write[]): string[] {
  return [...done].reverse().filter((write) => !undoWrite(write)).map((write) => write.path);
}

interface Write {
  path: string;
  /** What the file held; absent for a file the fix creates. */
  before?: string;
  text: string;
  encoding: ManifestEncoding;
}

/** Puts back what a file held (encoded as it was: byte for byte), or removes a file that was created; false when that fails too. */
function undoWrite({ path, before, text, encoding }: Write): boolean {
  try {
    // Saved over since the fix was written: that save is kept.
    if (before !== undefined) writeManifestFile(path, before, encoding, text);
    else rmSync(path, { force: true });
    return true;
  } catch {
    return false;
  }
}
