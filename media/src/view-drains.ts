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
            const [namespace, name] = b.pdb.split('/');
            return el(
              'div',
              { class: 'blocked' },
              `Blocked by the PodDisruptionBudget ${b.pdb} of ${b.workload} from ${formatSeconds(b.from)}${b.to === null ? ' to the end' : ` to ${formatSeconds(b.to)}`}. `,
              el(
                'button',
                { class: 'link', attrs: { type: 'button', 'data-focus': `finding:${b.pdb}:${b.from}`, title: 'Open the manifest at the pdb-blocks-eviction finding and offer its fix' }, on: { click: () => actions.openFinding({ ruleId: 'pdb-blocks-eviction', kind: 'PodDisruptionBudget', namespace, name }) } },
                'Show the PDB finding and its fix',
              ),
            );
          }),
        );
      }),
    ),
  );
}
