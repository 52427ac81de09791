import type { Inventory } from '../inventory/inventory';
import { parseManifest, type ManifestFile } from '../manifest/parse';
import { analyzeFile, type AnalyzeOptions } from '../rules/engine';
import type { Finding } from '../rules/types';
import { applyEdits, type Fix } from './edit';

/** The fix a "fix" keystroke or `--fix` applies: the preferred one, never an ignore. */
export function preferredFix(finding: Finding): Fix | undefined {
  return finding.fixes.find((f) => f.preferred) ?? undefined;
}

/**
 * Applies preferred fixes one at a time, re-analysing after each, until none is left (or a fix
 * stops making progress). One at a time because fixes of different findings may touch the same lines.
 */
export function fixFile(
  uri: string,
  text: string,
  inventory: Inventory,
  options: AnalyzeOptions = {},
  accept: (finding: Finding) => boolean = () => true,
): { text: string; applied: string[] } {
  const applied: string[] = [];
  const stuck = new Set<string>();
  // Texts already passed through: two fixes that undo each other must not loop.
  const seen = new Set<string>([text]);
  let current = text;
  for (let round = 0; round < 500; round++) {
    const file = parseManifest(uri, current);
    inventory.setFile(file);
    const findings = analyzeFile(file, inventory, options).filter((f) => f.uri === uri && accept(f));
    const next = findings.find((f) => preferredFix(f) && !stuck.has(signature(f)));
    if (!next) break;
    const before = signature(next);
    const fixed = applyEdits(current, preferredFix(next)!.edits);
    if (seen.has(fixed)) {
      stuck.add(before);
      continue;
    }
    const reparsed = parseManifest(uri, fixed);
    // A fix that would break the file, or that leaves its finding in place, is not applied.
    if (brokenDocuments(reparsed) > brokenDocuments(file) || (reparsed.templateAt !== undefined && file.templateAt === undefined)) {
      stuck.add(before);
      continue;
    }
    inventory.setFile(reparsed);
    if (analyzeFile(reparsed, inventory, options).some((f) => signature(f) === before)) {
      stuck.add(before);
      continue;
    }
    seen.add(fixed);
    applied.push(next.ruleId);
    current = fixed;
  }
  inventory.setFile(parseManifest(uri, current));
  return { text: current, applied };
}

function brokenDocuments(file: ManifestFile): number {
  return file.documents.filter((d) => d.parsed.error).length;
}

function signature(finding: Finding): string {
  return `${finding.ruleId}|${finding.resource?.kind}|${finding.resource?.namespace}|${finding.resource?.name}|${finding.message}`;
}
