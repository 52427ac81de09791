import type { ClusterInfo } from '../cluster/types';
import { LazyProperty } from '../lazy-property';
import type { Fix } from '../fixes/edit';
import { insertCommentAbove, setField } from '../fixes/yaml-edit';
import type { Inventory } from '../inventory/inventory';
import type { ManifestDocument, ManifestFile, Resource } from '../manifest/parse';
import { writtenAnnotations } from '../manifest/declared';
import { rangeOfPath } from '../manifest/path';
import type { Range } from '../manifest/text';
import { describeResource } from '../manifest/workload';
import { compareCodeUnits } from '../sorted';
import { RULES } from './index';
import { IGNORE_ANNOTATION, IGNORE_COMMENT, ignoredByAnnotation, ignoredByComment } from './suppression';
import type { Finding, RelatedLocation, Report, ReportedFixes, Rule, RuleContext, SeverityOverride } from './types';

export interface AnalyzeOptions {
  /** Severity per rule id, or 'off'. */
  severities?: Record<string, SeverityOverride>;
  cluster?: ClusterInfo;
  rules?: readonly Rule[];
}

/** Findings for one file of manifests, with every other resource of the inventory in view. */
export function analyzeFile(file: ManifestFile, inventory: Inventory, options: AnalyzeOptions = {}): Finding[] {
  return run({ file, documents: file.documents, resources: file.resources, inventory, cluster: options.cluster }, options);
}

/** Findings for some documents of a file: their resources' own rules and what relates them to others. */
export function analyzeDocuments(file: ManifestFile, documents: readonly ManifestDocument[], inventory: Inventory, options: AnalyzeOptions = {}): Finding[] {
  return run({ file, documents, resources: documents.flatMap((d) => d.resources), inventory, cluster: options.cluster }, options);
}

/** Findings about the cluster's own resources (nodes, CoreDNS, …), which belong to no file. */
export function analyzeCluster(inventory: Inventory, options: AnalyzeOptions & { cluster: ClusterInfo }): Finding[] {
  return run({ documents: [], resources: inventory.clusterManaged(), inventory, cluster: options.cluster }, options);
}

/** Every rule id there is, for rules that validate ids people write (the registry cannot be imported by a rule). */
const RULE_IDS: readonly string[] = RULES.map((r) => r.meta.id);

function run(base: Omit<RuleContext, 'report' | 'ruleIds'>, options: AnalyzeOptions): Finding[] {
  const findings: Finding[] = [];
  const rules = options.rules ?? RULES;
  const { file } = base;
  if (file?.clusterSnapshot) return findings;
  const skipRules = file?.templateAt !== undefined;
  // One context for every rule, its report going to the rule that runs: this runs for every document.
  let rule: Rule;
  let override: SeverityOverride | undefined;
  const context: RuleContext = {
    file,
    documents: base.documents,
    resources: base.resources,
    inventory: base.inventory,
    cluster: base.cluster,
    ruleIds: RULE_IDS,
    report(report) {
      const finding = toFinding(rule, report, file);
      if (!finding) return;
      if (override && override !== 'off') finding.severity = override;
      findings.push(finding);
    },
  };
  for (rule of rules) {
    override = options.severities?.[rule.meta.id];
    if (override === 'off') continue;
    if (skipRules && rule.meta.id !== 'templated-file') continue;
    try {
      rule.check(context);
    } catch (error) {
      // A rule that trips over odd input must not take the other rules down with it.
      findings.push({
        ruleId: rule.meta.id,
        severity: 'hint',
        message: `Internal error in rule ${rule.meta.id}: ${(error as Error).message}`,
        uri: file?.uri ?? null,
        range: file ? file.lines.range(0, 0) : null,
        resource: null,
        fixes: [],
        related: [],
      });
    }
  }
  return findings.sort(compareFindings);
}

export function compareFindings(a: Finding, b: Finding): number {
  const la = a.range?.start.line ?? -1;
  const lb = b.range?.start.line ?? -1;
  // Rule ids are lowercase ASCII words joined by hyphens, which code units order as localeCompare does; it
  // asked ICU for each of the thousands of findings at one place as another, every keystroke.
  return la - lb || (a.range?.start.character ?? 0) - (b.range?.start.character ?? 0) || compareCodeUnits(a.ruleId, b.ruleId);
}

