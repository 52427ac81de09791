import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { ManifestFile, Resource } from '../manifest/parse';
import { kindRange, rangeOfPath } from '../manifest/path';
import { containsPosition, type Position, type Range } from '../manifest/text';
import { describeResource, isWorkload } from '../manifest/workload';
import type { Finding } from '../rules/types';
import { findingTitleLine, resilienceCard, type CardOptions, type RuleHref } from './card';
import { drainLink } from './drain-link';
import { fieldMeaning } from './field-hover';
import { keyPathAt } from './key-path';
import { markdownText } from './markdown-text';

export interface HoverText {
  text: string;
  range: Range;
}

export interface HoverOptions {
  /** What the live cluster says of a workload, in one line for its card (see CardOptions.liveLine). */
  liveLine?: (resource: Resource) => string | undefined;
  /** Links each finding to its rule's documentation (the server knows where the docs are). */
  ruleHref?: RuleHref;
  /** Links the card's timings to the fact sheets they come from. */
  factsHref?: CardOptions['factsHref'];
  /** Offers to simulate a drain of the workload's node (a link that runs the client's command: only where it has it). */
  drainLinks?: boolean;
}

function ownFindings(resource: Resource, findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.resource?.kind === resource.kind && f.resource?.name === resource.name && f.resource?.namespace === resource.namespace);
}

/** VS Code's Markdown takes two `~` on a line ("~40–50 s … (~350 s") for a strikethrough: escape them outside code spans. */
function literalTildes(markdown: string): string {
  return markdown
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/~/g, '\\~')))
    .join('');
}

/**
 * Markdown for the hover at `position`: the resilience card on a workload's `kind` line, or on a
 * field a rule looks at, what it means under failure and the findings on its line.
 */
export function hoverAt(file: ManifestFile, position: Position, inventory: Inventory, findings: readonly Finding[], cluster?: ClusterInfo, options: HoverOptions = {}): HoverText | undefined {
  const offset = file.lines.offset(position);
  for (const resource of file.resources) {
    if (!resource.node || !resource.document) continue;
    const [start, end] = [resource.document.offset, resource.document.offset + resource.document.text.length];
    if (offset < start || offset > end) continue;
    if (isWorkload(resource)) {
      const range = kindRange(resource);
      if (range.start.line === position.line && containsPosition({ start: { line: range.start.line, character: 0 }, end: range.end }, position)) {
        const own = ownFindings(resource, findings);
        const action = own.length && options.drainLinks ? drainLink(resource, inventory) : undefined;
        const card = resilienceCard(resource, inventory, own, cluster, { liveLine: options.liveLine?.(resource), ruleHref: options.ruleHref, factsHref: options.factsHref, action });
        return { text: literalTildes(card), range };
      }
    }
    const path = keyPathAt(resource, offset);
    if (!path) continue;
    const meaning = fieldMeaning(resource, path, inventory);
    if (!meaning) continue;
    const range = rangeOfPath(resource, path, 'key');
    const here = findings.filter((f) => f.range && f.range.start.line === range.start.line);
    const key = String(path[path.length - 1]);
    const lines = [`**${markdownText(key)}** — ${markdownText(describeResource(resource))}`, '', meaning];
    if (here.length) lines.push('', ...here.map((f) => findingTitleLine(f, options.ruleHref)));
    return { text: literalTildes(withDrainLink(lines.join('\n'), here.length > 0 && !!options.drainLinks, resource, inventory)), range };
  }
  return undefined;
}

/** A hover that shows findings offers to simulate a drain of the node the workload runs on (where the client can). */
function withDrainLink(markdown: string, offered: boolean, resource: Resource, inventory: Inventory): string {
  const link = offered ? drainLink(resource, inventory) : undefined;
  return link ? `${markdown}\n\n${link}` : markdown;
}
