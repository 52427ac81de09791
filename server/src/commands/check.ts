import { jsonText } from '../printable';
import { realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadClusterFromArgs, CLUSTER_OPTIONS } from './cluster-args';
import { checkUnits, fixUnits, RENDER_OPTIONS } from './check-units';
import { UsageError } from './usage-error';
import { describeFileError, withUnreadableName } from '../files/read-bounded';
import { fixFiles, realTargetInside, reportFixes, reportUnlinked } from './fix-files';
import { preferredFix } from '../fixes/apply';
import { plural } from '../words';
import { Inventory } from '../inventory/inventory';
import { decodeManifest, findManifestFiles, MAX_MANIFESTS_PER_WALK, readManifestFile, type ManifestEncoding } from '../inventory/manifest-files';
import { parseManifest } from '../manifest/parse';
import { toJsonReport } from '../output/json';
import { toSarif } from '../output/sarif';
import { toText } from '../output/text';
import { analyzeCluster, analyzeFile } from '../rules/engine';
import { RULES, ruleById } from '../rules/index';
import { SEVERITIES, type Finding, type Severity, type SeverityOverride } from '../rules/types';

export const CHECK_USAGE = `kube-resilience check [PATH ...] [--format text|json|sarif] [--fail-on error|warning|info|none]
                      [--fix [--unsafe-fixes]] [--verbose] [--sarif-root DIR] [--rule ID=off|error|warning|info|hint ...]
                      [--render auto|off] [--values FILE ...] [--set KEY=VALUE ...] [--release NAME] [--namespace NS]
                      [--context NAME | --kubeconfig FILE | --snapshot FILE | --demo] [--timeout SECONDS]`;

// A hint is a nudge, never a failure: no --fail-on level reaches it.
const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1, hint: 0 };

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input's bytes (a manifest piped in: UTF-8, or UTF-16 with its byte-order mark). */
  readStdin: () => Buffer;
  isTty: boolean;
  /** The terminal's width when stdout is one, for wrapping the text report. */
  columns?: number;
  version: string;
}

function parseRuleOverrides(values: string[]): Record<string, SeverityOverride> {
  const out: Record<string, SeverityOverride> = {};
  for (const value of values) {
    const match = /^([a-z0-9-]+)=(off|error|warning|info|hint)$/.exec(value);
    if (!match) throw new UsageError(`--rule takes ID=off|error|warning|info|hint, not "${value}"`);
    if (!ruleById(match[1])) throw new UsageError(`unknown rule "${match[1]}" (see kube-resilience rules)`);
    // Two severities for one rule (a script's default and an override) took the last one without a word.
    if (out[match[1]] !== undefined && out[match[1]] !== match[2]) throw new UsageError(`--rule ${match[1]} is given twice, as ${out[match[1]]} and as ${match[2]}: give it once`);
    out[match[1]] = match[2] as SeverityOverride;
  }
  return out;
}

/** PATHs as given → manifest files, each named as the user would name it. */
export function collectFiles(paths: string[], skipped?: (path: string, reason: string) => void): string[] {
  return [...collectFileTrees(paths, skipped).keys()];
}

/**
 * Each manifest file → the tree it was found in: the folder named, or a named file's own folder. A file a folder's
 * walk cannot read (larger than 32 MB, not to be looked at) is passed to `skipped`, and the others are still read.
 */
