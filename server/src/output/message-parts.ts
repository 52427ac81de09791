/**
 * A finding's message opens with one sentence that stands alone (what breaks, with the workload's
 * numbers); the rest says why, when and what to do. Lists show the first, details pages the rest.
 */
export function splitMessage(message: string): { headline: string; details: string } {
  // A sentence ends at ". ", "! " or "? " followed by a capital, a digit or a quote, not inside "e.g. x" or "1.5 s".
  const match = /[.!?:](?=\s+[A-Z0-9"“(`])/.exec(message.replace(/\b(?:e\.g|i\.e|etc|vs)\./g, (m) => m.replace(/\./g, '\u2024')));
  if (!match || match[0] === ':') return { headline: message.trim(), details: '' };
  const end = match.index + 1;
  return { headline: message.slice(0, end).trim(), details: message.slice(end).trim() };
}
