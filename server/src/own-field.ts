/**
 * Sets a field of an object from outside by a key read from outside: its own field, even for `__proto__`, which an
 * assignment takes for the object's prototype (a key `__proto__` in a snapshot became the prototype, its fields read
 * as the object's own). JSON.parse keeps such a key as a field: so does this.
 */
export function setOwnField<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
