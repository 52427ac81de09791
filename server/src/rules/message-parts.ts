import type { Finding } from './types';

/** The longest first sentence: what the Problems panel shows on one line at 1600 px, beside the file and rule id. */
export const HEADLINE_LIMIT = 100;

/** Names longer than this count as this long against the limit: users choose their names, the rules choose the rest. */
const NAME_ALLOWANCE = 12;

/**
 * A finding's message opens with one sentence that stands alone (what breaks, with the workload's
 * numbers); the rest says why, when and what to do. Lists show the first, details pages the rest.
 */
export function splitMessage(message: string): { headline: string; details: string } {
  // A sentence ends at ". ", "! " or "? " followed by a capital, a digit, a quote or a backtick, not after "e.g." or inside "1.5 s".
  const match = /[.!?](?=\s+[A-Z0-9"“(`])/.exec(message.replace(/\b(?:e\.g|i\.e|etc|vs)\./g, (m) => m.replace(/\./g, '\u2024')));
  if (!match) return { headline: message.trim(), details: '' };
  const end = match.index + 1;
  return { headline: message.slice(0, end).trim(), details: message.slice(end).trim() };
}

/** The first sentence's length, with the resource's name, namespace and container names counted as at most 12 characters each. */
export function headlineLength(finding: Pick<Finding, 'message' | 'resource'>): number {
  const { headline } = splitMessage(finding.message);
  const containers = [...headline.matchAll(/, container ([^\s:,]+)/g)].map((m) => m[1]);
  const names = new Set([finding.resource?.name, finding.resource?.namespace, ...containers].filter((n): n is string => !!n && n.length > NAME_ALLOWANCE));
  let length = headline.length;
  for (const name of names) length -= (headline.split(name).length - 1) * (name.length - NAME_ALLOWANCE);
  return length;
}