function toFinding(rule: Rule, report: Report, file: ManifestFile | undefined): Finding | undefined {
  const { resource } = report;
  const onFile = !!(file && resource?.file === file) || (!!file && !resource);
  const range: Range | null = report.range ?? (resource && onFile ? rangeOfPath(resource, report.path ?? [], report.target) : null);
  if (ignoredByAnnotation(resource).includes(rule.meta.id)) return undefined;
  if (file && range && ignoredByComment(file, range.start.line).includes(rule.meta.id)) return undefined;
  const own = () => ownFixes(report).filter((f): f is Fix => !!f && f.edits.length > 0);
  const ignore = () => (resource && file && onFile && range ? ignoreFixes(rule.meta.id, resource, file, range) : []);
  return withLazyFixes(
    {
      ruleId: rule.meta.id,
      severity: report.severity ?? rule.meta.severity,
      message: report.message,
      uri: onFile && file ? file.uri : resource?.file?.uri ?? null,
      range,
      resource: resource ? { kind: resource.kind, name: resource.name, namespace: resource.namespace } : null,
      ...(resource && onFile ? { fieldPath: report.path ?? [] } : {}),
      related: boundedRelated(report.related ?? []).flatMap((r) => relatedLocation(r.resource, r.path, r.message)),
    },
    own,
    ignore,
  );
}

/** The most related locations a finding carries: each is a line of its diagnostic, and a cross-resource finding over hundreds listed them all. */
export const MAX_RELATED = 20;

/**
 * At most MAX_RELATED related locations, the last saying how many more there are: 250 PDBs over one selector made
 * 250 findings of 500 locations each, published as 125,000 lines of related information.
 */
function boundedRelated(related: NonNullable<Report['related']>): NonNullable<Report['related']> {
  if (related.length <= MAX_RELATED) return related;
  const kept = related.slice(0, MAX_RELATED);
  const last = kept[MAX_RELATED - 1];
  kept[MAX_RELATED - 1] = { ...last, message: `${last.message} (and ${related.length - MAX_RELATED} more)` };
  return kept;
}

/** A rule's own fixes; one that cannot be written on odd input is no fix (the ignore actions remain). */
function ownFixes(report: Report): ReportedFixes {
  try {
    return typeof report.fixes === 'function' ? report.fixes() : report.fixes ?? [];
  } catch {
    return [];
  }
}

/** A finding's fixes, when they are written on demand (see withLazyFixes); their part 'own' leaves out the ignore actions. */
export const FIXES = new LazyProperty<Fix[], FixesPart>('fixes', true);

export type FixesPart = 'own';

/**
 * Writing fixes renders YAML for every finding, most of which nobody fixes: they are computed when
 * first read (a code action, --fix, a report), once, while the finding's parse is still the one it
 * points into. The rule's own fixes come first, then the ignore actions, which are written only when
 * all the fixes are read: a fix-all, which applies a rule's preferred fix, reads only the rule's own.
 */
function withLazyFixes(finding: Omit<Finding, 'fixes'>, computeOwn: () => Fix[], computeIgnore: () => Fix[]): Finding {
  let own: Fix[] | undefined;
  let all: Fix[] | undefined;
  return FIXES.define(finding as Finding, (part) => {
    own ??= computeOwn();
    return part === 'own' ? own : (all ??= [...own, ...computeIgnore()]);
  });
}

/**
 * The fixes a rule wrote for a finding, without the ignore actions offered with every finding; all of
 * them when the finding holds its fixes as a plain value (a copy, a test's finding).
 */
export function ownFixesOf(finding: Finding): Fix[] {
  return FIXES.readPart(finding, 'own');
}

function relatedLocation(resource: Resource, path: readonly (string | number)[] | undefined, message: string): RelatedLocation[] {
  if (!resource.file) return [];
  return [{ uri: resource.file.uri, range: rangeOfPath(resource, path ?? []), message: `${describeResource(resource)}: ${message}` }];
}

/** "Ignore for this resource" (annotation) and "Ignore here" (comment), offered with every finding. */
function ignoreFixes(ruleId: string, resource: Resource, file: ManifestFile, range: Range): Fix[] {
  const fixes: Fix[] = [];
  // Extend the ignore annotation that decides (the pod template's wins), or start one on the resource.
  const written = writtenAnnotations(resource).filter((a) => a.key === IGNORE_ANNOTATION);
  const deciding = written[written.length - 1];
  const existing = typeof deciding?.value === 'string' ? deciding.value.trim() : '';
  const ids = existing ? `${existing},${ruleId}` : ruleId;
  const annotation = setField(resource, deciding?.path ?? ['metadata', 'annotations', IGNORE_ANNOTATION], ids);
  if (annotation) fixes.push({ title: `Ignore ${ruleId} for ${describeResource(resource)}`, edits: annotation });
  // JSON has no comments: kubectl would reject the file.
  if (!/\.json$/i.test(file.uri)) {
    const edits = insertCommentAbove(file, file.lines.offset(range.start), `${IGNORE_COMMENT} ${ruleId} -- accepted risk`);
    if (edits) fixes.push({ title: `Ignore ${ruleId} here`, edits });
  }
  return fixes;
}
