/**
 * The lists the items hold, one after another, as `items.flatMap(listOf)` gives them. V8 runs flatMap
 * through generic property access: over the 5,890 documents of the 106k-line file it took 1 ms where this
 * loop takes 0.2 ms, and a keystroke flattens the file's documents and their findings each time.
 */
export function flattened<T, U>(items: readonly T[], listOf: (item: T) => readonly U[]): U[] {
  const all: U[] = [];
  for (const item of items) for (const element of listOf(item)) all.push(element);
  return all;
}
