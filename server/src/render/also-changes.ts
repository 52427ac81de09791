import { basename } from 'node:path';
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

/** Why a fix that edits a file other units render from is unsafe: `it edits common.yaml, which chart b renders from too`. */
export function sharedFileSaid(others: readonly { root: string; path: string }[]): string {
  const roots = [...new Set(others.map((o) => basename(o.root)))];
  const named = roots.length > 3 ? [...roots.slice(0, 3), `${roots.length - 3} more`] : roots;
  return `it edits ${basename(others[0].path)}, which ${roots.length === 1 ? 'chart' : 'charts'} ${sentenceList(named)} ${roots.length === 1 ? 'renders' : 'render'} from too`;
}
