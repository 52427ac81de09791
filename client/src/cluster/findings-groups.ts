import type { ClusterFinding } from '../../../server/src/protocol';

export interface FindingGroup {
  /** "Node worker-1", "Namespace kube-system/…", or "Cluster" for findings about no one resource. */
  label: string;
  findings: ClusterFinding[];
}

const SEVERITY_ORDER = ['error', 'warning', 'info', 'hint'];

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
    if (members.some((m) => m.ruleId === finding.ruleId && m.message === finding.message)) continue;
    groups.set(label, [...members, finding]);
  }
  return [...groups].map(([label, members]) => ({ label, findings: members }));
}
