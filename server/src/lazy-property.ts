/**
 * A property whose value is read from a function kept on the object (a finding's fixes, written only when
 * first read). Every object shares one getter and one setter. A getter of its own, a closure per object,
 * cost twice: V8 keeps an object with such a getter in dictionary mode, and allocates the getter's accessor
 * pair in the old generation. A dead pair still points to its closure, and the young generation's collections
 * keep whatever the closure holds (the version of a file it was computed on) until a full collection: typing
 * in a large file copied megabytes at every one of them.
 *
 * The function may also be asked for a named part of the value (a finding's own fixes, without the ignore
 * actions written for every finding), so that a reader who needs only that part does not pay for the rest.
 */
export class LazyProperty<T, Part extends string = never> {
  private readonly source: symbol;
  private readonly descriptor: PropertyDescriptor;

  constructor(
    readonly name: string,
    enumerable: boolean,
  ) {
    const source = (this.source = Symbol(name));
    this.descriptor = {
      enumerable,
      configurable: true,
      get(this: Record<symbol, Reader<T, Part>>) {
        return this[source]();
      },
      set(this: Record<symbol, Reader<T, Part>>, value: T) {
        this[source] = () => value;
      },
    };
  }

  /** `target[name]` is what `read()` gives from now on, and its parts what `read(part)` gives. */
  define<O extends object>(target: O, read: Reader<T, Part>): O {
    Object.defineProperty(target, this.source, { value: read, writable: true, enumerable: false, configurable: true });
    if (Object.getOwnPropertyDescriptor(target, this.name)?.get !== this.descriptor.get) Object.defineProperty(target, this.name, this.descriptor);
    return target;
  }

  /** `target[name]` computed by `compute` when first read, and kept. */
  defineOnce<O extends object>(target: O, compute: () => NonNullable<T>): O {
    let value: NonNullable<T> | undefined;
    return this.define(target, () => (value ??= compute()));
  }

  /** A part of `target[name]` (all of it without `part`): from its function when it has one, else the whole value (which holds the part). */
  readPart(target: object, part?: Part): T {
    const own = Object.getOwnPropertyDescriptor(target, this.name);
    if (own?.get === this.descriptor.get) return (target as Record<symbol, Reader<T, Part>>)[this.source](part);
    return (target as Record<string, T>)[this.name];
  }

  /** What gives `target[name]` (and its parts) now, without reading it: its function, its own getter or value, or `fallback`. */
  readerOf(target: object, fallback: T): Reader<T, Part> {
    const own = Object.getOwnPropertyDescriptor(target, this.name);
    if (own?.get === this.descriptor.get) return (target as Record<symbol, Reader<T, Part>>)[this.source];
    if (own?.get) return () => own.get!.call(target) as T;
    return () => (own?.value as T | undefined) ?? fallback;
  }
}

/** Gives a lazy property's whole value, or the part named. */
export type Reader<T, Part extends string> = (part?: Part) => T;
