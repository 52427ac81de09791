import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { describeEvictionsAllowed } from '../manifest/pdb';
import { agentDuty, effectsToleratedEverywhere, nodeAgentOf } from '../manifest/node-agent';
import { describeHandler, failureBudgetSeconds, probeHandler, PROBE_FIELDS } from '../manifest/probe';
import { containersOf, describeResource, podTemplateOf } from '../manifest/workload';
import { ruleById } from '../rules/index';
import type { Finding } from '../rules/types';
import { clusterFacts } from './cluster-facts';
import { postureOf, type Posture } from './posture';
import { scenarioLines } from './scenarios';
import { TIMING_SOURCES } from './timings';

export interface CardOptions {
  /** What the live cluster says about this workload (ready replicas, nodes): one markdown line each, shown under "Live cluster". */
  clusterLines?: readonly string[];
  /** Where a rule's documentation lives, so each finding links to it as its diagnostic does. */
  ruleHref?: RuleHref;
}

export type RuleHref = (ruleId: string) => string | undefined;

/** `rule-id`, linked to the rule's page when there is one. */
export function ruleLabel(ruleId: string, ruleHref?: RuleHref): string {
  const href = ruleHref?.(ruleId);
  return href ? `[\`${ruleId}\`](${href})` : `\`${ruleId}\``;
}

/** A finding named in a hover: its rule (linked), its severity and the rule's title, not its message (the editor shows that above). */
export function findingTitleLine(finding: Finding, ruleHref?: RuleHref): string {
  return `- ${ruleLabel(finding.ruleId, ruleHref)} (${finding.severity}): ${ruleById(finding.ruleId)?.meta.title ?? finding.message}`;
}

function replicasLine(p: Posture, resource: Resource): string {
  const r = p.replicas;
  if (r.source === 'hpa') return `${r.value} (HPA ${r.hpa?.name ?? ''} minReplicas${p.hpas[0]?.max !== undefined ? `, up to ${p.hpas[0].max}` : ''})`;
  if (r.source === 'spec') return `${r.value} (spec.replicas)`;
  if (resource.kind === 'DaemonSet') return `one per eligible node (DaemonSet): a node failure costs that node's pod only, and nothing reschedules it elsewhere; ${daemonSetRollout(resource)}`;
  return `${r.value} (${['Pod', 'Job', 'CronJob'].includes(resource.kind) ? resource.kind : 'default, no spec.replicas'})`;
}

function probesLine(resource: Resource): string {
  const containers = containersOf(resource);
  if (!containers.length) return 'no containers';
  return containers
    .map(({ container, name }) => {
      const probes = PROBE_FIELDS.filter((field) => container[field]).map((field) => {
        const handler = probeHandler(container[field], container);
        return `${field.replace('Probe', '')} ${handler ? describeHandler(handler) : '(no handler)'}, ${failureBudgetSeconds(container[field])} s to fail`;
      });
      return `${name}: ${probes.length ? probes.join('; ') : 'no probes'}`;
    })
    .join(' · ');
}

/** How a DaemonSet's pods are replaced on a rollout: `maxUnavailable` nodes at a time, or by hand with OnDelete. */
function daemonSetRollout(resource: Resource): string {
  const strategy = resource.object?.spec?.updateStrategy;
  if (strategy?.type === 'OnDelete') return 'rollouts (OnDelete) replace a pod only when someone deletes it';
  const rolling = strategy?.rollingUpdate ?? {};
  const unavailable = rolling.maxUnavailable ?? 1;
  const surge = rolling.maxSurge ?? 0;
  const surgeText = surge && surge !== '0%' ? `, starting the new pod first on up to ${surge} nodes (maxSurge)` : '';
  const nodes = typeof unavailable === 'string' && unavailable.endsWith('%') ? `${unavailable} of the nodes` : `${unavailable} node${unavailable === 1 ? '' : 's'}`;
  return `rollouts replace the pods of ${nodes} at a time (maxUnavailable ${unavailable}${rolling.maxUnavailable === undefined ? ', the default' : ''})${surgeText}`;
}

