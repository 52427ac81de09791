import type { Resource } from '../manifest/parse';
import { unchangedEnds } from '../unchanged-ends';

/**
 * The groups of resources an analysis asked the inventory about, each at its generation then. Two
 * arrays: every document's reads are checked after each keystroke, and walking a Map allocated.
 */
export interface Reads {
  readonly groups: readonly string[];
  readonly generations: readonly number[];
}

/**
 * Which questions about other resources an analysis asked, so that its result can be kept until an
 * answer may differ. A question reads groups (`ns|Kind`, `ns|*`, `*|Kind`, `*`, `ns|+custom`); a
 * resource that appears, disappears or changes moves the generation of every group it belongs to.
 * Dependencies are thus inferred from the questions rules ask: a new rule needs nothing to take part.
 */
export class ReadLog {
  private readonly generations = new Map<string, number>();
  /** Moves every group at once (a new cluster view). */
  private epoch = 0;
  private recording: Map<string, number> | undefined;

  constructor(private readonly groupsOf: (resource: Resource) => string[]) {}

  /** A log that goes on from this one's generations: reads recorded here hold there until a group moves there. */
  copy(): ReadLog {
    const copy = new ReadLog(this.groupsOf);
    for (const [group, generation] of this.generations) copy.generations.set(group, generation);
    copy.epoch = this.epoch;
    return copy;
  }

  read(group: string): void {
    if (this.recording && !this.recording.has(group)) this.recording.set(group, this.generation(group));
  }

  private generation(group: string): number {
    return this.epoch * 2 ** 32 + (this.generations.get(group) ?? 0);
  }

  record<T>(work: () => T): { result: T; reads: Reads } {
    const outer = this.recording;
    const reads = new Map<string, number>();
    this.recording = reads;
    try {
      return { result: work(), reads: { groups: [...reads.keys()], generations: [...reads.values()] } };
    } finally {
      // A recording inside another adds to it too: the outer analysis asked the same questions.
      if (outer) for (const [group, generation] of reads) if (!outer.has(group)) outer.set(group, generation);
      this.recording = outer;
    }
  }

  unchangedSince({ groups, generations }: Reads): boolean {
    for (let i = 0; i < groups.length; i++) if (this.generation(groups[i]) !== generations[i]) return false;
    return true;
  }

  /**
   * `before` gave way to `after`: the groups of every resource that is not in both as often (by parsed
   * object: an unchanged text keeps its parse) move.
   */
  replaced(before: readonly Resource[], after: readonly Resource[]): void {
    // An edit keeps the resources before and after it, in place: only those between are counted.
    const { head, tail } = unchangedEnds(before, after, (a, b) => a.object === b.object);
    const gone = before.slice(head, before.length - tail);
    const come = after.slice(head, after.length - tail);
    const count = new Map<unknown, number>();
    for (const resource of come) count.set(resource.object, (count.get(resource.object) ?? 0) + 1);
    for (const resource of gone) count.set(resource.object, (count.get(resource.object) ?? 0) - 1);
    for (const resource of [...gone, ...come]) if (count.get(resource.object) !== 0) this.moved(resource);
  }

  everythingChanged(): void {
    this.epoch++;
  }

  private moved(resource: Resource): void {
    for (const group of this.groupsOf(resource)) this.generations.set(group, (this.generations.get(group) ?? 0) + 1);
  }
}
