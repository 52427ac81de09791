import type { LabelSelector, Labels } from './selector';
import { selectorMatches } from './selector';

export const HOSTNAME_TOPOLOGY = 'kubernetes.io/hostname';
/** Topology keys that put replicas into separate failure domains (a node, a zone). */
export const FAILURE_DOMAIN_KEYS = [HOSTNAME_TOPOLOGY, 'topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];

interface SpreadTerm {
  topologyKey?: unknown;
  labelSelector?: LabelSelector | null;
}

function onFailureDomain(term: SpreadTerm | undefined): term is SpreadTerm {
  return !!term && FAILURE_DOMAIN_KEYS.includes(String(term.topologyKey));
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** Every spread constraint and pod anti-affinity term (required or preferred) of a pod spec on a node or zone key. */
function failureDomainTerms(podSpec: any): SpreadTerm[] {
  const antiAffinity = podSpec?.affinity?.podAntiAffinity;
  return [
    ...list(podSpec?.topologySpreadConstraints),
    ...list(antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    ...list(antiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).map((t) => t?.podAffinityTerm),
  ].filter(onFailureDomain);
}

/**
 * Whether a pod spec spreads pods carrying `labels` across nodes or zones: a topology spread
 * constraint or a pod anti-affinity term (required or preferred) on a failure-domain key whose
 * selector matches the pod's own labels.
 */
export function spreadsAcrossFailureDomains(podSpec: any, labels: Labels): boolean {
  return failureDomainTerms(podSpec).some((term) => selectorMatches(term.labelSelector, labels));
}

/** Selectors of node or zone spread terms that miss the pod's own labels: written to spread, spreading nothing. */
export function strayFailureDomainSelectors(podSpec: any, labels: Labels): LabelSelector[] {
  return failureDomainTerms(podSpec)
    .filter((term) => !selectorMatches(term.labelSelector, labels))
    .map((term) => term.labelSelector ?? {});
}

/**
 * Whether the pods claim a host port (hostPort, or any port under hostNetwork): the scheduler never
 * puts two of them on one node, so they are spread by construction.
 */
export function claimsHostPorts(podSpec: any): boolean {
  return list(podSpec?.containers).some((container) =>
    list(container?.ports).some((port) => (typeof port?.hostPort === 'number' && port.hostPort > 0) || (podSpec?.hostNetwork === true && port?.containerPort !== undefined)),
  );
}
