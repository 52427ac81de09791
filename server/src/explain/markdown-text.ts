/**
 * Text from a manifest or a cluster (a name, a probe's command or path) as it reads in a hover's Markdown: every
 * character Markdown gives a meaning is escaped, so that it shows as written. Unescaped, a name drew a table
 * column (`|`), italics (`*x*`), a code span, raw HTML, or a link (`[…](command:…)`) the editor trusts. `~` is
 * left to the hover's own escaping of tildes, which runs over the whole text; line breaks become spaces.
 */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()<>#+!|&]/g, (c) => `\\${c}`);
}

/**
 * Text from outside as a Markdown code span: fenced by more backticks than any run of them it holds, so
 * that none of its own ends the span early (a context name's backtick let the rest be read as Markdown).
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  // A span that starts or ends with a backtick needs a space between it and the fence (CommonMark strips one).
  const padded = /^`|`$/.test(flat) || /^ .*\S.* $/.test(flat) ? ` ${flat} ` : flat;
  return `${fence}${padded}${fence}`;
}
