/** "1 pod", "3 pods", "2 fixes": a count with its noun. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** At most `max` names, then how many more there are: `["a", "b", "3 more"]`, for a sentence to join. */
export function namesUpTo(names: readonly string[], max: number): string[] {
  return names.length > max ? [...names.slice(0, max), `${names.length - max} more`] : [...names];
}

/** Items joined for a sentence: "a", "a and b", "a, b and c". */
export function sentenceList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** At most `max` names joined for a sentence, then how many more: "a, b and 3 more". */
export function namesListed(names: readonly string[], max: number): string {
  return sentenceList(namesUpTo(names, max));
}

/** "a Node", "an EndpointSlice": the article a noun written as code takes (by its first letter, as it is read). */
export function withArticle(noun: string): string {
  return `${/^[AEIOU]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
