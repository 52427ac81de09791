import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { ManifestFile } from '../manifest/parse';
import { kindRange } from '../manifest/path';
import { containsPosition, type Position, type Range } from '../manifest/text';
import { isWorkload } from '../manifest/workload';
import type { Finding } from '../rules/types';
import { resilienceCard } from './card';

export interface HoverText {
  text: string;
  range: Range;
}

/** Markdown for the hover at `position`: the resilience card on a workload's `kind` line. */
export function hoverAt(file: ManifestFile, position: Position, inventory: Inventory, findings: readonly Finding[], cluster?: ClusterInfo): HoverText | undefined {
  for (const resource of file.resources) {
    if (!resource.node || !isWorkload(resource)) continue;
    const range = kindRange(resource);
    if (range.start.line !== position.line || !containsPosition({ start: { line: range.start.line, character: 0 }, end: range.end }, position)) continue;
    const own = findings.filter((f) => f.resource?.kind === resource.kind && f.resource?.name === resource.name && f.resource?.namespace === resource.namespace);
    return { text: resilienceCard(resource, inventory, own, cluster), range };
  }
  return undefined;
}
