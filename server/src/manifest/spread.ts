import { isObject } from '../is-object';
import { shownValue } from './integer-field';
import type { LabelSelector, Labels } from './selector';
import { isWellFormedSelector, selectorMatches } from './selector';
import { isNativeSidecar } from './workload';

export const HOSTNAME_TOPOLOGY = 'kubernetes.io/hostname';
/** The zone label and its deprecated beta name, which older nodes still carry (the same for regions). */
export const ZONE_KEYS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
const REGION_KEYS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];

/** What topology keys separate replicas into: pods in different ones are on different nodes. */
export type FailureDomain = 'node' | 'zone' | 'region';
/** Narrowest first: a node lies in a zone, a zone in a region. */
const NARROW_TO_WIDE: readonly FailureDomain[] = ['node', 'zone', 'region'];

function domainOf(key: unknown): FailureDomain | undefined {
  if (key === HOSTNAME_TOPOLOGY) return 'node';
  const name = String(key);
  return ZONE_KEYS.includes(name) ? 'zone' : REGION_KEYS.includes(name) ? 'region' : undefined;
}

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
 * Whether a pod (anti-)affinity term looks at pods of `namespace`: with neither `namespaces` nor `namespaceSelector` it
 * looks at its own pod's namespace; `namespaceSelector: {}` means every namespace. Undefined when only namespace
 * labels manifests do not show can tell.
 */
function coversNamespace(term: SpreadTerm, namespace: string | undefined): boolean | undefined {
  const names = list(term.namespaces).filter((n): n is string => typeof n === 'string');
  const selector = term.namespaceSelector;
  if (namespace === undefined || (!names.length && (selector === undefined || selector === null))) return true;
  if (names.includes(namespace)) return true;
  if (selector === undefined || selector === null || typeof selector !== 'object') return false;
  return selectsNamespace(selector, namespace);
}

/**
 * Whether a namespace selector takes in `namespace`, judged on the name label alone: a name requirement that fails
 * excludes it; when every name requirement holds and the selector reads other labels too, it is undefined.
 */
function selectsNamespace(selector: LabelSelector, namespace: string): boolean | undefined {
  if (!isWellFormedSelector(selector)) return false;
  let otherLabels = false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (key !== NAMESPACE_NAME_LABEL) otherLabels = true;
    else if (value !== namespace) return false;
  }
  for (const requirement of selector.matchExpressions ?? []) {
    if (requirement.key !== NAMESPACE_NAME_LABEL) otherLabels = true;
    else if (!selectorMatches({ matchExpressions: [requirement] }, { [NAMESPACE_NAME_LABEL]: namespace })) return false;
  }
  return otherLabels ? undefined : true;
}

/** The namespaces a selector names, when naming them is all it does (the name label, by matchLabels or In). */
function namesSelected(selector: LabelSelector): string[] | undefined {
  if (!isWellFormedSelector(selector)) return undefined;
  const labels = Object.entries(selector.matchLabels ?? {});
  const expressions = selector.matchExpressions ?? [];
  if (labels.length + expressions.length !== 1) return undefined;
  if (labels.length) return labels[0][0] === NAMESPACE_NAME_LABEL ? [String(labels[0][1])] : undefined;
  const [requirement] = expressions;
  return requirement.key === NAMESPACE_NAME_LABEL && requirement.operator === 'In' ? (requirement.values ?? []) : undefined;
}

