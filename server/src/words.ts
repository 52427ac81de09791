/** "1 pod", "3 pods", "2 fixes": a count with its noun. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