/** For a node agent: what it is, its priority and which taints it tolerates. */
function nodeAgentLine(resource: Resource): string | undefined {
  const agent = nodeAgentOf(resource);
  const spec = podTemplateOf(resource)?.spec;
  if (!agent || !spec) return undefined;
  const priority = typeof spec.priorityClassName === 'string' ? `priorityClassName ${spec.priorityClassName}` : 'no priorityClassName (priority 0)';
  const everywhere = effectsToleratedEverywhere(spec);
  const taints = everywhere.length === 2 ? 'tolerates every taint' : everywhere.length ? `tolerates every ${everywhere[0]} taint only` : 'does not tolerate every taint (tainted pools run without it)';
  return `${agent.description}${agent.role ? ` (${agentDuty(agent)})` : ''}; ${priority}; ${taints}`;
}

function spreadLine(resource: Resource, p: Posture): string {
  if (resource.kind === 'DaemonSet') return 'one pod per node by construction';
  const spec = podTemplateOf(resource)?.spec ?? {};
  const keys = new Set<string>();
  for (const c of Array.isArray(spec.topologySpreadConstraints) ? spec.topologySpreadConstraints : []) if (c?.topologyKey) keys.add(String(c.topologyKey));
  const anti = spec.affinity?.podAntiAffinity;
  for (const t of [...(anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...(anti?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((x: any) => x?.podAffinityTerm)]) {
    if (t?.topologyKey) keys.add(String(t.topologyKey));
  }
  if (!keys.size) return 'no spread rule: replicas may share a node';
  return `over ${[...keys].join(', ')}${p.spread ? '' : " (no term selects the pod's own labels)"}`;
}

/** The resilience card shown on a workload's `kind` line. */
export function resilienceCard(resource: Resource, inventory: Inventory, findings: readonly Finding[], cluster?: ClusterInfo, options: CardOptions = {}): string {
  const p = postureOf(resource, inventory);
  const lines = [
    `**${describeResource(resource)}** — resilience`,
    '',
    `- Replicas: ${replicasLine(p, resource)}`,
    `- Spread: ${spreadLine(resource, p)}`,
    `- PodDisruptionBudget: ${p.pdbs.length ? p.pdbs.map((x) => `${x.name} (${x.budget}, ${describeEvictionsAllowed(x.allowed)})`).join(', ') : 'none'}`,
    `- HorizontalPodAutoscaler: ${p.hpas.length ? p.hpas.map((h) => `${h.name} (minReplicas ${h.min}${h.max !== undefined ? `, maxReplicas ${h.max}` : ''})`).join(', ') : 'none'}`,
    `- Probes: ${probesLine(resource)}`,
  ];
  const agent = nodeAgentLine(resource);
  if (agent) lines.push(`- Node agent: ${agent}`);
  // A caller (the server) may bring its own lines; otherwise the cluster speaks through cluster-facts.
  const clusterLines = options.clusterLines ?? (cluster ? clusterFacts(resource, inventory, cluster) : []);
  if (clusterLines.length) lines.push('', '**Live cluster**', '', ...clusterLines.map((l) => `- ${l}`));
  lines.push('', '**When something fails**', '', ...scenarioLines(p).map((s) => `- *${s.scenario}:* ${s.text}`));
  // One short line each: the full messages are on their own lines' hovers and in the Problems panel.
  if (findings.length) lines.push('', `**Findings (${findings.length})**`, '', ...findings.map((f) => `- ${ruleLabel(f.ruleId, options.ruleHref)}${f.range ? ` line ${f.range.start.line + 1}` : ''}: ${ruleById(f.ruleId)?.meta.title ?? f.message}`));
  lines.push('', `_${TIMING_SOURCES}_`);
  return lines.join('\n');
}
