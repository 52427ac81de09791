import type { ClusterFinding } from '../../../server/src/protocol';

export interface FindingGroup {
  /** "Node worker-1", "Namespace kube-system/…", or "Cluster" for findings about no one resource. */
  label: string;
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
export function groupClusterFindings(findings: ClusterFinding[]): FindingGroup[] {
  const groups = new Map<string, ClusterFinding[]>();
  const sorted = [...findings].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.ruleId.localeCompare(b.ruleId));
  for (const finding of sorted) {
    const label = resourceLabel(finding);
    const members = groups.get(label) ?? [];
    // A rule reports once per container: the same words twice on one resource say nothing new.
    if (members.some((m) => m.ruleId === finding.ruleId && m.headline === finding.headline && m.details === finding.details)) continue;
    groups.set(label, [...members, finding]);
  }
  return [...groups].map(([label, members]) => ({ label, findings: members }));
}

/** The view's top level: where findings come from, the cluster's own shape first; empty sources left out. */
export function groupBySource(findings: ClusterFinding[]): SourceGroup[] {
  return SOURCES.map(({ source, label }) => ({ label, source, groups: groupClusterFindings(findings.filter((f) => (f.source ?? 'cluster') === source)) })).filter(
    (group) => group.groups.length > 0,
  );
}
