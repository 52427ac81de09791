interface Item {
  at: number;
  seq: number;
  run: () => void;
}

const before = (a: Item, b: Item) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * A time-ordered queue of actions; actions at the same moment run in the order they were scheduled.
 * A binary heap: a run holds an event per drain and per node incident, thousands in a large upgrade.
 */
export class EventQueue {
  private items: Item[] = [];
  private seq = 0;

  schedule(at: number, run: () => void): void {
    if (!Number.isFinite(at)) return;
    const items = this.items;
    let i = items.push({ at, seq: this.seq++, run }) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  get size(): number {
    return this.items.length;
  }

  nextAt(): number {
    return this.items[0]?.at ?? Infinity;
  }

  /** Removes and returns the earliest action. */
  pop(): { at: number; run: () => void } | undefined {
    const items = this.items;
    const first = items[0];
    const last = items.pop();
    if (!first || first === last) return first;
    items[0] = last!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < items.length && before(items[left], items[best])) best = left;
      if (right < items.length && before(items[right], items[best])) best = right;
      if (best === i) break;
      [items[i], items[best]] = [items[best], items[i]];
      i = best;
    }
    return first;
  }
}
