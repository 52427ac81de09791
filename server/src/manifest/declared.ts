import type { Resource } from './parse';
import type { Path } from './path';
import { templatePaths, valueAt } from './workload';
import { factOf } from './facts';

/**
 * Facts a person declares on a workload (or its templates) because manifests cannot say them:
 * how long the app needs to start, whether killing a pod loses user sessions, which rules to ignore.
 */
export const ANNOTATION_PREFIX = 'kube-resilience/';
export const STARTUP_SECONDS_ANNOTATION = 'kube-resilience/startup-seconds';
export const SESSIONS_ANNOTATION = 'kube-resilience/sessions';
export const SESSION_SECONDS_ANNOTATION = 'kube-resilience/session-seconds';
export const IGNORE_ANNOTATION = 'kube-resilience/ignore';

/** `in-memory`: a pod's death loses its users' sessions; `external`: sessions live in a shared store, a pod may die. */
export const SESSION_VALUES = ['in-memory', 'external'] as const;
export type Sessions = (typeof SESSION_VALUES)[number];

export interface DeclaredAnnotationSpec {
  key: string;
  /** What the annotation states, for hovers, completion and docs. */
  description: string;
  /** What values it accepts, in words. */
  accepts: string;
  /** Fixed values, when there are any (offered by completion). */
  values?: readonly string[];
}

export const DECLARED_ANNOTATIONS: readonly DeclaredAnnotationSpec[] = [
  {
    key: STARTUP_SECONDS_ANNOTATION,
    description: 'How long the app needs to start, in seconds; probe rules compare it with the seconds the liveness or startup probe allows a start.',
    accepts: 'a positive whole number of seconds, quoted (e.g. "120")',
  },
  {
    key: SESSIONS_ANNOTATION,
    description: 'Whether killing a pod loses user sessions (websocket rooms, long calls, HTTP sessions held in memory).',
    accepts: '"in-memory" (sessions die with the pod) or "external" (sessions live in a shared store)',
    values: SESSION_VALUES,
  },
  {
    key: SESSION_SECONDS_ANNOTATION,
    description: 'How long one user session lasts, in seconds (a call, a websocket room, a login); the session fixes keep a leaving pod serving that long.',
    accepts: 'a positive whole number of seconds, quoted (e.g. "3600")',
  },
  {
    key: IGNORE_ANNOTATION,
    description: 'Rules to turn off for this resource.',
    accepts: 'comma-separated rule ids (e.g. "pdb-missing,single-replica")',
  },
];

export function declaredAnnotationSpec(key: string): DeclaredAnnotationSpec | undefined {
  return DECLARED_ANNOTATIONS.find((spec) => spec.key === key);
}

/** Rule ids in a comma-separated list, as the ignore annotation and comment write them. */
export function parseRuleList(value: string): string[] {
  return value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** A positive whole number of seconds, or undefined for anything else ("2m", "0", "-5", "1.5"). */
export function parseSeconds(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+$/.test(text)) return undefined;
  const seconds = Number(text);
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : undefined;
}

export function parseSessions(value: unknown): Sessions | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  return (SESSION_VALUES as readonly string[]).includes(text) ? (text as Sessions) : undefined;
}

/** One `kube-resilience/…` annotation as written, with where it sits (for findings at its value). */
export interface WrittenAnnotation {
  key: string;
  value: unknown;
  path: Path;
}

/** Every `kube-resilience/…` annotation on the resource, on a CronJob's Job template and on its pod template, in that order. */
export function writtenAnnotations(resource: Resource): WrittenAnnotation[] {
  return factOf(written, resource.object, () => everyAnnotation(resource).filter(({ key }) => key.startsWith(ANNOTATION_PREFIX)));
}

const written = new WeakMap<object, WrittenAnnotation[]>();

/** Every annotation on the resource, on a CronJob's Job template and on its pod template, in that order, whoever reads it. */
export function everyAnnotation(resource: Resource): WrittenAnnotation[] {
  return factOf(every, resource.object, () => readAnnotations(resource));
}

const every = new WeakMap<object, WrittenAnnotation[]>();

function readAnnotations(resource: Resource): WrittenAnnotation[] {
  const places: Path[] = [['metadata', 'annotations'], ...templatePaths(resource).map((template) => [...template, 'metadata', 'annotations'])];
  return places.flatMap((place) => {
    const annotations = valueAt(resource.object, place);
    if (!annotations || typeof annotations !== 'object' || Array.isArray(annotations)) return [];
    return Object.entries(annotations).map(([key, value]) => ({ key, value, path: [...place, key] }));
  });
}

/** The value of a declared annotation: the innermost template's wins (the pod template's over the workload's). */
function declared(resource: Resource, key: string): unknown {
  const found = writtenAnnotations(resource).filter((a) => a.key === key);
  return found.length ? found[found.length - 1].value : undefined;
}

export interface DeclaredFacts {
  startupSeconds?: number;
  sessions?: Sessions;
  /** How long one session lasts. */
  sessionSeconds?: number;
  ignore: string[];
}

/** What the resource declares; invalid values count as not declared (`annotation-invalid` reports them). */
export function declaredFacts(resource: Resource): DeclaredFacts {
  return factOf(facts, resource.object, () => {
    // Ignored rules add up: the workload's and its pod template's (one replaced the other).
    const ignore = writtenAnnotations(resource).flatMap((a) => (a.key === IGNORE_ANNOTATION && typeof a.value === 'string' ? parseRuleList(a.value) : []));
    return {
      startupSeconds: parseSeconds(declared(resource, STARTUP_SECONDS_ANNOTATION)),
      sessions: parseSessions(declared(resource, SESSIONS_ANNOTATION)),
      sessionSeconds: parseSeconds(declared(resource, SESSION_SECONDS_ANNOTATION)),
      ignore: [...new Set(ignore)],
    };
  });
}

const facts = new WeakMap<object, DeclaredFacts>();
