import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { containersOf, describeResource, podTemplateOf } from '../manifest/workload';
import type { Finding } from '../rules/types';

function probesLine(resource: Resource): string {
  const containers = containersOf(resource);
  if (!containers.length) return 'no containers';
  return containers
    .map(({ container, name }) => {
      const kinds = ['startupProbe', 'livenessProbe', 'readinessProbe'].filter((k) => container[k]).map((k) => k.replace('Probe', ''));
      return `${name}: ${kinds.length ? kinds.join(', ') : 'no probes'}`;
    })
    .join('; ');
}

function spreadLine(resource: Resource): string {
  const spec = podTemplateOf(resource)?.spec ?? {};
  const spread = Array.isArray(spec.topologySpreadConstraints) ? spec.topologySpreadConstraints.map((c: any) => c?.topologyKey).filter(Boolean) : [];
  const anti = spec.affinity?.podAntiAffinity;
  const antiKeys = [...(anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...(anti?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((p: any) => p?.podAffinityTerm)]
    .map((t: any) => t?.topologyKey)
    .filter(Boolean);
  const keys = [...new Set([...spread, ...antiKeys])];
  return keys.length ? `spread over ${keys.join(', ')}` : 'no spread rule: replicas may share a node';
}

/** The resilience card shown on a workload's `kind` line. */
export function resilienceCard(resource: Resource, inventory: Inventory, findings: readonly Finding[], _cluster?: ClusterInfo): string {
  const replicas = inventory.effectiveReplicas(resource);
  const pdbs = inventory.pdbsSelecting(resource);
  const hpas = inventory.hpasTargeting(resource);
  const lines = [
    `**${describeResource(resource)}** — resilience`,
    '',
    `- Replicas: ${replicas.value} (${replicas.source === 'hpa' ? 'HPA minReplicas' : replicas.source === 'spec' ? 'spec.replicas' : 'default'})`,
    `- Spread: ${spreadLine(resource)}`,
    `- PodDisruptionBudget: ${pdbs.length ? pdbs.map((p) => p.name).join(', ') : 'none'}`,
    `- HorizontalPodAutoscaler: ${hpas.length ? hpas.map((h) => h.name).join(', ') : 'none'}`,
    `- Probes: ${probesLine(resource)}`,
  ];
  if (findings.length) {
    lines.push('', `**Findings (${findings.length})**`, ...findings.map((f) => `- \`${f.ruleId}\` ${f.message}`));
  }
  return lines.join('\n');
}
