import { realpathSync } from 'node:fs';
import { fixFile } from '../fixes/apply';
import { describeFileError } from '../files/read-bounded';
import { within } from '../files/within';
import type { Inventory } from '../inventory/inventory';
import { writeManifestFile, type ManifestEncoding } from '../inventory/manifest-files';
import { parseManifest } from '../manifest/parse';
import { onInterrupt } from '../on-interrupt';
import { plural, sentenceList } from '../words';
import type { Io } from './check';

export interface FixOutcome {
  changed: { path: string; fixes: number }[];
  unchanged: { path: string; reason: string }[];
  /** Fixes offered ("fixable") that were tried and did not take their finding away: the rules, by file. */
  notApplied: { path: string; ruleIds: string[] }[];
  /** Files written that had other hard links: replaced, they part from those, which keep the text they had. */
  unlinked: { path: string; others: number }[];
}

/** Passes over the files at most: each after one that wrote a file (a fix in one file can bring one in another). */
const MAX_PASSES = 5;

/**
 * `--fix` over the files read: each file is replaced atomically at its real path, and only when that
 * path lies inside the tree it was found in (the folder named, or the named file's own folder), so a
 * link cannot lead a fix outside what the user asked to fix. A file that cannot be written keeps its
 * content and its findings; the other files are still fixed. A fix in one file can bring a finding in another
 * already passed (an HPA's minReplicas raised to 2 makes its Deployment, in a file before, need a budget and
 * spreading): the files are passed over again while a pass writes one.
 */
export async function fixFiles(
  paths: string[],
  trees: Map<string, string>,
  sources: Map<string, { text: string; encoding: ManifestEncoding }>,
  inventory: Inventory,
  options: Parameters<typeof fixFile>[3],
  io?: Io,
): Promise<FixOutcome> {
  const unchanged = new Map<string, string>();
  const fixes = new Map<string, number>();
  const notApplied = new Map<string, string[]>();
  const unlinked = new Map<string, number>();
  // What each file holds now (what the last pass wrote). Each real file comes once (collectFileTrees saw to it).
  const held = new Map([...sources].map(([path, source]) => [path, source.text]));
  const writable = new Map<string, string>();
  const unwritable = new Map<string, string>();
  for (const path of paths) {
    if (path === '-') continue;
    const target = realTargetInside(path, trees.get(path) ?? path);
    if ('reason' in target) unwritable.set(path, target.reason);
    else writable.set(path, target.real);
  }
  // Ctrl-C (or a cancelled job) between two files ends the run there, saying what was written: a signal is heard only
  // when the event loop turns, and the writes ran in one go (3,000 files were all written after a Ctrl-C).
  const outcome = (): FixOutcome => ({
    changed: [...fixes].map(([path, count]) => ({ path, fixes: count })),
    unchanged: [...unchanged].map(([path, reason]) => ({ path, reason })),
    notApplied: [...notApplied].map(([path, ruleIds]) => ({ path, ruleIds })),
    unlinked: [...unlinked].map(([path, others]) => ({ path, others })),
  });
  const forget = onInterrupt(() => {
    if (!io) return;
    // However the run ends meanwhile: Ctrl-C, a signal, or an error.
    io.stderr('kube-resilience check: stopped: no more files are written');
    reportFixes(outcome(), io, true);
  });
  try {
    for (let pass = 0, wrote = true; wrote && pass < MAX_PASSES; pass++) {
      wrote = false;
      for (const [path, real] of writable) {
        await turnOfTheEventLoop();
        if (writeFixed(path, real)) wrote = true;
      }
    }
  } finally {
    forget();
  }
  // Judged against the other files as fixed: a fix there can call for one here that cannot be written.
  for (const [path, reason] of unwritable) {
    const text = sources.get(path)!.text;
    // Unfixed, but only worth a word when there was something to fix.
    if (fixFile(path, text, inventory, options).text !== text) unchanged.set(path, reason);
    inventory.setFile(parseManifest(path, text));
  }
  return outcome();

  /** Fixes the file and writes it; whether it wrote. */
  function writeFixed(path: string, real: string): boolean {
    if (unchanged.has(path)) return false;
    const text = held.get(path)!;
    const fixed = fixFile(path, text, inventory, options);
    if (fixed.refused) {
      // Grown past the bound by what an earlier pass wrote (a PDB for each Deployment): that stays written, and
      // whatever may be left is reported as findings. Said "unchanged", it was told as both changed and not.
      if (!fixes.has(path)) unchanged.set(path, fixed.refused);
      return false;
    }
    if (fixed.notApplied.length) notApplied.set(path, [...new Set(fixed.notApplied.map((f) => f.ruleId))]);
    else notApplied.delete(path);
    if (fixed.text === text) return false;
    try {
      const others = writeManifestFile(real, fixed.text, sources.get(path)!.encoding, text);
      if (others > 0 && !unlinked.has(path)) unlinked.set(path, others);
      held.set(path, fixed.text);
      fixes.set(path, (fixes.get(path) ?? 0) + fixed.applied.length);
      return true;
    } catch (error) {
      // What the other files are fixed against, and what is reported, is what stays on disk.
      inventory.setFile(parseManifest(path, text));
      notApplied.delete(path);
      const kept = fixes.has(path) ? ' (it keeps the fixes an earlier pass wrote)' : '';
      unchanged.set(path, `${describeFileError(error)}${kept}`);
      return false;
    }
  }
}

