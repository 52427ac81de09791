const groups = new WeakMap<readonly { node: string }[], Map<string, { node: string }[]>>();
const NONE: never[] = [];

/**
 * The entries of `list` (drains, node incidents) about `node`, grouped once per list: the scheduler asks about
 * every node, and a rolling upgrade of thousands of nodes has a drain and an incident for each. A simulation's
 * lists are made whole and never changed (a step of an upgrade makes new ones).
 */
export function onNode<T extends { node: string }>(list: readonly T[], node: string): readonly T[] {
  let byNode = groups.get(list);
  if (!byNode) {
    byNode = new Map();
    for (const item of list) {
      const same = byNode.get(item.node);
      if (same) same.push(item);
      else byNode.set(item.node, [item]);
    }
    groups.set(list, byNode);
  }
  return (byNode.get(node) as T[] | undefined) ?? NONE;
}
