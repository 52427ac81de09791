import type { Resource } from '../manifest/parse';
import { isScaledObject } from '../manifest/scaled-object';
import { BLOCKING_EFFECTS } from '../manifest/scheduling';
import { describeMaxSkew, heldTogetherBy, type IdleSpreadConstraint, spreadTerms } from '../manifest/spread';
import { describeEveryPod } from '../inventory/inventory';
import { isScalable, podTemplateOf } from '../manifest/workload';
import { podsSelectedBy, type AgentPosture, type ContainerProbes, type PdbView, type Posture } from './posture';
import { plural } from '../words';
import { markdownText } from './markdown-text';

function replicasPart(p: Posture, resource: Resource): string {
  const r = p.replicas;
  if (resource.kind === 'DaemonSet') return '1 pod per node';
  if (resource.kind === 'Pod') return 'a bare pod';
  if (r.hpa) return `${r.value}${p.hpas[0]?.max !== undefined ? `–${p.hpas[0].max}` : '+'} replicas (${isScaledObject(r.hpa) ? 'KEDA ScaledObject' : 'HPA'} ${markdownText(r.hpa.name ?? '')})`;
  if (r.heldBy) return `${plural(r.value, 'replica')} (held by the paused-replicas of KEDA ScaledObject ${markdownText(r.heldBy.name ?? '')})`;
  if (resource.kind === 'Job' || resource.kind === 'CronJob') return `${plural(r.value, 'pod')} per run`;
  return `${plural(r.value, 'replica')}${r.source === 'default' ? ' (default)' : ''}`;
}

/** "spread by hostname, zone": the last part of each topology key a spread rule uses. */
function spreadPart(resource: Resource, p: Posture): string {
  const template = podTemplateOf(resource);
  const keys = new Set(spreadTerms(template?.spec).flatMap((term) => (term.topologyKey ? [String(term.topologyKey)] : [])));
  const held = p.spread || !template ? undefined : heldTogetherBy(template.spec, template.labels, resource.namespace);
  const together = held && `held ${held.domain === 'node' ? 'on one node' : `in one ${held.domain}`} by its own pod affinity`;
  if (!keys.size) return together ?? 'no spread';
  const over = [...keys].map((key) => markdownText(key.split('/').pop()!)).join(', ');
  return p.spread ? `spread by ${over}` : `spread by ${over}, ${together ?? (p.idleSpread && idleSkew(p.idleSpread, p.replicas.value)) ?? 'not on its own labels'}`;
}

/** Why a spread constraint on its own labels spreads nothing for its maxSkew: refused, or too loose. */
function idleSkew({ maxSkew, refused }: IdleSpreadConstraint, replicas: number): string {
  return `${markdownText(describeMaxSkew(maxSkew))} ${refused ? 'refused by the API server' : `lets ${describeEveryPod(replicas)} share a node`}`;
}

/** What of the workload's pods a PDB selects, when not all: `pod web-0`, `pods web-0, web-1`, `2 of 3 pods`. */
export function coveredPods(pdb: PdbView, replicas: number): string {
  if (pdb.podNames) return `${pdb.podNames.length === 1 ? 'pod' : 'pods'} ${pdb.podNames.map(markdownText).join(', ')}`;
  return `${pdb.selected} of ${plural(replicas, 'pod')}`;
}

/** "PDB web-pdb", "PDB db-0 (pod db-0 only)", "3 PDBs: db-0 (pod db-0), …": the budgets and, where they select only some pods, which. */
function pdbPart(p: Posture): string {
  const n = p.replicas.value;
  const some = (pdb: PdbView) => pdb.selected < n;
  const pdb = p.pdbs[0];
  if (!pdb) return 'no PDB';
  if (!p.pdbs.some(some)) return p.pdbs.length > 1 ? `${p.pdbs.length} PDBs` : `PDB ${markdownText(pdb.name)}`;
  if (p.pdbs.length === 1) return `PDB ${markdownText(pdb.name)} (${coveredPods(pdb, n)} only)`;
  if (p.pdbs.length <= NAMED_PDBS) return `${p.pdbs.length} PDBs: ${p.pdbs.map((x) => `${markdownText(x.name)} (${some(x) ? coveredPods(x, n) : 'every pod'})`).join(', ')}`;
  return p.pdbsShareAPod ? `${p.pdbs.length} PDBs` : `${p.pdbs.length} PDBs over ${podsSelectedBy(p.pdbs)} of ${plural(n, 'pod')}`;
}

