import type { SimulationInput } from '../../server/src/simulate/messages';
import type { Failure, Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { el } from './dom';
import { describeEvent } from '../../server/src/simulate/describe';
import { formatSeconds } from '../../server/src/simulate/format-time';
import type { Actions } from './page';
import { secondsAt, withEvent, withoutEvent } from './scenario';

const FAILURES: { kind: Failure['kind']; label: string }[] = [
  { kind: 'none', label: 'Nothing (drains, scale-downs, upgrades only)' },
  { kind: 'apiserver', label: 'API server' },
  { kind: 'etcd', label: 'etcd quorum' },
  { kind: 'scheduler', label: 'Scheduler' },
  { kind: 'controller-manager', label: 'Controller manager' },
  { kind: 'nodes', label: 'Whole nodes' },
];

const DURATIONS_MINUTES = [5, 15, 30, 60, 120, 240, 480, 1440];

function failureFieldset(scenario: Scenario, input: SimulationInput | undefined, actions: Actions): HTMLElement {
  const choose = (kind: Failure['kind']) => {
    const firstControlPlane = input?.nodes.find((n) => n.role === 'control-plane')?.name;
    const fail: Failure = kind === 'nodes' ? { kind, nodes: scenario.fail.kind === 'nodes' ? scenario.fail.nodes : firstControlPlane ? [firstControlPlane] : [] } : { kind };
    actions.setScenario({ ...scenario, fail });
  };
  return el(
    'fieldset',
    { class: 'control', attrs: { role: 'radiogroup', 'aria-label': 'What fails' } },
    el('legend', {}, 'What fails'),
    ...FAILURES.map(({ kind, label }) =>
      el(
        'label',
        { class: 'choice' },
        el('input', { attrs: { type: 'radio', name: 'fail', value: kind, checked: scenario.fail.kind === kind, 'data-focus': `fail:${kind}` }, on: { change: () => choose(kind) } }),
        label,
      ),
    ),
  );
}

function nodesFieldset(scenario: Scenario, input: SimulationInput | undefined, actions: Actions): HTMLElement {
  const failing = scenario.fail.kind === 'nodes' ? scenario.fail.nodes : [];
  const enabled = scenario.fail.kind === 'nodes';
  const toggle = (node: string, on: boolean) => {
    const nodes = on ? [...failing, node] : failing.filter((n) => n !== node);
    actions.setScenario({ ...scenario, fail: { kind: 'nodes', nodes } });
  };
  const nodes = input?.nodes ?? [];
  return el(
    'fieldset',
    { class: 'control', attrs: { disabled: !enabled, 'aria-describedby': 'nodes-hint' } },
    el('legend', {}, 'Which nodes'),
    nodes.length ? null : el('p', { class: 'muted' }, 'No nodes known yet.'),
    ...nodes.map((node) =>
      el(
        'label',
        { class: 'choice' },
        el('input', { attrs: { type: 'checkbox', value: node.name, checked: failing.includes(node.name), 'data-focus': `node:${node.name}` }, on: { change: (e) => toggle(node.name, (e.target as HTMLInputElement).checked) } }),
        el(
          'span',
          { class: 'choice-text' },
          el('span', { class: 'node-label', attrs: { title: node.name } }, node.name),
          ...(node.role === 'control-plane' ? [' ', el('span', { class: 'muted' }, '(control plane)')] : []),
        ),
      ),
    ),
    el(
      'p',
      { class: `hint${enabled && !failing.length ? ' ask' : ' muted'}`, attrs: { id: 'nodes-hint', role: enabled && !failing.length ? 'alert' : undefined } },
      !enabled ? 'Choose “Whole nodes” to fail nodes.' : failing.length ? 'Each node takes its pods with it, and on a control-plane node its API server and etcd member.' : 'Tick at least one node to fail: nothing is simulated until you do.',
    ),
  );
}

/** kubectl drain or the autoscaler's scale-down of one node, or a rolling upgrade of them all, at a chosen minute. */
function voluntaryFieldset(scenario: Scenario, input: SimulationInput | undefined, actions: Actions): HTMLElement {
  const workers = (input?.nodes ?? []).filter((n) => n.role === 'worker');
  const node = el('select', { attrs: { 'aria-label': 'Node to drain or scale down', 'data-focus': 'voluntary:node' } }, ...workers.map((n) => el('option', { attrs: { value: n.name } }, n.name)));
  const minutes = el('input', { attrs: { type: 'number', min: 0, max: Math.round(scenario.duration / 60), step: 1, value: 0, 'aria-label': 'Minutes from the start', 'data-focus': 'voluntary:at' } });
  const at = () => secondsAt(minutes.value, scenario);
  const add = (event: ScenarioEvent) => actions.setScenario(withEvent(scenario, event));
  const upgrading = scenario.events.some((e) => e.kind === 'upgrade-nodes');
  return el(
    'fieldset',
    { class: 'control voluntary', attrs: { disabled: !workers.length } },
    el('legend', {}, 'Drain, scale down, upgrade'),
    el('label', { class: 'inline' }, 'Node ', node),
    el('label', { class: 'inline' }, 'at ', minutes, ' min'),
    el(
      'div',
      { class: 'buttons' },
      el('button', { class: 'secondary', attrs: { type: 'button', 'data-focus': 'voluntary:drain', title: 'kubectl drain: PDBs, 5 s retries, full grace periods' }, on: { click: () => add({ kind: 'drain', node: node.value, at: at() }) } }, 'Drain'),
      el('button', { class: 'secondary', attrs: { type: 'button', 'data-focus': 'voluntary:scale-down', title: 'The cluster autoscaler removes the node: its conditions, 600 s grace cap' }, on: { click: () => add({ kind: 'scale-down', node: node.value, at: at() }) } }, 'Scale down'),
      el('button', { class: 'secondary', attrs: { type: 'button', 'data-focus': 'voluntary:upgrade', disabled: upgrading, title: 'Every worker drained in turn and replaced by a fresh node' }, on: { click: () => add({ kind: 'upgrade-nodes', at: at() }) } }, 'Upgrade all nodes'),
    ),
    el('p', { class: 'muted hint' }, workers.length ? 'Choose “Nothing” above to see the drain alone.' : 'No worker nodes known yet.'),
  );
}

function durationControl(scenario: Scenario, actions: Actions): HTMLElement {
  // In seconds: a duration set otherwise (the command line's 90s, a restored state) is shown as it is, not rounded.
  const choices = DURATIONS_MINUTES.map((m) => m * 60);
  const options = choices.includes(scenario.duration) ? choices : [...choices, scenario.duration].sort((a, b) => a - b);
  return el(
    'label',
    { class: 'control field' },
    el('span', { class: 'field-label' }, scenario.fail.kind === 'none' ? 'Time to watch' : 'Outage length'),
    el(
      'select',
      { attrs: { 'data-focus': 'duration' }, on: { change: (e) => actions.setScenario({ ...scenario, duration: Number((e.target as HTMLSelectElement).value) }) } },
      ...options.map((seconds) => el('option', { attrs: { value: seconds, selected: seconds === scenario.duration } }, durationLabel(seconds))),
    ),
  );
}

/** "30 minutes", "1.5 hours", "2 hours"; any other length as the timeline writes it ("1 m 30 s"). */
function durationLabel(seconds: number): string {
  if (seconds < 3600) return seconds % 60 === 0 ? `${seconds / 60} minutes` : formatSeconds(seconds);
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  return seconds % 1800 === 0 ? `${seconds / 3600} hours` : formatSeconds(seconds);
}

function controlPlanesControl(scenario: Scenario, input: SimulationInput | undefined, actions: Actions): HTMLElement {
  const observed = input?.nodes.filter((n) => n.role === 'control-plane').length;
  const set = (value: string) => {
    const next: Scenario = { ...scenario };
    if (value) next.controlPlanes = Number(value);
    else delete next.controlPlanes;
    actions.setScenario(next);
  };
  return el(
    'label',
    { class: 'control field' },
    el('span', { class: 'field-label' }, 'Control-plane nodes'),
    el(
      'select',
      { attrs: { 'data-focus': 'control-planes' }, on: { change: (e) => set((e.target as HTMLSelectElement).value) } },
      el('option', { attrs: { value: '', selected: scenario.controlPlanes === undefined } }, observed ? `As the cluster has (${observed})` : 'As the cluster has'),
      ...[1, 2, 3, 5].map((n) => el('option', { attrs: { value: n, selected: scenario.controlPlanes === n } }, `What if ${n}`)),
    ),
  );
}

function eventsList(scenario: Scenario, actions: Actions): HTMLElement {
  return el(
    'div',
    { class: 'control events' },
    el('h3', {}, scenario.fail.kind === 'none' ? 'What happens' : 'During the outage'),
    scenario.events.length
      ? el(
          'ul',
          { attrs: { 'aria-label': 'Events during the outage' } },
          ...scenario.events.map((event, index) =>
            el(
              'li',
              {},
              el('span', {}, describeEvent(event)),
              el('button', { class: 'icon-button', attrs: { type: 'button', 'aria-label': `Remove: ${describeEvent(event)}`, title: 'Remove', 'data-focus': `remove:${index}` }, on: { click: () => actions.setScenario(withoutEvent(scenario, index)) } }, '✕'),
            ),
          ),
        )
      : el('p', { class: 'muted' }, 'Nothing else happens. Select a node or a pod in the cluster to add a reboot, a crash or a traffic surge.'),
  );
}

export function renderControls(scenario: Scenario, input: SimulationInput | undefined, actions: Actions): HTMLElement {
  return el(
    'section',
    { class: 'controls', attrs: { 'aria-labelledby': 'controls-title' } },
    el('h2', { attrs: { id: 'controls-title' } }, 'Scenario'),
    el('div', { class: 'control-grid' }, failureFieldset(scenario, input, actions), nodesFieldset(scenario, input, actions), el('div', { class: 'control-column' }, durationControl(scenario, actions), controlPlanesControl(scenario, input, actions)), voluntaryFieldset(scenario, input, actions), eventsList(scenario, actions)),
  );
}
