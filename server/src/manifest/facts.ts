/**
 * A fact about a parsed object (its containers, its declared annotations), computed once per object:
 * several rules ask for it, and an unchanged document keeps its parse, so the fact outlives edits
 * elsewhere. Callers must not change what they get.
 */
export function factOf<T>(cache: WeakMap<object, T>, object: unknown, compute: () => T): T {
  if (!object || typeof object !== 'object') return compute();
  if (cache.has(object)) return cache.get(object)!;
  const fact = compute();
  cache.set(object, fact);
  return fact;
}
