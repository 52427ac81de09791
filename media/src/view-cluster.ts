import type { NodeView, PodView, SimulationInput } from '../../server/src/simulate/messages';
import type { Scenario, ScenarioEvent, SimulationResult, State } from '../../server/src/simulate/types';
import { el, present } from './dom';
import type { Actions } from './page';
import { secondsAt, type Target, withEvent } from './scenario';

/** The worst state the result gives a node (a rebooted or lost node, a failed control-plane node). */
function nodeState(node: string, result: SimulationResult | undefined): State | undefined {
  const states = result?.timeline.filter((e) => e.subject.type === 'node' && e.subject.name === node).map((e) => e.state) ?? [];
  return states.includes('down') ? 'down' : states.includes('degraded') ? 'degraded' : states.length ? 'ok' : undefined;
}

function sameTarget(a: Target | undefined, b: Target): boolean {
  return !!a && a.type === b.type && a.name === b.name && (a.type === 'node' || (b.type === 'workload' && a.namespace === b.namespace));
}

/** Pods of one workload on one node, drawn as one chip. */
function groupPods(pods: PodView[]): { pod: PodView; count: number }[] {
  const groups = new Map<string, { pod: PodView; count: number }>();
  for (const pod of pods) {
    const key = `${pod.namespace}/${pod.workload}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { pod, count: 1 });
  }
  return [...groups.values()];
}

function nodeCard(node: NodeView, selected: Target | undefined, focus: PageFocus, result: SimulationResult | undefined, actions: Actions): HTMLElement {
  const state = nodeState(node.name, result);
  const target: Target = { type: 'node', name: node.name };
  return el(
    'li',
    { class: `node ${node.role}${state ? ` state-${state}` : ''}`, attrs: { 'aria-label': `${node.role === 'control-plane' ? 'Control-plane node' : 'Worker node'} ${node.name}` } },
    el(
      'button',
      { class: `node-name${sameTarget(selected, target) ? ' selected' : ''}`, attrs: { type: 'button', 'aria-pressed': sameTarget(selected, target), 'data-focus': `target:node:${node.name}`, title: `${node.name}: add an event` }, on: { click: () => actions.selectTarget(sameTarget(selected, target) ? undefined : target) } },
      node.name,
    ),
    el(
      'div',
      { class: 'badges' },
      node.role === 'control-plane' ? el('span', { class: 'badge' }, 'control plane') : null,
      node.etcdMember ? el('span', { class: 'badge etcd', attrs: { title: 'An etcd member runs here' } }, 'etcd') : null,
      node.dns ? el('span', { class: 'badge dns', attrs: { title: 'A CoreDNS replica runs here' } }, 'DNS') : null,
      node.zone ? el('span', { class: 'badge zone' }, node.zone) : null,
      state && state !== 'ok' ? el('span', { class: `badge state-${state}` }, state) : null,
    ),
    el(
      'ul',
      { class: 'pods', attrs: { 'aria-label': `Pods on ${node.name}` } },
      ...groupPods(node.pods).map(({ pod, count }) => {
        const podTarget: Target = { type: 'workload', namespace: pod.namespace, name: pod.workload };
        const focused = focus?.namespace === pod.namespace && focus.workload === pod.workload;
        return el(
          'li',
          {},
          el(
            'button',
            {
              class: `pod${sameTarget(selected, podTarget) ? ' selected' : ''}${focused ? ' focused' : ''}`,
              attrs: { type: 'button', 'aria-pressed': sameTarget(selected, podTarget), title: `${pod.kind} ${pod.namespace}/${pod.workload}: add an event`, 'data-focus': `target:pod:${node.name}:${pod.namespace}/${pod.workload}` },
              on: { click: () => actions.selectTarget(sameTarget(selected, podTarget) ? undefined : podTarget) },
            },
            pod.workload,
            count > 1 ? el('span', { class: 'count' }, ` ×${count}`) : null,
          ),
        );
      }),
    ),
  );
}

type PageFocus = { namespace: string; workload: string } | undefined;

const NODE_EVENTS = [
  { value: 'node-reboot', label: 'Reboot' },
  { value: 'node-lost', label: 'Lost for good' },
  { value: 'kube-proxy-restart', label: 'kube-proxy restart' },
];
const WORKLOAD_EVENTS = [
  { value: 'pod-crash:restartable', label: 'A pod crashes (restartable)' },
  { value: 'pod-crash:permanent', label: 'A pod dies for good' },
  { value: 'traffic-surge', label: 'Traffic surge' },
];

/** CoreDNS restarting is one event for the whole cluster: offered on the nodes it runs on. */
const DNS_EVENT = { value: 'coredns-restart', label: 'CoreDNS restarts (every replica)' };

function eventEditor(target: Target, scenario: Scenario, runsDns: boolean, actions: Actions): HTMLElement {
  const choices = target.type === 'node' ? [...NODE_EVENTS, ...(runsDns ? [DNS_EVENT] : [])] : WORKLOAD_EVENTS;
  const kind = el('select', { attrs: { 'aria-label': 'Event', 'data-focus': 'editor:kind' } }, ...choices.map((c) => el('option', { attrs: { value: c.value } }, c.label)));
  const minutes = el('input', { attrs: { type: 'number', min: 0, max: Math.round(scenario.duration / 60), step: 1, value: Math.min(10, Math.round(scenario.duration / 60)), 'aria-label': 'Minutes into the outage', 'data-focus': 'editor:at' } });
  const factor = el('input', { attrs: { type: 'number', min: 1, max: 100, step: 0.5, value: 3, 'aria-label': 'Traffic factor', 'data-focus': 'editor:factor' } });
  const factorLabel = el('label', { class: 'inline', attrs: { hidden: true } }, '×', factor);
  kind.addEventListener('change', () => (factorLabel.hidden = kind.value !== 'traffic-surge'));
  const add = () => {
    const at = secondsAt(minutes.value, scenario);
    let event: ScenarioEvent;
    if (kind.value === 'coredns-restart') event = { kind: 'coredns-restart', at };
    else if (target.type === 'node') event = { kind: kind.value as 'node-reboot' | 'node-lost' | 'kube-proxy-restart', node: target.name, at };
    else if (kind.value === 'traffic-surge') event = { kind: 'traffic-surge', namespace: target.namespace, workload: target.name, factor: Math.max(1, Number(factor.value) || 1), at };
    else event = { kind: 'pod-crash', namespace: target.namespace, workload: target.name, mode: kind.value.endsWith('permanent') ? 'permanent' : 'restartable', at };
    actions.selectTarget(undefined);
    actions.setScenario(withEvent(scenario, event));
  };
  const name = target.type === 'node' ? target.name : `${target.namespace}/${target.name}`;
  return el(
    'form',
    { class: 'event-editor', attrs: { 'aria-label': `Add an event to ${name}` }, on: { submit: (e) => (e.preventDefault(), add()), keydown: (e) => e.key === 'Escape' && actions.selectTarget(undefined) } },
    el('span', { class: 'editor-title' }, 'Add to ', el('strong', {}, name), ':'),
    kind,
    el('label', { class: 'inline' }, 'at ', minutes, ' min'),
    factorLabel,
    el('button', { class: 'primary', attrs: { type: 'submit', 'data-focus': 'editor:add' } }, 'Add event'),
    el('button', { class: 'secondary', attrs: { type: 'button' }, on: { click: () => actions.selectTarget(undefined) } }, 'Cancel'),
  );
}

export function renderCluster(input: SimulationInput | undefined, scenario: Scenario, result: SimulationResult | undefined, selected: Target | undefined, focus: PageFocus, actions: Actions): HTMLElement {
  const section = el('section', { class: 'cluster', attrs: { 'aria-labelledby': 'cluster-title' } });
  if (!input) {
    section.append(el('h2', { attrs: { id: 'cluster-title' } }, 'Cluster'), el('p', { class: 'muted' }, 'Reading the cluster…'));
    return section;
  }
  const source = input.cluster.source === 'demo' ? 'embedded demo cluster' : input.cluster.source === 'snapshot' ? 'snapshot' : 'live cluster';
  const group = (title: string, nodes: NodeView[]) =>
    el('div', { class: 'node-group' }, el('h3', {}, title), nodes.length ? el('ul', { class: 'nodes', attrs: { 'aria-label': title } }, ...nodes.map((n) => nodeCard(n, selected, focus, result, actions))) : el('p', { class: 'muted' }, input.cluster.managed ? `Run by ${input.cluster.managed}: hidden from the cluster.` : 'None seen.'));
  section.append(
    ...present([
    el('h2', { attrs: { id: 'cluster-title' } }, 'Cluster ', el('span', { class: 'muted' }, `${input.cluster.name} · ${source}`)),
    group('Control plane', input.nodes.filter((n) => n.role === 'control-plane')),
    group('Workers', input.nodes.filter((n) => n.role === 'worker')),
    selected ? eventEditor(selected, scenario, selected.type === 'node' && !!input.nodes.find((n) => n.name === selected.name)?.dns, actions) : null,
    input.notes.length ? el('ul', { class: 'notes muted' }, ...input.notes.map((n) => el('li', {}, n))) : null,
    ]),
  );
  return section;
}