function onFailureDomain(term: SpreadTerm | undefined): term is SpreadTerm {
  return !!term && domainOf(term.topologyKey) !== undefined;
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** Every pod anti-affinity term (required or preferred) of a pod spec, whatever its key. */
function antiAffinityTerms(podSpec: any): SpreadTerm[] {
  const antiAffinity = podSpec?.affinity?.podAntiAffinity;
  return [...list(antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution), ...list(antiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).map((t) => t?.podAffinityTerm)].filter(isObject);
}

/** Every spread constraint and pod anti-affinity term (required or preferred) of a pod spec, whatever its key. */
export function spreadTerms(podSpec: any): SpreadTerm[] {
  return [...list(podSpec?.topologySpreadConstraints).filter(isObject), ...antiAffinityTerms(podSpec)];
}

/** The spread terms on a node, zone or region key. */
function failureDomainTerms(podSpec: any): SpreadTerm[] {
  return spreadTerms(podSpec).filter(onFailureDomain);
}

/** A required pod affinity term that holds a workload's pods in one failure domain, and its index in the required list. */
export interface CoLocation {
  term: SpreadTerm;
  index: number;
  domain: FailureDomain;
}

/**
 * The required pod affinity term on a failure-domain key that selects the pod's own labels in its own namespace (the
 * narrowest, when several do): the scheduler lets the first pod in anywhere, as it matches its own term, and every
 * other one only into the node, zone or region where those run. A namespace selector on labels manifests do not show
 * is not taken to hold them.
 */
export function heldTogetherBy(podSpec: any, labels: Labels, namespace?: string): CoLocation | undefined {
  const required = podSpec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!Array.isArray(required)) return undefined;
  let held: CoLocation | undefined;
  for (let index = 0; index < required.length; index++) {
    const term = required[index];
    const domain = domainOf(term?.topologyKey);
    if (!domain || !selectorMatches(term.labelSelector, labels) || coversNamespace(term, namespace) !== true) continue;
    if (!held || narrower(domain, held.domain)) held = { term, index, domain };
  }
  return held;
}

function narrower(domain: FailureDomain, than: FailureDomain): boolean {
  return NARROW_TO_WIDE.indexOf(domain) < NARROW_TO_WIDE.indexOf(than);
}

/**
 * Whether a term would keep the pods carrying `labels` apart: on a failure-domain key, with a selector that matches
 * their labels in their own namespace, over domains narrower than one a required affinity of their own holds them in
 * (held on one node, nothing spreads them).
 */
function keepsOwnPodsApart(podSpec: any, labels: Labels, namespace: string | undefined): (term: SpreadTerm) => boolean {
  const held = heldTogetherBy(podSpec, labels, namespace);
  return (term) =>
    onFailureDomain(term) && (!held || narrower(domainOf(term.topologyKey)!, held.domain)) && selectorMatches(term.labelSelector, labels) && coversNamespace(term, namespace) !== false;
}

/** Whether the API server takes a spread constraint's maxSkew: a whole number from 1 (unset decodes as 0, which it refuses too). */
export function acceptedMaxSkew(maxSkew: unknown): maxSkew is number {
  return Number.isInteger(maxSkew) && (maxSkew as number) >= 1;
}

/**
 * What a spread constraint's maxSkew does to `replicas` pods. At maxSkew ≥ replicas every pod may share one domain
 * (a skew of replicas − 0), whether the scheduler refuses to go past it or only prefers not to. minDomains changes
 * nothing: below it the global minimum counts as 0, which caps a domain at maxSkew pods, still every pod. A single
 * pod has nothing to spread, so no skew is too loose for it.
 */
export function skewEffect(maxSkew: unknown, replicas: number): 'spreads' | 'too-loose' | 'refused' {
  if (!acceptedMaxSkew(maxSkew)) return 'refused';
  return replicas >= 2 && maxSkew >= replicas ? 'too-loose' : 'spreads';
}

/**
 * Whether a pod spec spreads `replicas` pods carrying `labels` (in `namespace`, when given) across nodes, zones or
 * regions: a pod anti-affinity term (required or preferred) that keeps its own pods apart (keepsOwnPodsApart), or a
 * topology spread constraint that would, with a maxSkew the API server takes and below the replica count.
 */
export function spreadsAcrossFailureDomains(podSpec: any, labels: Labels, namespace: string | undefined, replicas: number): boolean {
  const apart = keepsOwnPodsApart(podSpec, labels, namespace);
  return antiAffinityTerms(podSpec).some(apart) || list(podSpec?.topologySpreadConstraints).filter(isObject).some((constraint) => apart(constraint) && skewEffect(constraint.maxSkew, replicas) === 'spreads');
}

