import { sentenceList } from '../words';
import type { SourceEdits } from './types';

/**
 * The other rendered resources a fix changes too, as said: the first three by kind and name, and how many in all
 * (a `range` of 1,500 Deployments printing one values key named 1,499 in every fix).
 */
export function namedFew(indexes: readonly number[], objectOf: (index: number) => unknown, by: string): NonNullable<SourceEdits['alsoChanges']> {
  const name = (object: any) => `${String(object?.kind ?? 'a resource')} ${String(object?.metadata?.name ?? '')}`.trim();
  return { resources: indexes.slice(0, 3).map((i) => name(objectOf(i))), count: indexes.length, by };
}

/** Why such a fix is unsafe, in words: `it also changes Deployment b, Deployment c and 4 more: the same values key sets them`. */
export function alsoChangesSaid(also: NonNullable<SourceEdits['alsoChanges']>): string {
  const named = also.count > also.resources.length ? [...also.resources, `${also.count - also.resources.length} more`] : also.resources;
  return `it also changes ${sentenceList(named)}: the same ${also.by} sets ${also.count === 1 ? 'it' : 'them'}`;
}
