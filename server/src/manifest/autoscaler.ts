import { writtenNotInteger } from './integer-field';
import type { Resource } from './parse';
import { isScaledObject, pausedScaledObject, refusedScaledObject, scaledObjectBounds, scaledObjectScales, scaledObjectTargetRef } from './scaled-object';
import { describeResource, hpaScales, rejectedHpa } from './workload';

/** The kinds that scale a workload: HPAs, and KEDA's ScaledObjects, each read as the HPA KEDA makes of it. */
export const AUTOSCALER_KINDS: readonly string[] = ['HorizontalPodAutoscaler', 'ScaledObject'];

/** An HPA, or a KEDA ScaledObject. */
export function isAutoscaler(resource: Resource): boolean {
  return resource.kind === 'HorizontalPodAutoscaler' || isScaledObject(resource);
}

/** The pods an autoscaler keeps its workload between, and the fields that say so, whichever kind it is. */
export interface AutoscalerBounds {
  /** An HPA's minReplicas (default 1); a ScaledObject's minReplicaCount (default 0: no pod while its triggers are idle). */
  min: number;
  /** An HPA's maxReplicas (undefined when unstated: the API server rejects such an HPA); a ScaledObject's maxReplicaCount (default 100). */
  max: number | undefined;
  /** The floor while it scales (a ScaledObject's minReplicaCount, whatever its idleReplicaCount); an HPA's is min. */
  activeMin: number;
  /** The fields under spec that set them. */
  minField: 'minReplicas' | 'minReplicaCount';
  maxField: 'maxReplicas' | 'maxReplicaCount';
}

export function autoscalerBounds(autoscaler: Resource): AutoscalerBounds {
  if (isScaledObject(autoscaler)) return { ...scaledObjectBounds(autoscaler), minField: 'minReplicaCount', maxField: 'maxReplicaCount' };
  const { minReplicas, maxReplicas } = autoscaler.object?.spec ?? {};
  const min = typeof minReplicas === 'number' ? minReplicas : 1;
  return { min, max: typeof maxReplicas === 'number' ? maxReplicas : undefined, activeMin: min, minField: 'minReplicas', maxField: 'maxReplicas' };
}

/** Whether the autoscaler scales the workload (see hpaScales, scaledObjectScales). */
export function autoscales(autoscaler: Resource, workload: Resource): boolean {
  return isScaledObject(autoscaler) ? scaledObjectScales(autoscaler, workload) : hpaScales(autoscaler, workload);
}

/** Whether it scales nothing whatever it names: an HPA the API server rejects; a ScaledObject KEDA refuses, or paused. */
export function inertAutoscaler(autoscaler: Resource): boolean {
  return isScaledObject(autoscaler) ? refusedScaledObject(autoscaler) || pausedScaledObject(autoscaler) : rejectedHpa(autoscaler);
}

/** The first of its bounds written as no integer (`minReplicas: "2"`), which has the API server refuse it. */
export function boundNotInteger(autoscaler: Resource): { field: string; value: unknown } | undefined {
  const { minField, maxField } = autoscalerBounds(autoscaler);
  const field = [minField, maxField].find((name) => writtenNotInteger(autoscaler.object?.spec?.[name]));
  return field ? { field, value: autoscaler.object.spec[field] } : undefined;
}

/** Its scaleTargetRef as its controller reads it (a ScaledObject's with KEDA's defaults). */
export function scaleTargetRefOf(autoscaler: Resource): { kind?: unknown; name?: unknown } | undefined {
  if (isScaledObject(autoscaler)) return scaledObjectTargetRef(autoscaler);
  const ref: unknown = autoscaler.object?.spec?.scaleTargetRef;
  return ref && typeof ref === 'object' ? ref : undefined;
}

/** "HorizontalPodAutoscaler web", "ScaledObject worker (KEDA)". */
export function describeAutoscaler(autoscaler: Resource): string {
  return isScaledObject(autoscaler) ? `${describeResource(autoscaler)} (KEDA)` : describeResource(autoscaler);
}

/** The floor as a message states it: "HPA minReplicas 2", "KEDA minReplicaCount 3". */
export function describeFloor(autoscaler: Resource, value: number): string {
  return isScaledObject(autoscaler) ? `KEDA minReplicaCount ${value}` : `HPA minReplicas ${value}`;
}
