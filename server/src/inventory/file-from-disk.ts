import { mayHoldResources, parseManifestInSteps } from '../manifest/parse';
import { runSteps, type Steps } from '../steps';
import type { Inventory } from './inventory';

/**
 * The inventory takes the file at `disk` as it is on disk, in place of what it holds under `uri` (an open
 * document that closes, or the file as it was read before), or holds nothing there when the file cannot
 * be read (`readDisk` throws) or cannot hold a resource. The same text keeps its parse: closing a saved
 * 100,000-line file parsed it again, a quarter of its cold open with nothing answered meanwhile. Returns
 * whether the text changed.
 */
export function takeFileFromDisk(inventory: Inventory, uri: string, disk: string, readDisk: () => string): boolean {
  return runSteps(takeFileFromDiskInSteps(inventory, uri, disk, readDisk));
}

/**
 * takeFileFromDisk, pausing as it parses the file (one of 30 MB held the server up for 4 s). Unless the file is
 * still `wanted` once parsed (not opened in the editor meanwhile), or its key changed meanwhile, the parse is dropped.
 */
export function* takeFileFromDiskInSteps(inventory: Inventory, uri: string, disk: string, readDisk: () => string, wanted: () => boolean = () => true): Steps<boolean> {
  const held = inventory.getFile(uri);
  const revision = inventory.revisionOf(disk);
  let onDisk: string | undefined;
  try {
    onDisk = readDisk();
  } catch {
    onDisk = undefined;
  }
  const sameKey = uri === disk;
  if (sameKey && held && held.text === onDisk) return false;
  // Under the same key, the file on disk replaces the one held: only the resources that differ move, and its
  // documents that are as on disk keep their parses.
  if (!sameKey) inventory.removeFile(uri);
  // A file that cannot hold a resource (a package-lock.json rewritten by an install) is not parsed: it adds nothing.
  if (onDisk !== undefined && mayHoldResources(disk, onDisk)) {
    const parsed = yield* parseManifestInSteps(disk, onDisk, sameKey ? held : undefined);
    if (!wanted() || inventory.revisionOf(disk) !== revision) return false;
    inventory.setFile(parsed);
  } else inventory.removeFile(disk);
  return held?.text !== inventory.getFile(disk)?.text;
}
