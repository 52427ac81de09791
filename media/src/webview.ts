// The "What if the control plane dies?" page: draws the cluster, edits the scenario, shows the timeline.
// It talks to the extension only through acquireVsCodeApi(), and checks every message it receives.
import { type FromWebview, sameScenario, type ToWebview, validateFromWebview, validateScenario, validateSimulationInput, validateSimulationResult, validateToWebview } from '../../server/src/simulate/messages';
import type { Scenario } from '../../server/src/simulate/types';
import { plural } from '../../server/src/words';
import { el, present } from './dom';
import type { Actions, PageState } from './page';
import { DEFAULT_SCENARIO, fitScenario, type Target } from './scenario';
import { renderCluster } from './view-cluster';
import { renderControls } from './view-controls';
import { renderDrains } from './view-drains';
import { renderSummary, renderTimeline } from './view-timeline';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app') ?? document.body.appendChild(el('main', { attrs: { id: 'app' } }));

/** A saved state is data from the past: only the parts that still validate are kept. */
function restore(saved: unknown): PageState {
  const state: PageState = { scenario: DEFAULT_SCENARIO, status: { kind: 'idle', text: '' } };
  if (!saved || typeof saved !== 'object') return state;
  const s = saved as Record<string, unknown>;
  const scenario = validateScenario(s.scenario);
  if (scenario.ok) state.scenario = scenario.value;
  const input = validateSimulationInput(s.input);
  if (input.ok) state.input = input.value;
  const result = validateSimulationResult(s.result);
  if (result.ok) state.result = result.value;
  return state;
}

const state = restore(vscode.getState());

function post(message: FromWebview): void {
  const checked = validateFromWebview(message);
  if (!checked.ok) return console.warn(`[kube-resilience] not sent: ${checked.error}`);
  vscode.postMessage(checked.value);
}

function save(): void {
  vscode.setState({ scenario: state.scenario, input: state.input, result: state.result });
}

/** "Whole nodes" with none ticked fails nothing: the page asks for a node rather than drawing an outage that is not one. */
function needsNode(scenario: Scenario): boolean {
  return scenario.fail.kind === 'nodes' && scenario.fail.nodes.length === 0;
}

function simulate(scenario: Scenario): void {
  state.scenario = scenario;
  if (needsNode(scenario)) {
    state.result = undefined;
    state.status = { kind: 'idle', text: 'Tick a node to fail' };
  } else {
    state.status = { kind: 'busy', text: 'Simulating…' };
    post({ type: 'simulate', scenario });
  }
  save();
  render();
}

const actions: Actions = {
  setScenario: (scenario) => simulate(scenario),
  selectTarget(target: Target | undefined) {
    const opener = state.target;
    state.target = target;
    render();
    if (target) root.querySelector<HTMLElement>('[data-focus="editor:kind"]')?.focus();
    // The editor closed (an event added, Cancel, Escape): focus goes back to what opened it, not to the page.
    else if (opener) openerOf(opener)?.focus();
  },
  exportReport: () => post({ type: 'export', scenario: state.scenario }),
  openFinding: (finding) => post({ type: 'open-finding', finding }),
};

/** The controls are rebuilt only when what they show changes: a result arriving mid-click must not swallow the click. */
let controls: { key: string; element: HTMLElement } | undefined;

function controlsView(): HTMLElement {
  const key = JSON.stringify([state.scenario, state.input?.nodes.map((n) => n.name)]);
  if (controls?.key !== key) controls = { key, element: renderControls(state.scenario, state.input, actions) };
  return controls.element;
}

function header(): HTMLElement {
  const status = state.status;
  return el(
    'header',
    { class: 'page-header' },
    el('h1', {}, 'What if the control plane dies?'),
    el('span', { class: `status ${status.kind}`, attrs: { role: status.kind === 'error' ? 'alert' : 'status', 'aria-live': 'polite' } }, status.text),
    el('button', { class: 'secondary', attrs: { type: 'button', disabled: !state.result, 'data-focus': 'export', title: 'Open the result as a Markdown report' }, on: { click: () => actions.exportReport() } }, 'Export report'),
  );
}

