import type { Resource } from './parse';
import { writtenNotInteger } from './integer-field';
import { groupOf, metadataAnnotations, refersToScalable } from './workload';

/**
 * KEDA's ScaledObject (keda.sh), as KEDA reads it: it makes and owns an HPA (keda-hpa-<name>) with minReplicas
 * max(minReplicaCount, 1) and maxReplicas maxReplicaCount, and under a minReplicaCount of 0 scales the target between
 * 0 and 1 itself.
 */
export function isScaledObject(resource: Resource): boolean {
  return resource.kind === 'ScaledObject' && groupOf(resource.apiVersion) === 'keda.sh';
}

/** minReplicaCount's default: scaled to zero while its triggers are idle. */
const DEFAULT_MIN = 0;
const DEFAULT_MAX = 100;

/**
 * The pods it keeps at the least and at the most, with KEDA's defaults (0 and 100): its idleReplicaCount when one is
 * set (what it runs while its triggers are idle, below minReplicaCount, which holds only while they are active), else
 * minReplicaCount; and maxReplicaCount.
 */
export function scaledObjectBounds(scaledObject: Resource): { min: number; max: number; activeMin: number } {
  const { minReplicaCount, maxReplicaCount, idleReplicaCount } = scaledObject.object?.spec ?? {};
  const active = Number.isInteger(minReplicaCount) ? Math.max(0, minReplicaCount) : DEFAULT_MIN;
  const min = Number.isInteger(idleReplicaCount) ? Math.max(0, Math.min(idleReplicaCount, active)) : active;
  return { min, max: Number.isInteger(maxReplicaCount) ? maxReplicaCount : DEFAULT_MAX, activeMin: active };
}

/** The scaleTargetRef with KEDA's defaults: apiVersion apps/v1, kind Deployment. */
export function scaledObjectTargetRef(scaledObject: Resource): { apiVersion: unknown; kind: unknown; name: unknown } | undefined {
  const ref: unknown = scaledObject.object?.spec?.scaleTargetRef;
  if (!ref || typeof ref !== 'object') return undefined;
  const { apiVersion, kind, name } = ref as Record<string, unknown>;
  // KEDA defaults an empty one too (Go reads a missing or null field as "").
  return { apiVersion: apiVersion || 'apps/v1', kind: kind || 'Deployment', name };
}

/** Whether KEDA scales the workload: the one its scaleTargetRef names, unless KEDA refuses it or it is paused. */
export function scaledObjectScales(scaledObject: Resource, workload: Resource): boolean {
  return refersToScalable(scaledObjectTargetRef(scaledObject), workload) && !refusedScaledObject(scaledObject) && !pausedScaledObject(scaledObject);
}

export const PAUSED_REPLICAS = 'autoscaling.keda.sh/paused-replicas';
const PAUSED = 'autoscaling.keda.sh/paused';
/** What Go's strconv.ParseBool reads as false; any other value, true or not a boolean, pauses. */
const NOT_PAUSED = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** Whether an annotation pauses it: KEDA then stops scaling (and removes its HPA), whatever its bounds say. */
export function pausedScaledObject(scaledObject: Resource): boolean {
  const annotations = metadataAnnotations(scaledObject);
  if (Object.hasOwn(annotations, PAUSED_REPLICAS)) return true;
  return Object.hasOwn(annotations, PAUSED) && !NOT_PAUSED.has(annotations[PAUSED]);
}

const MAX_INT32 = 2 ** 31 - 1;

/**
 * The count paused-replicas holds its target at, as KEDA reads it (Go's strconv.ParseInt into 32 bits): it scales the
 * target to it before it stops. Undefined without one, or with one it cannot read or scale to ("two", -1): KEDA then
 * makes no HPA and scales nothing, paused all the same.
 */
export function pausedReplicaCount(scaledObject: Resource): number | undefined {
  // Written as a YAML number (`paused-replicas: 1`) it has the API server reject the ScaledObject: it holds nothing.
  const value: unknown = scaledObject.object?.metadata?.annotations?.[PAUSED_REPLICAS];
  if (typeof value !== 'string' || !/^[+-]?[0-9]+$/.test(value)) return undefined;
  const count = Number(value);
  return count >= 0 && count <= MAX_INT32 ? count : undefined;
}

/** Whether it holds the workload at its paused-replicas count: KEDA scales it there only as it would scale it at all. */
export function holdsReplicas(scaledObject: Resource, workload: Resource): boolean {
  return pausedReplicaCount(scaledObject) !== undefined && refersToScalable(scaledObjectTargetRef(scaledObject), workload) && !refusedScaledObject(scaledObject);
}

/**
 * Whether KEDA refuses it and makes no HPA (its checkReplicaCountBoundsAreValid): a minReplicaCount, read as the HPA's
 * floor of at least 1 when it is written, above maxReplicaCount; an idleReplicaCount not below it.
 */
export function refusedScaledObject(scaledObject: Resource): boolean {
  const { minReplicaCount, maxReplicaCount, idleReplicaCount } = scaledObject.object?.spec ?? {};
  // Its CRD's schema types them as integers: the API server refuses the object before KEDA sees it.
  if (writtenNotInteger(minReplicaCount) || writtenNotInteger(maxReplicaCount)) return true;
  const min = typeof minReplicaCount === 'number' ? Math.max(minReplicaCount, 1) : 0;
  return min > scaledObjectBounds(scaledObject).max || (typeof idleReplicaCount === 'number' && idleReplicaCount >= min);
}
