import type { Resource } from './parse';
import type { Path } from './path';

/**
 * Fields that some served API versions of a kind lack, with where they exist. A fix must not write
 * one into a version that lacks it: the API server rejects the field (strict decoding) or drops it
 * in silence, and either way the finding's promise is not kept.
 */
export const FIELDS_NOT_IN: readonly { apiVersion: string; kind: string; path: readonly string[]; existsIn: string }[] = [
  { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', path: ['spec', 'unhealthyPodEvictionPolicy'], existsIn: 'policy/v1 (Kubernetes 1.26+)' },
  { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', path: ['spec', 'behavior'], existsIn: 'autoscaling/v2 (and v2beta2)' },
  { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', path: ['spec', 'metrics'], existsIn: 'autoscaling/v2 (and v2beta1, v2beta2)' },
  { apiVersion: 'autoscaling/v2beta1', kind: 'HorizontalPodAutoscaler', path: ['spec', 'behavior'], existsIn: 'autoscaling/v2 (and v2beta2)' },
];

/** Where the field exists, when the resource's apiVersion lacks it; undefined when it has it (or nothing is known). */
export function fieldMissingFrom(resource: Pick<Resource, 'apiVersion' | 'kind'>, path: Path): string | undefined {
  const found = FIELDS_NOT_IN.find((f) => f.apiVersion === resource.apiVersion && f.kind === resource.kind && f.path.length <= path.length && f.path.every((step, i) => step === path[i]));
  return found?.existsIn;
}
