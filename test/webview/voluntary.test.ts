// The panel's controls for voluntary disruption (drain, scale-down, node upgrade), the drains it reports
// with their link to the PDB finding, and "Whole nodes" with no node ticked, in Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FromWebview } from '../../server/src/simulate/messages';
import type { Scenario, SimulationResult } from '../../server/src/simulate/types';
import { input, result } from './fixtures';
import { describeInChromium, type WebviewPage } from './harness';

type Simulate = Extract<FromWebview, { type: 'simulate' }>;

describeInChromium('simulation webview: drains, scale-downs and upgrades', (harness) => {
  async function loaded(): Promise<WebviewPage> {
    const view = await harness().open();
    await view.send({ type: 'input', input });
    await view.send({ type: 'result', result: { ...result, scenario: ((await view.waitForPosted('simulate')) as Simulate).scenario } });
    return view;
  }
  const scenarioOf = async (view: WebviewPage, n: number) => ((await view.waitForPosted('simulate', n)) as Simulate).scenario;

  test('picks a worker to drain or scale down at a chosen minute, and upgrades every node once', async () => {
    const view = await loaded();
    const controls = view.page.getByRole('group', { name: 'Drain, scale down, upgrade' });
    assert.deepEqual(await controls.getByRole('combobox', { name: 'Node to drain or scale down' }).locator('option').allInnerTexts(), ['worker-1', 'worker-2', 'worker-3'], 'workers only');
    await controls.getByRole('combobox', { name: 'Node to drain or scale down' }).selectOption('worker-2');
    await controls.getByRole('spinbutton', { name: 'Minutes from the start' }).fill('5');
    await controls.getByRole('button', { name: 'Drain' }).click();
    assert.deepEqual((await scenarioOf(view, 2)).events, [{ kind: 'drain', node: 'worker-2', at: 300 }]);
    await controls.getByRole('combobox', { name: 'Node to drain or scale down' }).selectOption('worker-3');
    await controls.getByRole('button', { name: 'Scale down' }).click();
    assert.deepEqual((await scenarioOf(view, 3)).events, [
      { kind: 'drain', node: 'worker-2', at: 300 },
      { kind: 'scale-down', node: 'worker-3', at: 0 },
    ].sort((a, b) => a.at - b.at));
    await controls.getByRole('button', { name: 'Upgrade all nodes' }).click();
    assert.deepEqual((await scenarioOf(view, 4)).events.map((e) => e.kind), ['scale-down', 'upgrade-nodes', 'drain']);
    assert.equal(await view.page.getByRole('button', { name: 'Upgrade all nodes' }).isDisabled(), true, 'one upgrade at a time');
    assert.ok(await view.page.getByRole('button', { name: 'Remove: worker-3 is scaled down by the cluster autoscaler at 0 s' }).count() === 0);
    assert.equal(await view.page.getByRole('list', { name: 'Events during the outage' }).getByRole('listitem').count(), 3);
    // Minutes typed with decimals are whole seconds (60.6 s was sent, which the host refuses).
    await controls.getByRole('combobox', { name: 'Node to drain or scale down' }).selectOption('worker-1');
    await controls.getByRole('spinbutton', { name: 'Minutes from the start' }).fill('1.01');
    await controls.getByRole('button', { name: 'Drain' }).click();
    assert.ok((await scenarioOf(view, 5)).events.some((e) => e.kind === 'drain' && e.node === 'worker-1' && e.at === 61));
    assert.deepEqual(view.consoleErrors, []);
    await view.page.close();
  });

  test('"Nothing" fails nothing in the control plane: no outage band, the length is the time watched', async () => {
    const view = await loaded();
    await view.page.getByRole('radio', { name: /Nothing/ }).check();
    const scenario = await scenarioOf(view, 2);
    assert.deepEqual(scenario, { fail: { kind: 'none' }, duration: 7200, events: [] });
    assert.equal(await view.page.getByRole('combobox', { name: 'Time to watch' }).count(), 1);
    const drained: SimulationResult = { ...result, scenario: { ...scenario, events: [{ kind: 'drain', node: 'worker-2', at: 0 }] }, drains: [] };
    await view.send({ type: 'result', result: drained });
    // The page drops an answer for a scenario it no longer shows; this one it shows once it asks for it.
    await view.page.getByRole('button', { name: 'Drain' }).click();
    const asked = await scenarioOf(view, 3);
    await view.send({ type: 'result', result: { ...drained, scenario: asked } });
    assert.deepEqual([...new Set(await view.page.locator('.timeline .track .outage').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width)))], [0], 'no outage band');
    assert.equal(await view.page.getByText('control plane back').count(), 0);
    await view.page.close();
  });

  test('lists each drain and links a blocked one to its PDB finding and fix', async () => {
    const view = await loaded();
    const scenario: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-2', at: 0 }] };
    await view.send({ type: 'scenario', scenario });
    assert.deepEqual(await scenarioOf(view, 2), scenario, 'a scenario sent by the extension (a hover) is simulated');
    const drains: SimulationResult['drains'] = [{ node: 'worker-2', by: 'kubectl', start: 0, end: null, notRemovedBecause: null, blocked: [{ workload: 'shop/checkout', pdb: 'shop/checkout-pdb', from: 0, to: null, untilReady: false }], evicted: [] }];
    await view.send({ type: 'result', result: { ...result, scenario, drains } });
    const section = view.page.getByRole('region', { name: 'Drains' });
    assert.match(await section.innerText(), /kubectl drain of worker-2 from 0 s: never empty within the simulated time; 0 pods evicted\.[\s\S]*Blocked by the PodDisruptionBudget shop\/checkout-pdb of shop\/checkout from 0 s to the end/);
    await section.getByRole('button', { name: 'Show the PDB finding and its fix' }).click();
    assert.deepEqual(await view.waitForPosted('open-finding'), { type: 'open-finding', finding: { ruleId: 'pdb-blocks-eviction', kind: 'PodDisruptionBudget', namespace: 'shop', name: 'checkout-pdb' } });
    await view.page.close();
  });

  test('two budgets over one pod link to pdb-multiple on the first; a drain waiting on a replacement links to no finding', async () => {
    const view = await loaded();
    const scenario: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-2', at: 0 }] };
    await view.send({ type: 'scenario', scenario });
    await scenarioOf(view, 2);
    const blocked = [
      { workload: 'shop/checkout', pdb: 'shop/checkout-pdb and shop/all-pods', from: 0, to: null, untilReady: false },
      { workload: 'legacy/billing', pdb: 'legacy/billing-pdb', from: 0, to: 1200, untilReady: true },
    ];
    const drains: SimulationResult['drains'] = [{ node: 'worker-2', by: 'kubectl', start: 0, end: null, notRemovedBecause: null, blocked, evicted: [] }];
    await view.send({ type: 'result', result: { ...result, scenario, drains } });
    const section = view.page.getByRole('region', { name: 'Drains' });
    assert.match(await section.innerText(), /Held by the PodDisruptionBudget legacy\/billing-pdb of legacy\/billing while a pod of it is not ready, from 0 s to 20 m/);
    const buttons = section.getByRole('button', { name: 'Show the PDB finding and its fix' });
    assert.equal(await buttons.count(), 1, 'only the budgets as written have a finding');
    await buttons.click();
    assert.deepEqual(await view.waitForPosted('open-finding'), { type: 'open-finding', finding: { ruleId: 'pdb-multiple', kind: 'PodDisruptionBudget', namespace: 'shop', name: 'checkout-pdb' } });
    await view.page.close();
  });

  test('"Whole nodes" with no node ticked asks for one instead of drawing green bars under an outage', async () => {
    const view = await loaded();
    await view.page.getByRole('radio', { name: 'Whole nodes' }).check();
    assert.deepEqual((await scenarioOf(view, 2)).fail, { kind: 'nodes', nodes: ['cp-1'] });
    await view.page.getByRole('checkbox', { name: 'cp-1' }).uncheck();
    await view.page.waitForFunction(() => document.querySelector('.timeline [role=status]') !== null);
    assert.match(await view.page.locator('.timeline').innerText(), /Tick a node under “Which nodes”/);
    assert.equal(await view.page.locator('.timeline .segment').count(), 0, 'no bars');
    assert.equal((await view.posted()).filter((m) => m.type === 'simulate').length, 2, 'nothing to simulate with no node');
    assert.match(await view.page.locator('#nodes-hint').innerText(), /Tick at least one node/);
    await view.page.close();
  });

  test('a first click on a node checkbox is not lost when a result arrives during it', async () => {
    const view = await loaded();
    await view.page.getByRole('radio', { name: 'Whole nodes' }).check();
    const asked = await scenarioOf(view, 2);
    const box = (await view.page.getByRole('checkbox', { name: 'worker-1' }).boundingBox())!;
    await view.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await view.page.mouse.down();
    // The answer to the radio's simulation lands between the press and the release.
    await view.send({ type: 'result', result: { ...result, scenario: asked } });
    await view.page.mouse.up();
    assert.deepEqual((await scenarioOf(view, 3)).fail, { kind: 'nodes', nodes: ['cp-1', 'worker-1'] });
    assert.equal(await view.page.getByRole('checkbox', { name: 'worker-1' }).isChecked(), true);
    await view.page.close();
  });
});
