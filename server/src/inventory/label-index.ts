/** A label as a key and a value. */
export type LabelPair = readonly [key: string, value: string];

/**
 * Items filed under labels, so that a question "which of these may match" tries the few filed under the
 * labels it names rather than every item of a namespace (a PDB or a Service per workload of thousands).
 * An item filed under no label list is a candidate for every question; a question naming no labels
 * has every item as a candidate. Candidates keep the order of the items, so a filter of them by the
 * exact predicate gives what filtering every item gives, provided no item outside them can match.
 */
export class LabelIndex<T> {
  private readonly filed = new Map<string, Map<string, number[]>>();
  private readonly always: number[] = [];

  constructor(private readonly items: readonly T[], labelsOf: (item: T) => readonly LabelPair[] | undefined) {
    items.forEach((item, position) => {
      const labels = labelsOf(item);
      if (!labels) {
        this.always.push(position);
        return;
      }
      for (const [key, value] of labels) {
        let values = this.filed.get(key);
        if (!values) this.filed.set(key, (values = new Map()));
        const positions = values.get(value);
        // Each list holds an item once, in the items' order (a label named twice files it once).
        if (!positions) values.set(value, [position]);
        else if (positions[positions.length - 1] !== position) positions.push(position);
      }
    });
  }

  /** The items that may match a question naming these labels (undefined: it names none, every item may). */
  candidates(labels: readonly LabelPair[] | undefined): T[] {
    if (!labels) return this.items.slice();
    const lists = [this.always];
    for (const [key, value] of labels) lists.push(this.filed.get(key)?.get(value) ?? []);
    const named = lists.filter((list) => list.length > 0);
    // Most questions find positions in one list only (one label, no item for every question): those are in order, each once.
    if (named.length <= 1) return (named[0] ?? []).map((p) => this.items[p]);
    const positions = named.flat().sort((a, b) => a - b);
    return positions.filter((p, i) => p !== positions[i - 1]).map((p) => this.items[p]);
  }
}