const layout = el('div', { class: 'layout' });

/** Puts `nodes` in `parent`, leaving in place every node that is already there: a kept control is never detached. */
function place(parent: HTMLElement, nodes: Node[]): void {
  nodes.forEach((node, i) => {
    const current = parent.childNodes[i];
    if (current === node) return;
    if (current) parent.replaceChild(node, current);
    else parent.append(node);
  });
  while (parent.childNodes.length > nodes.length) parent.lastChild!.remove();
}

/** The node's button, or the first of the workload's pods, that opens the event editor for `target`. */
function openerOf(target: Target): HTMLElement | null {
  const focus = target.type === 'node' ? `target:node:${target.name}` : `:${target.namespace}/${target.name}`;
  const selector = target.type === 'node' ? `[data-focus="${CSS.escape(focus)}"]` : `[data-focus^="target:pod:"][data-focus$="${CSS.escape(focus)}"]`;
  return root.querySelector<HTMLElement>(selector);
}

/**
 * Where keyboard focus goes when the control that had it is gone: the event now in its place, else the one before
 * it, else the failure chosen (the last event removed).
 */
function focusInstead(focused: string): HTMLElement | null {
  const removed = /^remove:(\d+)$/.exec(focused);
  if (!removed) return null;
  return root.querySelector<HTMLElement>(`[data-focus="remove:${Number(removed[1]) - 1}"]`) ?? root.querySelector<HTMLElement>(`[data-focus="${CSS.escape(`fail:${state.scenario.fail.kind}`)}"]`);
}

/** Rebuilds what changed and puts keyboard focus back on the control that had it. */
function render(): void {
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.focus;
  place(layout, [controlsView(), renderCluster(state.input, state.scenario, state.result, state.target, state.focus, actions)]);
  place(
    root,
    present([
      header(),
      layout,
      renderSummary(state.result),
      renderDrains(state.result, actions),
      renderTimeline(state.result, state.focus, needsNode(state.scenario) ? 'Tick a node under “Which nodes” to simulate its failure: with none ticked nothing fails.' : undefined),
    ]) as Node[],
  );
  if (focused && (document.activeElement as HTMLElement | null)?.dataset?.focus !== focused) (root.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focused)}"]`) ?? focusInstead(focused))?.focus();
}

function receive(message: ToWebview): void {
  switch (message.type) {
    case 'input': {
      state.input = message.input;
      const fitted = fitScenario(state.scenario, message.input);
      simulate(fitted);
      return;
    }
    case 'result':
      // A late answer for an older scenario is not what the controls show, busy or not (one that needs a node ticked
      // asks for nothing: an answer for the node just unticked came in idle, and was shown).
      if (!sameScenario(message.result.scenario, state.scenario)) return;
      state.result = message.result;
      state.status = { kind: 'idle', text: `${plural(message.result.workloads.length, 'workload')}, ${plural(message.result.timeline.length, 'event')}` };
      break;
    case 'busy':
      state.status = { kind: 'busy', text: 'Simulating…' };
      break;
    case 'error':
      state.status = { kind: 'error', text: message.message };
      break;
    case 'focus':
      state.focus = { namespace: message.namespace, workload: message.workload };
      state.target = { type: 'workload', namespace: message.namespace, name: message.workload };
      break;
    case 'scenario':
      simulate(state.input ? fitScenario(message.scenario, state.input) : message.scenario);
      return;
  }
  save();
  render();
  if (message.type === 'focus') root.querySelector('.row.focused')?.scrollIntoView({ block: 'center' });
}

window.addEventListener('message', (event: MessageEvent) => {
  const checked = validateToWebview(event.data);
  if (!checked.ok) return console.warn(`[kube-resilience] dropped message: ${checked.error}`);
  receive(checked.value);
});

render();
post({ type: 'ready' });
