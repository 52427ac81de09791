export type Labels = Record<string, string>;

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Labels | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

/**
 * Kubernetes label-selector semantics (metav1.LabelSelectorAsSelector): a null selector selects
 * nothing, an empty one selects everything, and every matchLabels entry and expression must hold.
 * An unknown operator selects nothing, as the API server would reject it.
 */
export function selectorMatches(selector: LabelSelector | null | undefined, labels: Labels | null | undefined): boolean {
  if (selector === null || selector === undefined || typeof selector !== 'object' || !isWellFormedSelector(selector)) return false;
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (have[key] !== labelValue(value)) return false;
  for (const requirement of selector.matchExpressions ?? []) {
    if (!requirementHolds(requirement, have)) return false;
  }
  return true;
}

/** A matchLabels value as the API server reads it: null is an empty string (Go's JSON decoder leaves the string's zero value). */
function labelValue(value: unknown): string {
  return value === null ? '' : String(value);
}

/** A selector whose parts have the shapes the API server accepts; any other is rejected there, so it selects nothing here. */
export function isWellFormedSelector(selector: LabelSelector): boolean {
  return selectorFault(selector) === undefined;
}

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * What the API server rejects in a selector, in a few words, or undefined: a label value that is no string (`enabled:
 * true`, `version: 1.0`: "cannot unmarshal bool into … of type string"), an operator it does not know (`in`), values
 * missing for In and NotIn or given for Exists and DoesNotExist.
 */
export function selectorFault(selector: LabelSelector): string | undefined {
  const { matchLabels, matchExpressions } = selector;
  if (matchLabels !== null && matchLabels !== undefined) {
    if (typeof matchLabels !== 'object' || Array.isArray(matchLabels)) return 'matchLabels is no mapping';
    const odd = Object.entries(matchLabels).find(([, value]) => typeof value !== 'string' && value !== null);
    if (odd) return `matchLabels ${odd[0]}: ${String(odd[1])} is no string (quote it)`;
  }
  if (matchExpressions === null || matchExpressions === undefined) return undefined;
  if (!Array.isArray(matchExpressions)) return 'matchExpressions is no list';
  for (const requirement of matchExpressions) {
    if (!requirement || typeof requirement !== 'object' || typeof requirement.key !== 'string') return 'an expression has no key';
    const { key, operator, values } = requirement;
    if (!OPERATORS.includes(operator)) return `the operator of ${key} is ${JSON.stringify(operator)}, not one of ${OPERATORS.join(', ')}`;
    const given = values === null || values === undefined ? [] : values;
    if (!Array.isArray(given) || given.some((v) => typeof v !== 'string')) return `the values of ${key} are no list of strings`;
    if ((operator === 'In' || operator === 'NotIn') && given.length === 0) return `${key} ${operator} has no values`;
    if ((operator === 'Exists' || operator === 'DoesNotExist') && given.length > 0) return `${key} ${operator} has values, which it must not`;
  }
  return undefined;
}

function requirementHolds(requirement: LabelSelectorRequirement, labels: Labels): boolean {
  const present = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  const values = (requirement.values ?? []).map(String);
  switch (requirement.operator) {
    case 'In':
      return present && values.includes(labels[requirement.key]);
    case 'NotIn':
      return !present || !values.includes(labels[requirement.key]);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    default:
      return false;
  }
}

/** A Service's (or ReplicationController's) plain map selector: empty or missing selects no pods. */
export function mapSelectorMatches(selector: Labels | null | undefined, labels: Labels | null | undefined): boolean {
  if (!selector || typeof selector !== 'object' || Object.keys(selector).length === 0) return false;
  return selectorMatches({ matchLabels: selector }, labels);
}

export function isEmptySelector(selector: LabelSelector | null | undefined): boolean {
  return !!selector && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

/** `app=web,tier!=db`-style text of a selector, for messages. */
export function describeSelector(selector: LabelSelector | null | undefined): string {
  if (!selector || typeof selector !== 'object') return '(none)';
  if (!isWellFormedSelector(selector)) return '(malformed)';
  const parts = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => `${k}=${labelValue(v)}`);
  for (const r of selector.matchExpressions ?? []) {
    if (r.operator === 'Exists') parts.push(r.key);
    else if (r.operator === 'DoesNotExist') parts.push(`!${r.key}`);
    else parts.push(`${r.key} ${r.operator === 'In' ? 'in' : 'notin'} (${(r.values ?? []).join(',')})`);
  }
  return parts.length ? parts.join(',') : '(everything)';
}

/**
 * A selector written as text (`tier=api,env in (prod, stage),!legacy`, as kubectl and kustomize's targets take it),
 * the inverse of describeSelector; undefined when a requirement cannot be read (it selects nothing then).
 */
export function parseSelectorText(text: string): LabelSelector | undefined {
  const matchExpressions: LabelSelectorRequirement[] = [];
  for (const requirement of text.split(/,(?![^(]*\))/).map((r) => r.trim()).filter(Boolean)) {
    const set = /^([^\s!=(),]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(requirement);
    const equality = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(requirement);
    const existence = /^(!?)\s*([^\s!=(),]+)$/.exec(requirement);
    if (set) matchExpressions.push({ key: set[1], operator: set[2] === 'in' ? 'In' : 'NotIn', values: set[3].split(',').map((v) => v.trim()) });
    else if (equality) matchExpressions.push({ key: equality[1], operator: equality[2] === '!=' ? 'NotIn' : 'In', values: [equality[3]] });
    else if (existence) matchExpressions.push({ key: existence[2], operator: existence[1] ? 'DoesNotExist' : 'Exists' });
    else return undefined;
  }
  return { matchExpressions };
}

/**
 * A label (key and value) that every set of labels the selector matches has: the first of its matchLabels.
 * Undefined when it matches nothing or requires no such label (only expressions, or empty).
 */
export function requiredLabel(selector: LabelSelector | null | undefined): readonly [string, string] | undefined {
  if (selector === null || selector === undefined || typeof selector !== 'object' || !isWellFormedSelector(selector)) return undefined;
  const first = Object.entries(selector.matchLabels ?? {})[0];
  return first ? [first[0], labelValue(first[1])] : undefined;
}

/**
 * The labels a selector can match on: each own key whose value is a string (a selector's values are
 * compared as strings). Undefined for labels written as something other than a mapping, which only the
 * selector itself can judge.
 */
export function matchableLabels(labels: unknown): [string, string][] | undefined {
  if (labels === null || labels === undefined) return [];
  if (typeof labels !== 'object' || Array.isArray(labels)) return undefined;
  return Object.entries(labels).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}
