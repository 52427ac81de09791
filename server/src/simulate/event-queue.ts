/** A time-ordered queue of actions; actions at the same moment run in the order they were scheduled. */
export class EventQueue {
  private items: { at: number; seq: number; run: () => void }[] = [];
  private seq = 0;

  schedule(at: number, run: () => void): void {
    if (!Number.isFinite(at)) return;
    this.items.push({ at, seq: this.seq++, run });
  }

  get size(): number {
    return this.items.length;
  }

  nextAt(): number {
    return this.items.reduce((min, item) => Math.min(min, item.at), Infinity);
  }

  /** Removes and returns the earliest action. */
  pop(): { at: number; run: () => void } | undefined {
    if (!this.items.length) return undefined;
    let best = 0;
    for (let i = 1; i < this.items.length; i++) {
      const a = this.items[i];
      const b = this.items[best];
      if (a.at < b.at || (a.at === b.at && a.seq < b.seq)) best = i;
    }
    return this.items.splice(best, 1)[0];
  }
}
