import type { ClusterInfo } from '../cluster/types';
import type { Fix } from '../fixes/edit';
import type { Inventory } from '../inventory/inventory';
import type { ManifestDocument, ManifestFile, Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import type { Range } from '../manifest/text';

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeverityOverride = Severity | 'off';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

export type Scenario =
  | 'voluntary-disruption'
  | 'involuntary-disruption'
  | 'health-checks'
  | 'special-hardware'
  | 'node-agents'
  | 'control-plane'
  | 'scheduling'
  | 'input';

export interface RuleMeta {
  id: string;
  severity: Severity;
  scenario: Scenario;
  /** One line: what the rule finds. */
  title: string;
  /** One paragraph: what fails, when, and why. */
  description: string;
  /** What the fix writes, when the rule has one. */
  fix?: string;
  /** When its fixes can change what the application does (then unsafe: offered, applied only by --unsafe-fixes); unset when they never do. */
  unsafeFixes?: string;
  /** YAML (one or more documents) on which the rule fires; the docs show it with the real finding and fixed output. */
  example?: string;
  /** Findings need a live cluster (or snapshot) to be known at all. */
  needsCluster?: boolean;
  /** Its messages count the file's documents ("Document 3 …"): a finding holds only while its document keeps its place. */
  countsDocuments?: boolean;
}

export interface RelatedLocation {
  uri: string;
  range: Range;
  message: string;
}

/** The resource a finding is about, as the CLI and SARIF name it. */
export interface ResourceRef {
  kind: string;
  name: string | null;
  namespace: string;
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  /** null for cluster findings that belong to no file. */
  uri: string | null;
  range: Range | null;
  resource: ResourceRef | null;
  fixes: Fix[];
  related: RelatedLocation[];
  /** Where in the resource the finding is about, as the rule reported it (a rendered finding is mapped back by it). */
  fieldPath?: Path;
  /** Set when the finding was found in what a chart or a Kustomize root renders, and mapped back to its source. */
  rendered?: { tool: 'helm' | 'kustomize'; unit: string };
  /** For a rendered finding: where the field's value comes from ("values key replicaCount in values.yaml"). */
  origin?: string;
}

export type ReportedFixes = (Fix | undefined)[];

/** What a rule reports; the engine turns it into a Finding (range, severity, suppression, ignore actions). */
export interface Report {
  resource?: Resource;
  /** Where in the resource: the key of the deepest existing pair along this path. Default: `kind`. */
  path?: Path;
  /** Underline the key (default), the value, or both. */
  target?: 'key' | 'value' | 'pair';
  /** An explicit range, for findings not tied to a path (invalid YAML). */
  range?: Range;
  message: string;
  /** Overrides the rule's default, for rules whose severity depends on what is known. */
  severity?: Severity;
  /** A function is called only when someone asks for the fixes (a code action, --fix, the JSON report). */
  fixes?: ReportedFixes | (() => ReportedFixes);
  /** Other resources the finding is about (the PDB, the HPA), with a word on each. */
  related?: { resource: Resource; path?: Path; message: string }[];
}

export interface RuleContext {
  /** The file under analysis; absent when the cluster's own resources are analysed. */
  file?: ManifestFile;
  /**
   * The documents under analysis: the file's, or only some of them when an edit changed those (a rule
   * that reads the text itself reads these documents, not all of `file.documents`).
   */
  documents: readonly ManifestDocument[];
  /** The resources under analysis: those of `documents`, or the cluster's. */
  resources: Resource[];
  inventory: Inventory;
  cluster?: ClusterInfo;
  /** Ids of every rule in the catalogue, whichever of them run now (to validate ignore lists). */
  ruleIds: readonly string[];
  report(report: Report): void;
}

export interface Rule {
  meta: RuleMeta;
  check(context: RuleContext): void;
}
