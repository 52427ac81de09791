const groups = new WeakMap<readonly { node: string }[], { length: number; byNode: Map<string, { node: string }[]> }>();
const NONE: never[] = [];

/**
 * The entries of `list` (drains, node incidents) about `node`, grouped once per list: the scheduler asks about
 * every node, and a rolling upgrade of thousands of nodes has a drain and an incident for each. A list that grew
 * since (a case adds an incident to a run it made) is grouped again.
 */
export function onNode<T extends { node: string }>(list: readonly T[], node: string): readonly T[] {
  let group = groups.get(list);
  if (!group || group.length !== list.length) {
    const byNode = new Map<string, T[]>();
    for (const item of list) {
      const same = byNode.get(item.node);
      if (same) same.push(item);
      else byNode.set(item.node, [item]);
    }
    group = { length: list.length, byNode };
    groups.set(list, group);
  }
  return (group.byNode.get(node) as T[] | undefined) ?? NONE;
}