/** Lets the event loop turn once: a signal that came meanwhile is handled then. */
function turnOfTheEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The real path of `path` when it lies inside `tree` (links resolved on both sides), or why it does not. */
export function realTargetInside(path: string, tree: string): { real: string } | { reason: string } {
  let real: string;
  let realTree: string;
  try {
    real = realpathSync(path);
    realTree = realpathSync(tree);
  } catch (error) {
    return { reason: describeFileError(error) };
  }
  // By its folders, not its letters: `..app.yaml` lies inside the tree (it was said to be outside).
  if (!within(realTree, real)) return { reason: `a link to ${real}, outside ${tree}: not written` };
  return { real };
}

/** Replaced whole (never half written), a file parts from its other hard links: said, since nothing else shows it. */
export function reportUnlinked(unlinked: readonly { path: string; others: number }[], io: Io): void {
  for (const { path, others } of unlinked) io.stderr(`  ${path} had ${plural(others, 'other hard link')}, which keep${others === 1 ? 's' : ''} the text it had: a fix replaces the file`);
}

/** On stderr, so that --format json and sarif stay one document on stdout. */
export function reportFixes(outcome: FixOutcome, io: Io, interrupted = false): void {
  const fixes = outcome.changed.reduce((sum, file) => sum + file.fixes, 0);
  io.stderr(`kube-resilience check: applied ${plural(fixes, 'fix', 'fixes')} in ${plural(outcome.changed.length, 'file')}`);
  if (interrupted) for (const file of outcome.changed) io.stderr(`  changed   ${file.path} (${plural(file.fixes, 'fix', 'fixes')})`);
  for (const { path, ruleIds } of outcome.notApplied) {
    const what = ruleIds.length === 1 ? `the fix of ${ruleIds[0]} did not take its finding` : `the fixes of ${sentenceList(ruleIds)} did not take their findings`;
    io.stderr(`  not applied in ${path}: ${what} away (or would break the file)`);
  }
  reportUnlinked(outcome.unlinked, io);
  if (!outcome.unchanged.length) return;
  for (const file of outcome.changed) io.stderr(`  changed   ${file.path} (${plural(file.fixes, 'fix', 'fixes')})`);
  for (const file of outcome.unchanged) io.stderr(`  unchanged ${file.path}: ${file.reason}`);
  io.stderr(`kube-resilience check: --fix could not fix ${plural(outcome.unchanged.length, 'file')}; each file is written whole or not at all`);
}