/** A topology spread constraint that would keep the pods apart but for its maxSkew, and where it is in the list. */
export interface IdleSpreadConstraint {
  index: number;
  topologyKey: string;
  domain: FailureDomain;
  /** As written: a number too loose for the replicas, or a value the API server refuses (refused). */
  maxSkew: unknown;
  refused: boolean;
  /** Whether the scheduler refuses to go past the skew (DoNotSchedule), rather than prefer not to. */
  hard: boolean;
}

/** "maxSkew 3", `maxSkew "1"`, or "no maxSkew": a constraint's maxSkew as a message quotes it. */
export function describeMaxSkew(maxSkew: unknown): string {
  return maxSkew === undefined || maxSkew === null ? 'no maxSkew' : `maxSkew ${shownValue(maxSkew)}`;
}

/** Why the API server refuses a maxSkew, as a message goes on after describeMaxSkew: nothing for none written, else `, which is below 1` or `, which is no integer`. */
export function refusedSkewReason(maxSkew: unknown): string {
  return maxSkew === undefined || maxSkew === null ? '' : `, which is ${Number.isInteger(maxSkew) ? 'below 1' : 'no integer'}`;
}

/** A refused constraint as a card says it: `topologySpreadConstraints on kubernetes.io/hostname maxSkew 0, which is below 1`. */
export function describeRefusedSkew({ topologyKey, maxSkew }: IdleSpreadConstraint): string {
  return `topologySpreadConstraints on ${topologyKey} ${describeMaxSkew(maxSkew)}${refusedSkewReason(maxSkew)}`;
}

/**
 * The topology spread constraints that would keep `replicas` pods apart but for their maxSkew: one the API server
 * refuses (unset, 0, negative, no integer), or one that lets every pod into one domain. Refused ones first (the
 * workload never runs, spread or not), then the narrowest domain.
 */
export function idleSpreadConstraints(podSpec: any, labels: Labels, namespace: string | undefined, replicas: number): IdleSpreadConstraint[] {
  const apart = keepsOwnPodsApart(podSpec, labels, namespace);
  const idle: IdleSpreadConstraint[] = [];
  list(podSpec?.topologySpreadConstraints).forEach((constraint, index) => {
    if (!isObject(constraint) || !apart(constraint)) return;
    const effect = skewEffect(constraint.maxSkew, replicas);
    if (effect === 'spreads') return;
    const { topologyKey, maxSkew, whenUnsatisfiable } = constraint;
    idle.push({ index, topologyKey: String(topologyKey), domain: domainOf(topologyKey)!, maxSkew, refused: effect === 'refused', hard: whenUnsatisfiable === 'DoNotSchedule' });
  });
  return idle.sort((a, b) => Number(b.refused) - Number(a.refused) || NARROW_TO_WIDE.indexOf(a.domain) - NARROW_TO_WIDE.indexOf(b.domain));
}

/** Where spread terms look for a workload's pods instead of its own namespace: namespaces by name, and namespace selectors that do more than name them. */
export interface NamespacesLookedAt {
  names: string[];
  selectors: LabelSelector[];
}

/** Where anti-affinity terms that select the pod's labels look for them, when they never look in its own namespace. */
export function otherNamespacesLookedAt(podSpec: any, labels: Labels, namespace: string): NamespacesLookedAt {
  const names = new Set<string>();
  const selectors: LabelSelector[] = [];
  for (const term of failureDomainTerms(podSpec)) {
    if (!selectorMatches(term.labelSelector, labels) || coversNamespace(term, namespace) !== false) continue;
    for (const name of list(term.namespaces)) if (typeof name === 'string') names.add(name);
    const selector = term.namespaceSelector;
    if (!selector) continue;
    const named = namesSelected(selector);
    if (named) for (const name of named) names.add(name);
    else selectors.push(selector);
  }
  return { names: [...names], selectors };
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
  const sidecars = list(podSpec?.initContainers).filter(isNativeSidecar);
  return [...list(podSpec?.containers), ...sidecars].some((container) =>
    list(container?.ports).some((port) => (typeof port?.hostPort === 'number' && port.hostPort > 0) || (podSpec?.hostNetwork === true && port?.containerPort !== undefined)),
  );
}
