import type { LabelSelector, Labels } from './selector';
import { selectorMatches } from './selector';

export const HOSTNAME_TOPOLOGY = 'kubernetes.io/hostname';
/** Topology keys that put replicas into separate failure domains (a node, a zone). */
export const FAILURE_DOMAIN_KEYS = [HOSTNAME_TOPOLOGY, 'topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];

interface SpreadTerm {
  topologyKey?: unknown;
  labelSelector?: LabelSelector | null;
}

function spreadsOwnPods(term: SpreadTerm | undefined, labels: Labels): boolean {
  return !!term && FAILURE_DOMAIN_KEYS.includes(String(term.topologyKey)) && selectorMatches(term.labelSelector, labels);
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Whether a pod spec spreads pods carrying `labels` across nodes or zones: a topology spread
 * constraint or a pod anti-affinity term (required or preferred) on a failure-domain key whose
 * selector matches the pod's own labels.
 */
export function spreadsAcrossFailureDomains(podSpec: any, labels: Labels): boolean {
  if (list(podSpec?.topologySpreadConstraints).some((c) => spreadsOwnPods(c, labels))) return true;
  const antiAffinity = podSpec?.affinity?.podAntiAffinity;
  if (list(antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).some((t) => spreadsOwnPods(t, labels))) return true;
  return list(antiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).some((t) => spreadsOwnPods(t?.podAffinityTerm, labels));
}
