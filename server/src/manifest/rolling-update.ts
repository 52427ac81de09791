import { isObject } from '../is-object';
import { parseIntOrPercent, scaleIntOrPercent, type IntOrPercent } from './int-or-percent';
import type { Resource } from './parse';

/** How far a Deployment's rolling update may go below and above its desired replicas, as written or defaulted. */
export interface Fenceposts {
  maxUnavailable: IntOrPercent;
  maxSurge: IntOrPercent;
}

/** What apps/v1 writes for a fencepost left unset. */
const DEFAULT_FENCEPOST: IntOrPercent = { kind: 'percent', value: 25 };

/** A fencepost as the API server takes it: unset is the default, a negative number or a string that is no percentage is refused. */
function fencepost(value: unknown): IntOrPercent | undefined {
  if (value == null) return DEFAULT_FENCEPOST;
  const parsed = parseIntOrPercent(value);
  return parsed && parsed.value >= 0 ? parsed : undefined;
}

/**
 * The fenceposts of a Deployment that rolls (type RollingUpdate, written or left to the default). Undefined for
 * Recreate, and for settings the API server refuses, so that the Deployment is never created or changed: a strategy
 * type it does not know, a fencepost it does not take (see fencepost), maxUnavailable over 100%, or both 0.
 */
export function rollingUpdateFenceposts(deployment: Resource): Fenceposts | undefined {
  const strategy: unknown = deployment.object?.spec?.strategy;
  if (strategy != null && !isObject(strategy)) return undefined;
  if (![undefined, null, '', 'RollingUpdate'].includes(strategy?.type)) return undefined;
  const rollingUpdate: unknown = strategy?.rollingUpdate;
  if (rollingUpdate != null && !isObject(rollingUpdate)) return undefined;
  const maxUnavailable = fencepost(rollingUpdate?.maxUnavailable);
  const maxSurge = fencepost(rollingUpdate?.maxSurge);
  if (!maxUnavailable || !maxSurge) return undefined;
  if (maxUnavailable.kind === 'percent' && maxUnavailable.value > 100) return undefined;
  if (maxUnavailable.value === 0 && maxSurge.value === 0) return undefined;
  return { maxUnavailable, maxSurge };
}

/**
 * Whether a Recreate strategy also sets rollingUpdate, which the API server refuses ("may not be specified when
 * strategy `type` is 'Recreate'"), with the whole Deployment. Written with no value (`rollingUpdate:`, null) it sets
 * nothing, and is taken; an empty mapping is set, and refused.
 */
export function recreateWithRollingUpdate(deployment: Resource): boolean {
  const strategy: unknown = deployment.object?.spec?.strategy;
  return isObject(strategy) && strategy.type === 'Recreate' && strategy.rollingUpdate != null;
}

/**
 * How many of `replicas` pods a rollout may take down at once, as the Deployment controller resolves it
 * (ResolveFenceposts, capped at the replicas by MaxUnavailable): maxUnavailable rounded down, maxSurge rounded up, and
 * when both come to 0 one pod, since a surge may be held back by a quota.
 */
export function resolvedMaxUnavailable(fenceposts: Fenceposts, replicas: number): number {
  const unavailable = scaleIntOrPercent(fenceposts.maxUnavailable, replicas, false);
  const surge = scaleIntOrPercent(fenceposts.maxSurge, replicas, true);
  return Math.min(replicas, unavailable === 0 && surge === 0 ? 1 : unavailable);
}
