import type { Resource } from '../manifest/parse';
import { runSteps, type Steps } from '../steps';
import { unchangedEnds } from '../unchanged-ends';

/** How many resources `replacedInSteps` moves between two pauses. */
const RESOURCES_PER_STEP = 500;

/** The fewest groups a read log keeps before it may start afresh (a small file's questions read a few dozen). */
const MIN_GROUPS_KEPT = 4096;

/**
 * How many groups a resource may account for before the log starts afresh. The groups live after an analysis are
 * fewer than two a resource (9,242 for the 5,889 resources of the 106k-line file, most shared); past this, typing has
 * made the rest (a name keystroke makes two or three), and a fresh start costs one analysis of everything, after
 * some 17,000 keystrokes there.
 */
const GROUPS_KEPT_PER_RESOURCE = 8;

/** A group's generation, in an object of its own, so that reads recorded can look at it again without finding it by name. */
interface Group {
  generation: number;
}

let logs = 0;

/**
 * The groups of resources an analysis asked the inventory about, each at its generation then. Arrays:
 * every document's reads are checked after each keystroke, and walking a Map allocated. The groups
 * themselves are looked up by name once per log: on the 106k-line file, finding 40,000 names in a Map
 * took 1.6 ms of every keystroke. The log that recorded them hands them over as it read them, so the
 * first keystroke after an open does not look up every document's (5 ms there, before V8 optimises).
 */
export class Reads {
  #groups: readonly Group[];
  #log: number;

  constructor(
    readonly names: readonly string[],
    readonly generations: readonly number[],
    recordedBy?: { log: number; groups: readonly Group[] },
  ) {
    this.#log = recordedBy?.log ?? 0;
    this.#groups = recordedBy?.groups ?? [];
  }

  /** The same reads, to be checked against another log (a scratch copy) without moving this one's memo back and forth. */
  copy(): Reads {
    return new Reads(this.names, this.generations);
  }

  /** The groups read, as the log numbered `log` keeps them (`find` looks one up by name). */
  groupsIn(log: number, find: (name: string) => Group): readonly Group[] {
    if (this.#log !== log) {
      this.#groups = this.names.map(find);
      this.#log = log;
    }
    return this.#groups;
  }
}

/**
 * Which questions about other resources an analysis asked, so that its result can be kept until an
 * answer may differ. A question reads groups (`ns|Kind`, `ns|*`, `*|Kind`, `*`, `ns|+custom`); a
 * resource that appears, disappears or changes moves the generation of every group it belongs to.
 * Dependencies are thus inferred from the questions rules ask: a new rule needs nothing to take part.
 */
export class ReadLog {
  private groups = new Map<string, Group>();
  private id = ++logs;
  /** Moves every group at once (a new cluster view, or the log started afresh). */
  private epoch = 0;

  /** The groups read so far, by name. Nothing moves a group while an analysis runs: their generations are read at its end. */
  private recording: Map<string, Group> | undefined;

  /**
   * @param resourceCount How many resources its owner holds, and so how many groups its questions can read (see
   *   startAfreshIfGrown).
   */
  constructor(
    private readonly groupsOf: (resource: Resource) => string[],
    private readonly resourceCount: () => number = () => 0,
  ) {}

  /** A log that goes on from this one's generations: reads recorded here hold there until a group moves there. */
  copy(): ReadLog {
    const copy = new ReadLog(this.groupsOf, this.resourceCount);
    // Groups read but never moved are made again on demand there.
    for (const [name, { generation }] of this.groups) if (generation > 0) copy.groups.set(name, { generation });
    copy.epoch = this.epoch;
    return copy;
  }

  read(name: string): void {
    if (this.recording && !this.recording.has(name)) this.recording.set(name, this.group(name));
  }

  /** The group of that name, made when first asked for. A function of its own: reads look groups up through it. */
  private readonly group = (name: string): Group => {
    let group = this.groups.get(name);
    if (!group) this.groups.set(name, (group = { generation: 0 }));
    return group;
  };

  record<T>(work: () => T): { result: T; reads: Reads } {
    const outer = this.recording;
    const recording = new Map<string, Group>();
    this.recording = recording;
    try {
      const result = work();
      const groups = [...recording.values()];
      const epoch = this.epoch * 2 ** 32;
      return { result, reads: new Reads([...recording.keys()], groups.map((group) => epoch + group.generation), { log: this.id, groups }) };
    } finally {
      // A recording inside another adds to it too: the outer analysis asked the same questions.
      if (outer) for (const [name, group] of recording) if (!outer.has(name)) outer.set(name, group);
      this.recording = outer;
    }
  }

  unchangedSince(reads: Reads): boolean {
    const groups = reads.groupsIn(this.id, this.group);
    const { generations } = reads;
    const epoch = this.epoch * 2 ** 32;
    for (let i = 0; i < groups.length; i++) if (epoch + groups[i].generation !== generations[i]) return false;
    return true;
  }

  /**
   * `before` gave way to `after`: the groups of every resource that is not in both as often (by parsed
   * object: an unchanged text keeps its parse) move.
   */
  replaced(before: readonly Resource[], after: readonly Resource[]): void {
    runSteps(this.replacedInSteps(before, after));
  }

  /** `replaced` in steps of a few hundred resources: a Fix all round replaces thousands (30–40 ms). */
  *replacedInSteps(before: readonly Resource[], after: readonly Resource[]): Steps<void> {
    this.startAfreshIfGrown();
    // An edit keeps the resources before and after it, in place: only those between are counted.
    const { head, tail } = unchangedEnds(before, after, (a, b) => a.object === b.object);
    const gone = before.slice(head, before.length - tail);
    const come = after.slice(head, after.length - tail);
    const count = new Map<unknown, number>();
    for (const resource of come) count.set(resource.object, (count.get(resource.object) ?? 0) + 1);
    for (const resource of gone) count.set(resource.object, (count.get(resource.object) ?? 0) - 1);
    let moved = 0;
    for (const resource of [...gone, ...come]) {
      if (count.get(resource.object) === 0) continue;
      this.moved(resource);
      if (++moved % RESOURCES_PER_STEP === 0) yield;
    }
  }

  everythingChanged(): void {
    this.epoch++;
  }

  /**
   * Every name and label a resource ever had keeps a group, though nothing reads it any more: 10,000 keystrokes in a
   * Deployment's name held 8 MB more. Past GROUPS_KEPT_PER_RESOURCE a resource held (and MIN_GROUPS_KEPT), the log drops
   * them all and moves every group at once: whatever was recorded is analysed again, once, and reads again only what
   * it still asks about. Only between analyses, as a file changes: a recording holds the groups it read.
   */
  private startAfreshIfGrown(): void {
    // Counting the resources walks every file: only once the log holds more than a small file's lifetime of typing.
    if (this.groups.size <= MIN_GROUPS_KEPT || this.groups.size <= MIN_GROUPS_KEPT + GROUPS_KEPT_PER_RESOURCE * this.resourceCount()) return;
    this.groups = new Map();
    this.epoch++;
    // Reads look their groups up again by name, in the new map.
    this.id = ++logs;
  }

  /** How many groups the log keeps (bounded: see startAfreshIfGrown). */
  get size(): number {
    return this.groups.size;
  }

  private moved(resource: Resource): void {
    for (const name of this.groupsOf(resource)) this.group(name).generation++;
  }
}
