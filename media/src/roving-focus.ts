/**
 * One tab stop for the whole timeline: arrow keys move between segments (Left/Right within a row,
 * Up/Down to the segment of the next row at the same moment, Home/End to a row's ends), as in an ARIA grid.
 */
export function rovingFocus(container: HTMLElement, itemSelector: string, rowSelector: string): void {
  const items = () => [...container.querySelectorAll<HTMLElement>(itemSelector)];
  const makeStop = (item: HTMLElement) => {
    for (const other of items()) other.tabIndex = other === item ? 0 : -1;
  };
  const first = items()[0];
  if (first) makeStop(first);

  /** The segment of the row `step` rows away that covers the moment `item` starts at. */
  const across = (item: HTMLElement, row: HTMLElement, step: number): HTMLElement | undefined => {
    const rows = [...container.querySelectorAll<HTMLElement>(rowSelector)].filter((r) => r.querySelector(itemSelector));
    const next = rows[rows.indexOf(row) + step];
    if (!next) return undefined;
    const left = item.getBoundingClientRect().left;
    const candidates = [...next.querySelectorAll<HTMLElement>(itemSelector)];
    return candidates.filter((c) => c.getBoundingClientRect().left <= left + 1).at(-1) ?? candidates[0];
  };

  container.addEventListener('focusin', (event) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>(itemSelector);
    if (item) makeStop(item);
  });
  container.addEventListener('keydown', (event) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>(itemSelector);
    const row = item?.closest<HTMLElement>(rowSelector);
    if (!item || !row) return;
    const inRow = [...row.querySelectorAll<HTMLElement>(itemSelector)];
    const index = inRow.indexOf(item);
    let target: HTMLElement | undefined;
    switch (event.key) {
      case 'ArrowRight':
        target = inRow[index + 1];
        break;
      case 'ArrowLeft':
        target = inRow[index - 1];
        break;
      case 'Home':
        target = inRow[0];
        break;
      case 'End':
        target = inRow[inRow.length - 1];
        break;
      case 'ArrowDown':
        target = across(item, row, 1);
        break;
      case 'ArrowUp':
        target = across(item, row, -1);
        break;
      default:
        return;
    }
    event.preventDefault();
    target?.focus();
  });
}
