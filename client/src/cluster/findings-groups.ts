import type { ClusterFinding, ClusterStatus } from '../../../server/src/protocol';

export interface FindingGroup {
  /** "Node worker-1", "Namespace kube-system/…", or "Cluster" for findings about no one resource. */
  label: string;
  /**
   * The group's own id in the tree, which VS Code needs unique: one resource may have findings in both sections (a
   * CoreDNS Deployment's `dns-single-point` about the cluster, its probe findings about a live workload).
   */
  id: string;
  findings: ClusterFinding[];
}

export interface SourceGroup {
  /** "Cluster" (its own functions: control plane, DNS, nodes) or "Live workloads" (running, not defined in the workspace). */
  label: string;
  source: ClusterFinding['source'];
  groups: FindingGroup[];
}

const SEVERITY_ORDER = ['error', 'warning', 'info', 'hint'];
const SOURCES: { source: ClusterFinding['source']; label: string }[] = [
  { source: 'cluster', label: 'Cluster' },
  { source: 'workload', label: 'Live workloads' },
];

function resourceLabel(finding: ClusterFinding): string {
  const r = finding.resource;
  if (!r) return 'Cluster';
  const name = r.name ?? '(unnamed)';
  return `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${name}`;
}

/** Cluster findings grouped by the resource they are about, worst first, each said once. */
export function groupClusterFindings(findings: ClusterFinding[], section = ''): FindingGroup[] {
  const groups = new Map<string, ClusterFinding[]>();
  const sorted = [...findings].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.ruleId.localeCompare(b.ruleId));
  for (const finding of sorted) {
    const label = resourceLabel(finding);
    const members = groups.get(label) ?? [];
    // A rule reports once per container: the same words twice on one resource say nothing new.
    if (members.some((m) => m.ruleId === finding.ruleId && m.headline === finding.headline && m.details === finding.details)) continue;
    groups.set(label, [...members, finding]);
  }
  return [...groups].map(([label, members]) => ({ label, id: `${section}:${label}`, findings: members }));
}

/** The view's top level: where findings come from, the cluster's own shape first; empty sources left out. */
export function groupBySource(findings: ClusterFinding[]): SourceGroup[] {
  return SOURCES.map(({ source, label }) => ({ label, source, groups: groupClusterFindings(findings.filter((f) => (f.source ?? 'cluster') === source), source) })).filter(
    (group) => group.groups.length > 0,
  );
}

/**
 * What the view says when it has no finding to show: that the cluster read has none only when a cluster was read;
 * no cluster read (`off`, or a read that failed with no earlier view kept) finds nothing either.
 */
export function noFindingsNote(status: ClusterStatus | undefined): string {
  if (!status) return 'No cluster read yet.';
  if (status.source !== 'none') return 'No findings about the cluster itself.';
  if (status.error) return `No cluster read: ${(status.errorCause ?? status.error).split('\n')[0]}.`;
  return 'No cluster read: manifests are checked on their own.';
}
