/** etcd's majority for n members (rule 1). */
export function quorumSize(members: number): number {
  return Math.floor(members / 2) + 1;
}

/** How many members etcd can lose and keep quorum. */
export function failureTolerance(members: number): number {
  return members - quorumSize(members);
}

export function hasQuorum(members: number, alive: number): boolean {
  return members > 0 && alive >= quorumSize(members);
}
