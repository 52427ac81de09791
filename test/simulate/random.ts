/** mulberry32: the same seed gives the same cases, so a failure can be replayed. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole numbers and choices drawn from one stream. */
export function draws(next: () => number) {
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)];
  return { int, pick };
}

/** `count` pods spread at random over the nodes. */
export function randomPlacement(count: number, nodes: string[], pick: <T>(list: readonly T[]) => T): Record<string, number> {
  const placement: Record<string, number> = {};
  for (let r = count; r > 0; r--) {
    const node = pick(nodes);
    placement[node] = (placement[node] ?? 0) + 1;
  }
  return placement;
}