/** PDBs over some pods each that the posture line names: more are counted. */
const NAMED_PDBS = 3;

function probesOf(c: ContainerProbes): string {
  if (c.refused) return `${markdownText(c.refused.timing)} refused by the API server`;
  const kinds = [c.livenessBudget !== undefined && 'liveness', c.readinessBudget !== undefined && 'readiness', c.hasStartup && 'startup'].filter((k): k is string => !!k);
  if (!kinds.length) return 'none';
  if (kinds.length === 1) return `${kinds[0]} only`;
  return c.livenessSharesReadiness ? ['liveness = readiness', ...kinds.slice(2)].join(', ') : kinds.join(', ');
}

function probesPart(p: Posture): string {
  const each = p.containers.map((c) => ({ name: c.name, probes: probesOf(c) }));
  if (new Set(each.map((c) => c.probes)).size <= 1) return `probes: ${each[0]?.probes ?? 'none'}`;
  return `probes: ${each.map((c) => `${markdownText(c.name)} ${c.probes}`).join('; ')}`;
}

/**
 * How a DaemonSet's pods are replaced on a rollout: `maxUnavailable` nodes at a time; with maxSurge (and
 * maxUnavailable 0) a new pod starts on a node before the old one stops; or by hand with OnDelete. The API server
 * takes exactly one of the two non-zero (maxUnavailable is 1 unless written).
 */
function rolloutPart(resource: Resource): string {
  const strategy = resource.object?.spec?.updateStrategy;
  if (strategy?.type === 'OnDelete') return 'rollout on delete only';
  const unavailable = strategy?.rollingUpdate?.maxUnavailable ?? 1;
  const surge = strategy?.rollingUpdate?.maxSurge ?? 0;
  const zero = (value: unknown) => value === 0 || value === '0%' || value === '0';
  if (!zero(surge) && !zero(unavailable)) return 'rollout settings the API server rejects (maxSurge with a maxUnavailable that is not 0)';
  const amount = (value: unknown) => {
    const written = markdownText(String(value));
    return typeof value === 'number' ? plural(value, 'node') : written.endsWith('%') ? `${written} of nodes` : written;
  };
  if (!zero(surge)) return `rollout ${amount(surge)} at a time, each new pod started before the old one stops (maxSurge)`;
  return `rollout ${typeof unavailable === 'number' || String(unavailable).endsWith('%') ? amount(unavailable) : `maxUnavailable ${amount(unavailable)}`} at a time`;
}

/** A node agent in one line: "Node agent: kube-proxy (Service routing) · priority system-node-critical · tolerates every taint". */
function agentLine(agent: AgentPosture): string {
  const tolerated = agent.toleratedEffects;
  const parts = [
    `${agent.description}${agent.duty ? ` (${agent.duty})` : ''}`,
    agent.priorityClassName ? `priority ${markdownText(agent.priorityClassName)}` : 'priority 0',
    tolerated.length === BLOCKING_EFFECTS.length ? 'tolerates every taint' : tolerated.length ? `tolerates every ${tolerated[0]} taint only` : 'not on tainted nodes',
  ];
  return `Node agent: ${parts.join(' · ')}`;
}

/**
 * The workload's posture in a line ("Posture: 3 replicas · no spread · no PDB · no HPA · probes: readiness only"),
 * and for a node agent a second one on what it is, its priority and the taints it rides out.
 */
export function postureLines(p: Posture, resource: Resource): string[] {
  const start = p.startupSeconds === undefined ? [] : [`start ${p.startupSeconds} s`];
  const placement = resource.kind === 'DaemonSet' ? [rolloutPart(resource)] : isScalable(resource) ? [spreadPart(resource, p), pdbPart(p)] : p.pdbs.length ? [pdbPart(p)] : [];
  const hpa = isScalable(resource) && p.replicas.source !== 'hpa' ? ['no HPA'] : [];
  const posture = `Posture: ${[replicasPart(p, resource), ...placement, ...hpa, probesPart(p), ...start].join(' · ')}`;
  return p.nodeAgent ? [posture, agentLine(p.nodeAgent)] : [posture];
}
