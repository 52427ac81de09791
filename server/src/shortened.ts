/**
 * A tool's message as it may be shown: at most about `max` characters, keeping its start (where, most often)
 * and its end (why), cut at spaces. A template that includes itself made helm say 64 KB on one line.
 */
export function shortened(text: string, max = 800): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max / 2).replace(/\s+\S*$/, '');
  const tail = text.slice(-max / 2).replace(/^\S*\s+/, '');
  return `${head} … (${text.length.toLocaleString('en')} characters in all) … ${tail}`;
}