export function collectFileTrees(paths: string[], skipped: (path: string, reason: string) => void = () => undefined, limit = MAX_MANIFESTS_PER_WALK): Map<string, string> {
  const trees = new Map<string, string>();
  const files = paths.flatMap((path) => {
    if (path === '-') return [['-', '-']];
    if (path === '') throw new UsageError('an empty path names no file or folder');
    let stat;
    try {
      stat = statSync(path);
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${describeFileError(withUnreadableName(path, error))}`);
    }
    // The folder named that cannot be read is an unreadable path; a file or a folder within it is skipped and named,
    // and the rest is checked (a subfolder without read permission took the whole report with it).
    const unreadable = (found: string, error: unknown, what: 'folder' | 'file') => {
      if (what === 'file' || found !== path) return skipped(found, describeFileError(error));
      throw new UsageError(`cannot read ${found}: ${describeFileError(error)}`);
    };
    if (!stat.isDirectory()) return [[path, dirname(path)]];
    // One more than the limit is looked for: a folder of exactly the limit is checked whole.
    const found = findManifestFiles(path, limit + 1, unreadable);
    // Past the limit the rest is not checked: said, and the run is not clean (a finding there would pass CI unseen).
    if (found.length > limit) skipped(path, `it holds more than ${limit.toLocaleString('en')} manifests: only the first ${limit.toLocaleString('en')} found are checked (name its subfolders in runs of their own)`);
    return found.slice(0, limit).map((file) => [file, path]);
  });
  // `check k8s k8s/app.yaml`, `./a.yaml a.yaml` or a folder and a link to it name one file twice: counted twice, its PDB would cover twice.
  const chosen = new Map<string, [string, string]>();
  for (const [file, tree] of files) {
    const identity = file === '-' ? file : realPath(file);
    const earlier = chosen.get(identity);
    // Kept under a name whose tree holds it: a link out of its tree is never written, so `--fix t o/out.yaml` (t/link.yaml
    // leading to o/out.yaml) left the file a person named unfixed, where `--fix o/out.yaml t` fixed it.
    if (earlier && !(leadsOutOfTree(...earlier) && !leadsOutOfTree(file, tree))) continue;
    chosen.set(identity, [file, tree]);
  }
  for (const [file, tree] of chosen.values()) trees.set(file, tree);
  return trees;
}

function leadsOutOfTree(file: string, tree: string): boolean {
  return file !== '-' && 'reason' in realTargetInside(file, tree);
}

/** The file's real path (links resolved), or its absolute path when it has none (it went away). */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** A manifest as read (`-` is stdin), with the encoding a fix writes it back in; `command` takes stdin when it is `check`. */
function readManifestSource(path: string, io: Io, command = 'check'): { text: string; encoding: ManifestEncoding } {
  try {
    return path === '-' ? decodeManifest(io.readStdin()) : readManifestFile(path);
  } catch (error) {
    const hint = (error as { code?: string }).code === 'ENOTREGULAR' && command === 'check' ? ' (pipe it to stdin: check -)' : '';
    throw new UsageError(`cannot read ${path === '-' ? 'stdin' : path}: ${describeFileError(error)}${hint}`);
  }
}

/**
 * A manifest a run reads: one `named` that cannot be read is an unreadable path (a usage error); one a folder's walk
 * found (in a folder whose permissions keep it out) is passed to `skip`, and the rest is read on.
 */
export function readFoundManifest(path: string, named: readonly string[], io: Io, command: string, skip: (path: string, reason: string) => void): { text: string; encoding: ManifestEncoding } | undefined {
  if (path === '-' || named.includes(path)) return readManifestSource(path, io, command);
  try {
    return readManifestFile(path);
  } catch (error) {
    skip(path, describeFileError(error));
    return undefined;
  }
}

export async function runCheck(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      'fail-on': { type: 'string', default: 'warning' },
      fix: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      'sarif-root': { type: 'string' },
      'unsafe-fixes': { type: 'boolean', default: false },
      rule: { type: 'string', multiple: true, default: [] },
      ...CLUSTER_OPTIONS,
      ...RENDER_OPTIONS,
    },
  });
  const format = values.format!;
  if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`--format takes text, json or sarif, not "${format}"`);
  const failOn = values['fail-on']!;
  if (![...SEVERITIES, 'none'].includes(failOn) || failOn === 'hint') throw new UsageError(`--fail-on takes error, warning, info or none, not "${failOn}"`);
  if (values['unsafe-fixes'] && !values.fix) throw new UsageError('--unsafe-fixes goes with --fix: it lets --fix apply fixes that can change what the application does');
  if (values['sarif-root'] !== undefined) checkSarifRoot(values['sarif-root'], format);
  const severities = parseRuleOverrides(values.rule as string[]);
  const named = positionals.length ? positionals : ['.'];
  // A file passed over is said, and makes the run unclean (exit 2) as a fix not written does: the check is not whole.
  const skipped = new Set<string>();
  const skip = (path: string, reason: string) => {
    if (!skipped.has(path)) io.stderr(`kube-resilience check: skipped ${path}: ${reason}`);
    skipped.add(path);
  };
  let trees = collectFileTrees(named, skip);
  // A file named that cannot be read (a FIFO, one too large) is refused before any fix is written: it was refused
  // after those of the charts and Kustomize roots had been.
  if (values.fix) for (const path of named) if (path !== '-' && trees.has(path)) readManifestSource(path, io);
  // On stderr, so that --format json and sarif stay one document on stdout.
  // After "skipped …": none found is not what happened, none could be read is.
  if (!trees.size) io.stderr(skipped.size ? `kube-resilience check: no manifest in ${named.join(', ')} could be read` : `kube-resilience check: no manifest found in ${named.join(', ')} (looked for *.yaml, *.yml, *.json)`);
  const cluster = await loadClusterFromArgs(values, io);
  let unfixedUnits = 0;
  let unitFixes = 0;
  if (values.fix) {
    const fixed = await fixUnits(named, () => collectFiles(named), values, io, { severities, cluster, unsafeFixes: values['unsafe-fixes'] });
    if (fixed.applied) io.stderr(`kube-resilience check: applied ${plural(fixed.applied, 'fix', 'fixes')} to charts and Kustomize roots in ${plural(fixed.files.size, 'file')}`);
    reportUnlinked(fixed.unlinked, io);
    for (const { ruleId, path, reason, notPutBack } of fixed.failed) {
      const after = notPutBack.length ? `could not put back ${notPutBack.join(', ')}` : "the fix's files were left as they were";
      io.stderr(`  not fixed ${ruleId}: ${path}: ${reason}; ${after}`);
    }
    unfixedUnits = fixed.failed.length;
    unitFixes = fixed.applied;
    // Collected again: those fixes may have written new files (a PDB beside an overlay, a chart template).
    if (fixed.files.size) trees = collectFileTrees(named, skip);
  }
  const units = await checkUnits([...trees.keys()], values, io, { severities, cluster });

  const inventory = new Inventory();
  if (cluster) inventory.setCluster(cluster.resources);
  const sources = new Map<string, { text: string; encoding: ManifestEncoding }>();
  for (const path of units.plainPaths) {
    const source = readFoundManifest(path, named, io, 'check', skip);
    if (!source) continue;
    sources.set(path, source);
    const file = parseManifest(path, source.text);
    inventory.setFile(file);
    // On stderr, so that --format json and sarif stay one document on stdout.
    if (file.clusterSnapshot) io.stderr(`kube-resilience check: ${path} is a cluster snapshot (live objects), not manifests: left out (load it with --snapshot ${path})`);
  }
  const paths = units.plainPaths.filter((path) => sources.has(path));
  const options = { severities, cluster };
  let unfixed = unfixedUnits;
  if (values.fix) {
    if (paths.includes('-')) io.stderr('kube-resilience check: --fix leaves stdin alone (nothing to write back to)');
    const outcome = await fixFiles(paths, trees, sources, inventory, { ...options, unsafeFixes: values['unsafe-fixes'] }, io);
    // "applied 0 fixes in 0 files" after the charts' fixes were said would read as if those were undone.
    if (unitFixes === 0 || paths.some((path) => path !== '-')) reportFixes(outcome, io);
    unfixed += outcome.unchanged.length + outcome.notApplied.length;
  }
  // Spread into an array, not pushed as arguments: a cluster of 70,000 Deployments has more findings than a call takes.
  const findings: Finding[] = [
    ...units.findings,
    ...paths.flatMap((path) => analyzeFile(inventory.getFile(path)!, inventory, options)),
    ...(cluster ? analyzeCluster(inventory, { ...options, cluster }) : []),
  ];

  // What the cluster did not let be read goes into the report too: a CI reading only it would not see stderr's warnings.
  if (format === 'json') io.stdout(toJsonReport(findings, cluster));
  else if (format === 'sarif') {
    const warnings = (cluster?.missing ?? []).map((m) => `could not read ${m.resource} from ${cluster!.name}: ${m.reason} (findings that need them are missing too)`);
    io.stdout(jsonText(toSarif(findings, RULES, io.version, { root: resolve(values['sarif-root'] ?? '.'), warnings })));
  }
  else {
    // Every file found and read counts, those of charts and Kustomize roots too (analysed as what they render), and
    // a file a finding points into that was not named (the values.yaml of a chart one template of which was).
    const analysed = new Set([...trees.keys()].filter((path) => !skipped.has(path) && !inventory.getFile(path)?.clusterSnapshot).map((path) => resolve(path)));
    for (const finding of findings) if (finding.uri && !finding.uri.includes('://')) analysed.add(resolve(finding.uri));
    io.stdout(toText(findings, analysed.size, { colour: io.isTty && !process.env.NO_COLOR, verbose: values.verbose, width: io.isTty ? io.columns : undefined }));
  }

  // Fixes asked for on stdin are fixes not written (nothing to write them back to).
  if (values.fix && findings.some((f) => f.uri === '-' && preferredFix(f, values['unsafe-fixes']))) unfixed++;
  // Fixes asked for and not written, or files passed over: not a clean run, whatever the findings.
  if (unfixed || skipped.size) return 2;
  if (failOn === 'none') return 0;
  const threshold = RANK[failOn as Severity];
  return findings.some((f) => RANK[f.severity] >= threshold) ? 1 : 0;
}

/** --sarif-root names the folder SARIF paths are relative to (a checkout's root): a typo would send every path off it. */
function checkSarifRoot(root: string, format: string): void {
  if (format !== 'sarif') throw new UsageError('--sarif-root goes with --format sarif: it names the folder the SARIF report\'s paths are relative to');
  let folder = false;
  try {
    folder = statSync(root).isDirectory();
  } catch {
    // Missing or unreadable: said below.
  }
  if (!folder) throw new UsageError(`--sarif-root takes a folder (the root the report's paths are relative to): ${root} is not one`);
}
