import { parseManifest } from '../manifest/parse';
import type { Inventory } from './inventory';

/**
 * An open document (`uri`) closes: the inventory holds its file on disk (`disk`) instead, or nothing
 * where that cannot be read (`readDisk` throws). A document closed as it is on disk keeps its parse:
 * closing a saved 100,000-line file parsed it again, a quarter of its cold open with nothing answered
 * meanwhile. Returns whether the text the other documents see changed.
 */
export function fallBackToDisk(inventory: Inventory, uri: string, disk: string, readDisk: () => string): boolean {
  const open = inventory.getFile(uri);
  let onDisk: string | undefined;
  try {
    onDisk = readDisk();
  } catch {
    onDisk = undefined;
  }
  if (open && open.uri === disk && open.text === onDisk) return false;
  // Under the same key, the file on disk replaces the document's: only the resources that differ move.
  if (uri !== disk) inventory.removeFile(uri);
  // Where it was edited and not saved, its documents that are as on disk keep their parses.
  if (onDisk !== undefined) inventory.setFile(parseManifest(disk, onDisk, open?.uri === disk ? open : undefined));
  else inventory.removeFile(disk);
  return open?.text !== inventory.getFile(disk)?.text;
}
