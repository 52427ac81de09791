import { mayHoldResources, parseManifest } from '../manifest/parse';
import type { Inventory } from './inventory';

/**
 * The inventory takes the file at `disk` as it is on disk, in place of what it holds under `uri` (an open
 * document that closes, or the file as it was read before), or holds nothing there when the file cannot
 * be read (`readDisk` throws) or cannot hold a resource. The same text keeps its parse: closing a saved
 * 100,000-line file parsed it again, a quarter of its cold open with nothing answered meanwhile. Returns
 * whether the text changed.
 */
export function takeFileFromDisk(inventory: Inventory, uri: string, disk: string, readDisk: () => string): boolean {
  const held = inventory.getFile(uri);
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
  if (onDisk !== undefined && mayHoldResources(disk, onDisk)) inventory.setFile(parseManifest(disk, onDisk, sameKey ? held : undefined));
  else inventory.removeFile(disk);
  return held?.text !== inventory.getFile(disk)?.text;
}
