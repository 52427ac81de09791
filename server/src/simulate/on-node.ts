import { setOwnField } from '../own-field';

/**
 * A node's entry in a record keyed by node name: its own entry only. `constructor`, `toString` and `valueOf` are
 * valid node names, and every object inherits a member of that name (read as a count, a node named `constructor`
 * held a function, and its pods left the simulation).
 */
export function onNode<T>(record: Readonly<Record<string, T>> | undefined, node: string): T | undefined {
  return record && Object.hasOwn(record, node) ? record[node] : undefined;
}

/** Counts one more on the node's own entry (a node named `__proto__` too). */
export function countOnNode(record: Record<string, number>, node: string): void {
  setOwnField(record, node, (onNode(record, node) ?? 0) + 1);
}
