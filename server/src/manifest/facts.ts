/**
 * A fact about an object never changed once made (a parsed object's containers or declared annotations,
 * a finding's signature), computed once per object: several rules ask for it, and an unchanged document
 * keeps its parse, so the fact outlives edits elsewhere. Callers must not change what they get.
 */
export function factOf<T>(cache: WeakMap<object, T>, object: unknown, compute: () => T): T {
  if (!object || typeof object !== 'object') return compute();
  if (cache.has(object)) return cache.get(object)!;
  const fact = compute();
  cache.set(object, fact);
  return fact;
}
