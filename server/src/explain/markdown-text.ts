/**
 * Text from a manifest or a cluster (a name, a probe's command or path) as it reads in a hover's Markdown: every
 * character Markdown gives a meaning is escaped, so that it shows as written. Unescaped, a name drew a table
 * column (`|`), italics (`*x*`), a code span, raw HTML, or a link (`[…](command:…)`) the editor trusts. `~` is
 * left to the hover's own escaping of tildes, which runs over the whole text; line breaks become spaces.
 */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()<>#+!|&]/g, (c) => `\\${c}`);
}
