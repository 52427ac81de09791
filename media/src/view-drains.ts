import type { SimulationResult } from '../../server/src/simulate/types';
import { formatSeconds } from '../../server/src/simulate/format-time';
import { el } from './dom';
import type { Actions } from './page';

/** What emptying each node took, and a link from every PDB that blocked it to its finding and fix. */
export function renderDrains(result: SimulationResult | undefined, actions: Actions): HTMLElement | null {
  const drains = result?.drains ?? [];
  if (!drains.length) return null;
  return el(
    'section',
    { class: 'drains', attrs: { 'aria-labelledby': 'drains-title' } },
    el('h2', { attrs: { id: 'drains-title' } }, 'Drains'),
    el(
      'ul',
      {},
      ...drains.map((d) => {
        const who = d.by === 'autoscaler' ? 'Autoscaler scale-down' : 'kubectl drain';
        const outcome = d.notRemovedBecause ? `not removed: ${d.notRemovedBecause}` : d.end === null ? 'never empty within the simulated time' : `empty after ${formatSeconds(d.end - d.start)}`;
        return el(
          'li',
          { attrs: { 'data-drain': d.node } },
          el('strong', {}, `${who} of ${d.node}`),
          ` from ${formatSeconds(d.start)}: ${outcome}; ${d.evicted.length} ${d.evicted.length === 1 ? 'pod' : 'pods'} evicted.`,
          ...d.blocked.map((b) => {
            const span = `from ${formatSeconds(b.from)}${b.to === null ? ' to the end' : ` to ${formatSeconds(b.to)}`}`;
            // Waiting for a replacement to be ready is no finding of the budget as written: nothing to show.
            if (b.untilReady) return el('div', { class: 'blocked' }, `Held by the PodDisruptionBudget ${b.pdb} of ${b.workload} while a pod of it is not ready, ${span}.`);
            // Several budgets over one pod ("a and b") are pdb-multiple's finding, reported on each of them.
            const several = b.pdb.includes(' and ');
            const ruleId = several ? 'pdb-multiple' : 'pdb-blocks-eviction';
            const [namespace, name] = b.pdb.split(' and ')[0].split('/');
            return el(
              'div',
              { class: 'blocked' },
              `Blocked by the ${several ? 'PodDisruptionBudgets' : 'PodDisruptionBudget'} ${b.pdb} of ${b.workload} ${span}. `,
              el(
                'button',
                { class: 'link', attrs: { type: 'button', 'data-focus': `finding:${b.pdb}:${b.from}`, title: `Open the manifest at the ${ruleId} finding and offer its fix` }, on: { click: () => actions.openFinding({ ruleId, kind: 'PodDisruptionBudget', namespace, name }) } },
                'Show the PDB finding and its fix',
              ),
            );
          }),
        );
      }),
    ),
  );
}
