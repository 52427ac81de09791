import type { LabelSelector, Labels } from './selector';
import { selectorMatches } from './selector';

export const HOSTNAME_TOPOLOGY = 'kubernetes.io/hostname';
export const ZONE_KEYS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
const REGION_KEYS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];
/** Topology keys that put replicas into separate failure domains (a node, a zone, a region): pods in different ones are on different nodes. */
export const FAILURE_DOMAIN_KEYS = [HOSTNAME_TOPOLOGY, ...ZONE_KEYS, ...REGION_KEYS];

export interface SpreadTerm {
  topologyKey?: unknown;
  labelSelector?: LabelSelector | null;
  /** Pod affinity terms only: the namespaces whose pods the selector looks at. */
  namespaces?: unknown;
  namespaceSelector?: LabelSelector | null;
}

/** The label every namespace carries with its own name (Kubernetes sets it), all a namespace selector can be judged on here. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * Whether an anti-affinity term looks at pods of `namespace`: with neither `namespaces` nor
 * `namespaceSelector` it looks at its own pod's namespace; `namespaceSelector: {}` means every namespace.
 * A selector on other namespace labels cannot be judged from manifests, and counts as covering it.
 */
function coversNamespace(term: SpreadTerm, namespace: string | undefined): boolean {
  const names = list(term.namespaces).filter((n): n is string => typeof n === 'string');
  const selector = term.namespaceSelector;
  if (namespace === undefined || (!names.length && (selector === undefined || selector === null))) return true;
  if (names.includes(namespace)) return true;
  if (selector === undefined || selector === null || typeof selector !== 'object') return false;
  const keys = [...Object.keys(selector.matchLabels ?? {}), ...list(selector.matchExpressions).map((e) => e?.key)];
  if (keys.some((key) => key !== NAMESPACE_NAME_LABEL)) return true;
  return selectorMatches(selector, { [NAMESPACE_NAME_LABEL]: namespace });
}

function onFailureDomain(term: SpreadTerm | undefined): term is SpreadTerm {
  return !!term && FAILURE_DOMAIN_KEYS.includes(String(term.topologyKey));
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** Every spread constraint and pod anti-affinity term (required or preferred) of a pod spec, whatever its key. */
export function spreadTerms(podSpec: any): SpreadTerm[] {
  const antiAffinity = podSpec?.affinity?.podAntiAffinity;
  return [
    ...list(podSpec?.topologySpreadConstraints),
    ...list(antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    ...list(antiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).map((t) => t?.podAffinityTerm),
  ].filter((term): term is SpreadTerm => !!term && typeof term === 'object');
}

/** The spread terms on a node, zone or region key. */
function failureDomainTerms(podSpec: any): SpreadTerm[] {
  return spreadTerms(podSpec).filter(onFailureDomain);
}

/**
 * Whether a pod spec spreads pods carrying `labels` (in `namespace`, when given) across nodes, zones or regions:
 * a topology spread constraint or a pod anti-affinity term (required or preferred) on a failure-domain
 * key whose selector matches the pod's own labels in the pod's own namespace.
 */
export function spreadsAcrossFailureDomains(podSpec: any, labels: Labels, namespace?: string): boolean {
  return failureDomainTerms(podSpec).some((term) => selectorMatches(term.labelSelector, labels) && coversNamespace(term, namespace));
}

/** The namespaces named by anti-affinity terms that select the pod's labels but never look at its own namespace. */
export function otherNamespacesLookedAt(podSpec: any, labels: Labels, namespace: string): string[] {
  return failureDomainTerms(podSpec)
    .filter((term) => selectorMatches(term.labelSelector, labels) && !coversNamespace(term, namespace))
    .flatMap((term) => list(term.namespaces).filter((n): n is string => typeof n === 'string'));
}

/**
 * Selectors of node, zone or region spread terms that miss the pod's own labels: written to spread, spreading nothing.
 * Undefined for a term with no labelSelector, which counts no pods at all.
 */
export function strayFailureDomainSelectors(podSpec: any, labels: Labels): (LabelSelector | undefined)[] {
  return failureDomainTerms(podSpec)
    .filter((term) => !selectorMatches(term.labelSelector, labels))
    .map((term) => term.labelSelector ?? undefined);
}

/**
 * Whether the pods claim a host port (hostPort, or any port under hostNetwork): the scheduler never
 * puts two of them on one node, so they are spread by construction.
 */
export function claimsHostPorts(podSpec: any): boolean {
  // The scheduler counts a native sidecar's host ports (an init container that always restarts runs beside the others).
  const sidecars = list(podSpec?.initContainers).filter((container) => container?.restartPolicy === 'Always');
  return [...list(podSpec?.containers), ...sidecars].some((container) =>
    list(container?.ports).some((port) => (typeof port?.hostPort === 'number' && port.hostPort > 0) || (podSpec?.hostNetwork === true && port?.containerPort !== undefined)),
  );
}
