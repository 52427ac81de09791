import { existsSync, realpathSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic-write';
import { describeFileError, readRegularFileBounded } from '../files/read-bounded';
import { applyEdits } from '../fixes/edit';
import { decodeManifest, MAX_MANIFEST_BYTES, writeManifestFile, type ManifestEncoding } from '../inventory/manifest-files';
import type { SourceEdits } from '../render/types';

/**
 * Writes a fix's source edits, all or none: a write that fails undoes those before it. Undefined (nothing
 * written) when a file to create exists already; the file that stopped it and why when one cannot be read
 * or written.
 */
export function writeSourceEdits(edits: SourceEdits): 'written' | { path: string; reason: string } | undefined {
  if (edits.creates.some((c) => existsSync(c.path))) return undefined;
  const writes: { path: string; before?: Buffer; text: string; encoding: ManifestEncoding }[] = [];
  for (const edit of edits.edits) {
    try {
      const before = readRegularFileBounded(edit.path, MAX_MANIFEST_BYTES);
      const { text, encoding } = decodeManifest(before);
      // Written at its real path: a link stays a link.
      writes.push({ path: realpathSync(edit.path), before, text: applyEdits(text, edit.edits), encoding });
    } catch (error) {
      return { path: edit.path, reason: describeFileError(error) };
    }
  }
  for (const create of edits.creates) writes.push({ path: create.path, text: create.text, encoding: 'utf8' });
  const done: typeof writes = [];
  for (const write of writes) {
    try {
      writeManifestFile(write.path, write.text, write.encoding);
      done.push(write);
    } catch (error) {
      const notUndone = done.reverse().filter((undo) => !undoWrite(undo.path, undo.before));
      const left = notUndone.length ? `; could not put back ${notUndone.map((w) => w.path).join(', ')}` : '';
      return { path: write.path, reason: `${describeFileError(error)}${left}` };
    }
  }
  return 'written';
}

/** Puts back the bytes a file held, or removes a file that was created; false when that fails too. */
function undoWrite(path: string, before: Buffer | undefined): boolean {
  try {
    if (before) writeFileAtomic(path, before);
    else rmSync(path, { force: true });
    return true;
  } catch {
    return false;
  }
}
