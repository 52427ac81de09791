import { stringify } from 'yaml';
import { splitMessage } from '../rules/message-parts';
import type { ClusterInfo } from '../cluster/types';
import { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { rangeOfPath } from '../manifest/path';
import { isWorkload } from '../manifest/workload';
import type { ClusterFinding, LiveObjectParams } from '../protocol';
import { analyzeCluster } from '../rules/engine';
import { ruleById } from '../rules/index';
import type { Finding, SeverityOverride } from '../rules/types';

const sameIdentity = (r: Resource, ref: { kind: string; namespace: string; name: string | null }) => r.kind === ref.kind && r.namespace === ref.namespace && r.name === ref.name;

/**
 * The inventory the findings about a cluster are judged in: the workspace's files over the cluster,
 * so a manifest that now has its PDB speaks for the live object, even for the demo cluster shown
 * when no kubeconfig is in use.
 */
export function inventoryForCluster(workspace: Inventory, cluster: ClusterInfo, inUse: boolean): Inventory {
  if (inUse) return workspace;
  const inventory = new Inventory();
  inventory.setCluster(cluster.resources);
  for (const file of workspace.allFiles()) inventory.setFile(file);
  return inventory;
}

/** About the cluster's own functions (control plane, DNS, nodes) or about a workload that runs in it. */
function sourceOf(finding: Finding): ClusterFinding['source'] {
  const scenario = ruleById(finding.ruleId)?.meta.scenario;
  if (!finding.resource || scenario === 'control-plane') return 'cluster';
  return isWorkload({ kind: finding.resource.kind } as Resource) ? 'workload' : 'cluster';
}

/** Findings that belong to no file, each with where the workspace defines its resource when it does. */
export function clusterFindings(inventory: Inventory, cluster: ClusterInfo, severities: Record<string, SeverityOverride> | undefined): ClusterFinding[] {
  const manifests = inventory.allFiles().flatMap((file) => file.resources);
  return analyzeCluster(inventory, { severities, cluster }).map((f) => {
    const resource = f.resource ? { kind: f.resource.kind, name: f.resource.name, namespace: f.resource.namespace } : null;
    const defined = resource && manifests.find((r) => sameIdentity(r, resource));
    return {
      ruleId: f.ruleId,
      severity: f.severity,
      ...splitMessage(f.message),
      resource,
      source: sourceOf(f),
      ...(defined?.file ? { location: { uri: defined.file.uri, range: rangeOfPath(defined, []) } } : {}),
    };
  });
}

/** The live object as YAML for a read-only view, or null when the cluster has no such object. */
export function liveObjectYaml(cluster: ClusterInfo | undefined, params: LiveObjectParams): string | null {
  const object = cluster?.resources.find((r) => sameIdentity(r, params))?.object;
  return object ? `# Live ${params.kind} ${params.namespace ? `${params.namespace}/` : ''}${params.name} in ${cluster!.name} (read-only)\n${stringify(object)}` : null;
}
