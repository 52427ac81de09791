import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FromWebview } from '../../server/src/simulate/messages';
import { HOSTILE, input, result } from './fixtures';
import { describeInChromium, type Harness, type WebviewPage } from './harness';

describeInChromium('simulation webview in Chromium', (harness) => {
  /** A page that has been given the cluster and the timeline, as the extension does after `ready`. */
  async function loaded(options: Parameters<Harness['open']>[0] = {}): Promise<WebviewPage> {
    const view = await harness().open(options);
    await view.send({ type: 'input', input });
    await view.send({ type: 'result', result: { ...result, scenario: ((await view.waitForPosted('simulate')) as Extract<FromWebview, { type: 'simulate' }>).scenario } });
    return view;
  }

  test('says it is ready, then asks for a simulation of the default scenario once it knows the cluster', async () => {
    const view = await harness().open();
    assert.deepEqual((await view.posted())[0], { type: 'ready' });
    await view.send({ type: 'input', input });
    const asked = await view.waitForPosted('simulate');
    assert.deepEqual(asked, { type: 'simulate', scenario: { fail: { kind: 'apiserver' }, duration: 7200, events: [] } });
    await view.page.close();
  });

  test('draws the cluster: control-plane nodes with etcd, workers with their pods, where DNS runs', async () => {
    const view = await loaded();
    const cp = view.page.getByRole('listitem', { name: 'Control-plane node cp-1' });
    assert.match(await cp.innerText(), /etcd/);
    const worker1 = view.page.getByRole('listitem', { name: 'Worker node worker-1' });
    assert.match(await worker1.innerText(), /DNS/);
    assert.match(await worker1.innerText(), /coredns/);
    const worker2 = view.page.getByRole('listitem', { name: 'Worker node worker-2' });
    assert.doesNotMatch(await worker2.innerText(), /DNS/);
    assert.deepEqual(await worker2.getByRole('list', { name: 'Pods on worker-2' }).getByRole('button').allInnerTexts(), ['web', 'checkout']);
    await view.page.close();
  });

  test('fed a timeline, renders a row per cluster function and per workload, coloured by state', async () => {
    const view = await loaded();
    const rows = await view.page.locator('.timeline .row[data-row]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.deepEqual(rows, ['API', 'Scheduling', 'Controllers', 'Autoscaling', 'DNS', 'Service routing', 'kubectl', 'worker-2', 'shop/web', 'shop/checkout']);
    const checkout = view.page.getByRole('group', { name: 'shop/checkout' });
    const states = await checkout.locator('.segment').evaluateAll((els) => els.map((e) => e.className));
    assert.deepEqual(states, ['segment state-ok', 'segment state-down', 'segment state-ok']);
    const down = checkout.locator('.segment.state-down');
    assert.equal(await down.evaluate((e) => getComputedStyle(e).backgroundColor), await view.page.evaluate(() => getComputedStyle(document.querySelector('.swatch.state-down')!).backgroundColor));
    assert.notEqual(await down.evaluate((e) => getComputedStyle(e).backgroundColor), await checkout.locator('.segment.state-ok').first().evaluate((e) => getComputedStyle(e).backgroundColor));
    assert.deepEqual(view.consoleErrors, []);
    await view.page.close();
  });

  test('each segment explains itself on hover and on keyboard focus: reason and fact', async () => {
    const view = await loaded();
    const segment = view.page.getByRole('group', { name: 'shop/checkout' }).locator('.segment.state-down');
    assert.match((await segment.getAttribute('aria-label'))!, /down from 10 m to 2 h 1 m: its only replica ran on worker-2 \(rule 5: nothing is replaced\)/);
    await segment.hover();
    const tooltip = view.page.getByRole('tooltip');
    assert.match(await tooltip.innerText(), /its only replica ran on worker-2[\s\S]*rule 5: nothing is replaced/);
    await view.page.mouse.move(0, 0);
    assert.equal(await tooltip.isVisible(), false);
    await view.page.getByRole('group', { name: 'API' }).locator('.segment.state-down').focus();
    assert.match(await tooltip.innerText(), /API: down[\s\S]*every API server is down[\s\S]*rule 2/);
    await view.page.close();
  });

  test('summarises the first impacts in plain words', async () => {
    const view = await loaded();
    const items = await view.page.getByRole('region', { name: 'What happens first' }).getByRole('listitem').allInnerTexts();
    assert.equal(items[0], 'At 0 s the API goes down: every API server is down');
    assert.ok(items.includes('At 10 m shop/checkout goes down: its only replica ran on worker-2'), items.join('\n'));
    const summary = ['at 10 m api goes down: worker-2 rebooted and nothing recreates pods while the API is down'];
    await view.send({ type: 'result', result: { ...result, scenario: (await view.posted()).find((m) => m.type === 'simulate')!.scenario, summary } });
    assert.deepEqual(await view.page.getByRole('region', { name: 'What happens first' }).getByRole('listitem').allInnerTexts(), ['At 10 m api goes down: worker-2 rebooted and nothing recreates pods while the API is down']);
    await view.page.close();
  });

  test('changing a control posts the scenario it now shows', async () => {
    const view = await loaded();
    await view.page.getByRole('radio', { name: 'Scheduler' }).check();
    assert.deepEqual(await view.waitForPosted('simulate', 2), { type: 'simulate', scenario: { fail: { kind: 'scheduler' }, duration: 7200, events: [] } });
    await view.page.getByRole('combobox', { name: 'Outage length' }).selectOption({ label: '30 minutes' });
    assert.deepEqual(await view.waitForPosted('simulate', 3), { type: 'simulate', scenario: { fail: { kind: 'scheduler' }, duration: 1800, events: [] } });
    await view.page.getByRole('combobox', { name: 'Control-plane nodes' }).selectOption({ label: 'What if 3' });
    assert.deepEqual(await view.waitForPosted('simulate', 4), { type: 'simulate', scenario: { fail: { kind: 'scheduler' }, duration: 1800, controlPlanes: 3, events: [] } });
    await view.page.getByRole('radio', { name: 'Whole nodes' }).check();
    await view.page.getByRole('checkbox', { name: 'worker-3' }).check();
    assert.deepEqual(((await view.waitForPosted('simulate', 6)) as { scenario: unknown }).scenario, { fail: { kind: 'nodes', nodes: ['cp-1', 'worker-3'] }, duration: 1800, controlPlanes: 3, events: [] });
    await view.page.close();
  });

  test('an answer for a scenario the controls no longer show is dropped, even once the page waits for nothing (the unticked node\'s answer was shown)', async () => {
    const view = await loaded();
    await view.page.getByRole('radio', { name: 'Whole nodes' }).check();
    const asked = (await view.waitForPosted('simulate', 2)) as Extract<FromWebview, { type: 'simulate' }>;
    await view.send({ type: 'busy' });
    await view.page.getByRole('checkbox', { name: 'cp-1' }).uncheck();
    await view.page.getByText('Tick a node to fail').waitFor();
    await view.send({ type: 'result', result: { ...result, scenario: asked.scenario } });
    assert.equal(await view.page.locator('.status').textContent(), 'Tick a node to fail');
    assert.equal(await view.page.getByRole('button', { name: 'Export report' }).isDisabled(), true);
    await view.page.close();
  });

  test('a scenario of a length not in the list (90 s from the command line) shows that length, not a rounded one ("2 minutes")', async () => {
    const view = await loaded();
    for (const [duration, label] of [[90, '1 m 30 s'], [20, '20 s'], [3630, '1 h 30 s'], [5400, '1.5 hours']] as const) {
      await view.send({ type: 'scenario', scenario: { fail: { kind: 'apiserver' }, duration, events: [] } });
      const select = view.page.getByRole('combobox', { name: 'Outage length' });
      await view.page.waitForFunction((d) => (document.querySelector('[data-focus="duration"]') as HTMLSelectElement | null)?.value === String(d), duration);
      assert.equal(await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0].textContent), label);
    }
    await view.page.close();
  });

  test('the status counts what the answer holds, in words that agree with the number ("1 workloads, 1 events")', async () => {
    const view = await harness().open();
    await view.send({ type: 'input', input });
    const asked = (await view.waitForPosted('simulate')) as Extract<FromWebview, { type: 'simulate' }>;
    await view.send({ type: 'result', result: { ...result, scenario: asked.scenario, workloads: result.workloads.slice(0, 1), timeline: result.timeline.slice(0, 1) } });
    assert.equal(await view.page.locator('.status').textContent(), '1 workload, 1 event');
    await view.page.close();
  });

  test('clicking a node or a workload adds an event at a chosen time', async () => {
    const view = await loaded();
    await view.page.getByRole('button', { name: 'worker-2', exact: true }).click();
    const editor = view.page.getByRole('form', { name: 'Add an event to worker-2' });
    await editor.getByRole('combobox', { name: 'Event' }).selectOption({ label: 'Reboot' });
    assert.equal(await editor.getByLabel('Traffic factor').isVisible(), false, 'a node event has no traffic factor to set');
    await editor.getByRole('spinbutton', { name: 'Minutes into the outage' }).fill('10');
    await editor.getByRole('button', { name: 'Add event' }).click();
    assert.deepEqual(((await view.waitForPosted('simulate', 2)) as { scenario: { events: unknown[] } }).scenario.events, [{ kind: 'node-reboot', node: 'worker-2', at: 600 }]);
    await view.page.getByRole('list', { name: 'Pods on worker-1' }).getByRole('button', { name: 'web' }).click();
    const workloadEditor = view.page.getByRole('form', { name: 'Add an event to shop/web' });
    assert.equal(await workloadEditor.getByLabel('Traffic factor').isVisible(), false, 'the factor is asked only for a traffic surge');
    await workloadEditor.getByRole('combobox', { name: 'Event' }).selectOption({ label: 'Traffic surge' });
    await workloadEditor.getByRole('spinbutton', { name: 'Minutes into the outage' }).fill('5');
    await workloadEditor.getByRole('spinbutton', { name: 'Traffic factor' }).fill('3');
    await workloadEditor.getByRole('button', { name: 'Add event' }).click();
    const events = ((await view.waitForPosted('simulate', 3)) as { scenario: { events: unknown[] } }).scenario.events;
    assert.deepEqual(events, [{ kind: 'traffic-surge', namespace: 'shop', workload: 'web', factor: 3, at: 300 }, { kind: 'node-reboot', node: 'worker-2', at: 600 }]);
    await view.page.getByRole('button', { name: 'Remove: worker-2 reboots at 10 m' }).click();
    assert.deepEqual(((await view.waitForPosted('simulate', 4)) as { scenario: { events: unknown[] } }).scenario.events, [events[0]]);
    assert.equal(await view.page.getByRole('button', { name: 'worker-2', exact: true }).click().then(() => view.page.getByRole('option', { name: /CoreDNS/ }).count()), 0, 'no CoreDNS runs on worker-2');
    await view.page.getByRole('button', { name: 'worker-1', exact: true }).click();
    const dnsEditor = view.page.getByRole('form', { name: 'Add an event to worker-1' });
    await dnsEditor.getByRole('combobox', { name: 'Event' }).selectOption({ label: 'CoreDNS restarts (every replica)' });
    await dnsEditor.getByRole('spinbutton', { name: 'Minutes into the outage' }).fill('20');
    await dnsEditor.getByRole('button', { name: 'Add event' }).click();
    assert.deepEqual(((await view.waitForPosted('simulate', 5)) as { scenario: { events: unknown[] } }).scenario.events, [events[0], { kind: 'coredns-restart', at: 1200 }]);
    await view.page.close();
  });

  test('export asks the extension for a Markdown report of the scenario shown', async () => {
    const view = await loaded();
    await view.page.getByRole('button', { name: 'Export report' }).click();
    assert.deepEqual(await view.waitForPosted('export'), { type: 'export', scenario: { fail: { kind: 'apiserver' }, duration: 7200, events: [] } });
    await view.page.close();
  });

  test('a hostile name from the cluster renders as text and runs nothing', async () => {
    const view = await harness().open();
    const hostileInput = {
      ...input,
      cluster: { source: 'live', name: HOSTILE },
      nodes: [{ ...input.nodes[0], name: HOSTILE, pods: [{ name: HOSTILE, namespace: 'shop', workload: HOSTILE, kind: 'Deployment' }] }],
      notes: [HOSTILE],
    };
    await view.send({ type: 'input', input: hostileInput });
    const scenario = ((await view.waitForPosted('simulate')) as { scenario: unknown }).scenario;
    const hostileResult = {
      ...result,
      scenario,
      timeline: [{ at: 0, subject: { type: 'workload', name: HOSTILE, namespace: 'shop' }, state: 'down', reason: HOSTILE, fact: HOSTILE }],
      workloads: [{ kind: 'Deployment', name: HOSTILE, namespace: 'shop', placement: 'observed', capacity: [] }],
      assumptions: [HOSTILE, 'read as gpj\u202eexe.js, a\u200bb'],
    };
    await view.send({ type: 'result', result: hostileResult });
    await view.page.getByRole('group', { name: `shop/${HOSTILE}` }).locator('.segment').first().hover();
    assert.equal(await view.page.locator('img').count(), 0);
    assert.ok((await view.page.locator('body').innerText()).includes(HOSTILE));
    // Hidden characters are shown as their escapes: the name reads as written, and unlike another's.
    // (In the assumptions, folded: their text is there, not shown.)
    const text = (await view.page.locator('body').textContent()) ?? '';
    assert.ok(text.includes('read as gpj\\u202eexe.js, a\\u200bb') && !/[\u202e\u200b]/.test(text), text);
    assert.equal(await view.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(view.strayRequests(), []);
    assert.deepEqual(view.consoleErrors, []);
    await view.page.close();
  });

  test('unknown or malformed messages are dropped and logged, and the page keeps working', async () => {
    const view = await loaded();
    await view.send({ type: 'run-script', code: 'window.__pwned = 1' });
    await view.send({ type: 'result', result: { ...result, timeline: [{ at: 'soon' }] } });
    await view.send('input');
    assert.equal(view.consoleWarnings.filter((w) => w.includes('dropped message')).length, 3, view.consoleWarnings.join('\n'));
    assert.equal(await view.page.locator('.timeline .row[data-row]').count(), 10);
    assert.deepEqual(view.consoleErrors, []);
    await view.page.close();
  });

  test('keyboard reaches the controls, the cluster and the timeline; Space and Enter act', async () => {
    const view = await loaded();
    const reached: string[] = [];
    for (let i = 0; i < 60; i++) {
      await view.page.keyboard.press('Tab');
      reached.push(await view.page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.focus ?? document.activeElement?.tagName ?? ''));
    }
    for (const expected of ['export', 'fail:apiserver', 'duration', 'control-planes', 'target:node:cp-1', 'target:node:worker-2', 'target:pod:worker-2:shop/checkout']) assert.ok(reached.includes(expected), `${expected} not reached: ${reached.join(' ')}`);
    assert.equal(reached.filter((r) => r.startsWith('segment:')).length > 0, true, `no timeline segment reached: ${reached.join(' ')}`);
    assert.equal(new Set(reached.filter((r) => r.startsWith('segment:'))).size, 1, 'the timeline is one tab stop');
    const outline = await view.page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, 'none');

    await view.page.locator('[data-focus="fail:apiserver"]').focus();
    await view.page.keyboard.press('ArrowDown');
    assert.deepEqual(((await view.waitForPosted('simulate', 2)) as { scenario: { fail: unknown } }).scenario.fail, { kind: 'etcd' });
    await view.page.locator('[data-focus="target:node:worker-2"]').focus();
    await view.page.keyboard.press('Enter');
    const focused = () => view.page.evaluate(() => (document.activeElement as HTMLElement).dataset.focus);
    assert.equal(await focused(), 'editor:kind');
    await view.page.keyboard.press('Tab');
    assert.equal(await focused(), 'editor:at');
    await view.page.keyboard.press('Enter');
    assert.deepEqual(((await view.waitForPosted('simulate', 3)) as { scenario: { events: unknown[] } }).scenario.events, [{ kind: 'node-reboot', node: 'worker-2', at: 600 }]);
    await view.page.close();
  });

  test('keyboard focus stays on the page when the event editor closes or an event goes: on what opened the editor, then on the failure chosen (it fell to the page\'s body)', async () => {
    const view = await loaded();
    const focused = () => view.page.evaluate(() => (document.activeElement as HTMLElement).dataset.focus ?? document.activeElement!.tagName);
    await view.page.locator('[data-focus="target:node:worker-2"]').focus();
    await view.page.keyboard.press('Enter');
    await view.page.keyboard.press('Escape');
    assert.equal(await focused(), 'target:node:worker-2', 'Escape closes the editor');
    await view.page.keyboard.press('Enter');
    await view.page.getByRole('button', { name: 'Cancel' }).press('Enter');
    assert.equal(await focused(), 'target:node:worker-2', 'Cancel');
    await view.page.locator('[data-focus="target:pod:worker-2:shop/checkout"]').press('Enter');
    await view.page.locator('[data-focus="editor:add"]').press('Enter');
    await view.waitForPosted('simulate', 2);
    assert.equal(await focused(), 'target:pod:worker-2:shop/checkout', 'Add event');
    await view.page.locator('[data-focus="target:node:worker-2"]').press('Enter');
    await view.page.locator('[data-focus="editor:add"]').press('Enter');
    await view.waitForPosted('simulate', 3);
    await view.page.locator('[data-focus="remove:1"]').press('Enter');
    await view.waitForPosted('simulate', 4);
    assert.equal(await focused(), 'remove:0', 'the last of two events removed: the one before it');
    await view.page.locator('[data-focus="remove:0"]').press('Enter');
    await view.waitForPosted('simulate', 5);
    assert.equal(await focused(), 'fail:apiserver', 'the only event removed');
    await view.page.close();
  });

  test('arrow keys move through the timeline, and the tooltip follows', async () => {
    const view = await loaded();
    const focused = () => view.page.evaluate(() => (document.activeElement as HTMLElement).dataset.focus);
    const tooltip = view.page.getByRole('tooltip');
    await view.page.getByRole('group', { name: 'API', exact: true }).locator('.segment').first().focus();
    assert.equal(await focused(), 'segment:component:api:0');
    assert.match(await tooltip.innerText(), /API: down/);
    await view.page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'segment:component:api:1');
    assert.match(await tooltip.innerText(), /API: working[\s\S]*the API server is back/);
    await view.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'segment:component:scheduling:0');
    await view.page.getByRole('group', { name: 'shop/web' }).locator('.segment.state-degraded').focus();
    await view.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'segment:workload:shop/checkout:1', 'the segment of the next row at the same moment');
    await view.page.keyboard.press('End');
    assert.equal(await focused(), 'segment:workload:shop/checkout:2');
    await view.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'segment:workload:shop/checkout:2', 'no row below the last');
    await view.page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'segment:workload:shop/web:2');
    await view.page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'segment:node:worker-2:1', 'worker-2 is down from 10 m on');
    await view.page.getByRole('group', { name: 'shop/checkout' }).locator('.segment').last().focus();
    await view.page.keyboard.press('Home');
    assert.match(await tooltip.innerText(), /shop\/checkout: working/);
    await view.page.close();
  });

  test('keeps its state through vscode.setState and restores it in a new page', async () => {
    const view = await loaded();
    await view.page.getByRole('radio', { name: 'Controller manager' }).check();
    await view.waitForPosted('simulate', 2);
    const saved = await view.savedState();
    await view.page.close();
    const restored = await harness().open({ savedState: saved });
    assert.equal(await restored.page.getByRole('radio', { name: 'Controller manager' }).isChecked(), true);
    assert.equal(await restored.page.locator('.timeline .row[data-row]').count(), 10);
    await restored.send({ type: 'input', input });
    assert.deepEqual(((await restored.waitForPosted('simulate')) as { scenario: { fail: unknown } }).scenario.fail, { kind: 'controller-manager' });
    await restored.page.close();
  });

  test('brings a workload forward when the extension asks (code lens)', async () => {
    const view = await loaded();
    await view.send({ type: 'focus', namespace: 'shop', workload: 'checkout' });
    assert.equal(await view.page.locator('.timeline .row.focused').getAttribute('aria-label'), 'shop/checkout');
    assert.equal(await view.page.getByRole('form', { name: 'Add an event to shop/checkout' }).count(), 1);
    await view.page.close();
  });
});
