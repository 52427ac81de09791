import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SimulationHost } from '../../client/src/simulation/host';
import { demoCluster } from '../../server/src/cluster/demo';
import { Inventory } from '../../server/src/inventory/inventory';
import { Methods } from '../../server/src/protocol';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { simulationInputOf } from '../../server/src/simulate/input-view';
import type { Scenario } from '../../server/src/simulate/types';
import type { ToWebview } from '../../server/src/simulate/messages';
import { simulate } from '../../server/src/simulate/simulate';

/** The host wired to the real engine on the demo cluster, in place of the language server. */
function hostOnDemo(answer: (method: string, params: unknown, cancelled?: AbortSignal) => unknown = engine) {
  const posted: ToWebview[] = [];
  const logged: string[] = [];
  const reports: string[] = [];
  const requests: string[] = [];
  const opened: unknown[] = [];
  const host = new SimulationHost({
    request: async (method, params, cancelled) => {
      requests.push(method);
      return answer(method, params, cancelled);
    },
    post: (m) => posted.push(m),
    log: (m) => logged.push(m),
    openReport: async (markdown) => void reports.push(markdown),
    openFinding: async (finding) => void opened.push(finding),
  });
  return { host, posted, logged, reports, requests, opened };
}

function engine(method: string, params: unknown): unknown {
  const cluster = demoCluster();
  const inventory = new Inventory();
  inventory.setCluster(cluster.resources);
  const inputs = buildSimInputs(inventory, cluster);
  if (method === Methods.simulationInput) return simulationInputOf(inputs, cluster);
  if (method === Methods.simulate) return simulate(inputs.topology, inputs.workloads, (params as { scenario: Scenario }).scenario);
  throw new Error(`unexpected ${method}`);
}

const SCENARIO: Scenario = { fail: { kind: 'apiserver' }, duration: 3600, events: [] };

describe('simulation host (extension side of the page)', () => {
  it('a hover\'s "simulate a drain" opens the page on a kubectl drain of the node the workload runs on', async () => {
    const { host, posted } = hostOnDemo();
    host.drainNodeOf('meet', 'video-bridge');
    assert.equal(posted.length, 0, 'nothing before the page is ready');
    await host.receive({ type: 'ready' });
    assert.deepEqual(posted.map((m) => m.type), ['input', 'focus', 'scenario']);
    const sent = posted[2];
    assert.ok(sent.type === 'scenario');
    assert.deepEqual(sent.scenario, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-b1', at: 0 }] });
  });

  it('a drain asked while the cluster cannot be read is dropped, not run on a later page (it ran there, unasked)', async () => {
    let serverUp = false;
    const { host, posted } = hostOnDemo((method, params) => {
      if (!serverUp) throw new Error('the server is restarting');
      return engine(method, params);
    });
    host.drainNodeOf('meet', 'video-bridge');
    await host.receive({ type: 'ready' });
    assert.deepEqual(posted.map((m) => m.type), ['error', 'focus']);
    host.reset();
    serverUp = true;
    await host.receive({ type: 'ready' });
    assert.deepEqual(posted.slice(2).map((m) => m.type), ['input']);
  });

  it('a drain asked of a page that is up without the cluster is said to fail, not kept for a later page', async () => {
    let serverUp = false;
    const { host, posted } = hostOnDemo((method, params) => {
      if (!serverUp) throw new Error('the server is restarting');
      return engine(method, params);
    });
    await host.receive({ type: 'ready' });
    host.drainNodeOf('meet', 'video-bridge');
    assert.deepEqual(posted.map((m) => m.type), ['error', 'focus', 'error']);
    host.reset();
    serverUp = true;
    await host.receive({ type: 'ready' });
    assert.deepEqual(posted.slice(3).map((m) => m.type), ['input']);
  });

  it('says so when the workload runs nowhere', async () => {
    const { host, posted } = hostOnDemo();
    await host.receive({ type: 'ready' });
    host.drainNodeOf('shop', 'ghost');
    assert.match(JSON.stringify(posted.at(-1)), /shop\/ghost runs on no node of this cluster/);
  });

  it('hands a blocked drain\'s PDB finding to the editor, and only a valid one', async () => {
    const { host, opened, logged } = hostOnDemo();
    const finding = { ruleId: 'pdb-blocks-eviction', kind: 'PodDisruptionBudget', namespace: 'shop', name: 'web-pdb' };
    await host.receive({ type: 'open-finding', finding });
    await host.receive({ type: 'open-finding', finding: { ...finding, name: '' } });
    assert.deepEqual(opened, [finding]);
    assert.match(logged.join('\n'), /dropped message/);
  });

  it('answers ready with the cluster drawing, then a simulate with its result', async () => {
    const { host, posted } = hostOnDemo();
    await host.receive({ type: 'ready' });
    assert.equal(posted[0].type, 'input');
    assert.ok(posted[0].type === 'input' && posted[0].input.nodes.some((n) => n.role === 'control-plane'));
    await host.receive({ type: 'simulate', scenario: SCENARIO });
    assert.deepEqual(posted.slice(1).map((m) => m.type), ['busy', 'result'], 'the cluster is unchanged: no second drawing');
    const last = posted[2];
    assert.ok(last.type === 'result' && last.result.timeline.some((e) => e.subject.type === 'component' && e.subject.name === 'api' && e.state === 'down'));
  });

  it('drops and logs what the page sends that does not validate, asking nothing of the server', async () => {
    const { host, posted, logged, requests } = hostOnDemo();
    await host.receive({ type: 'simulate', scenario: { fail: { kind: 'apiserver' }, duration: -5, events: [] } });
    await host.receive({ type: 'openFile', path: '/etc/passwd' });
    await host.receive('ready');
    assert.equal(posted.length, 0);
    assert.equal(requests.length, 0);
    assert.equal(logged.length, 3);
    assert.match(logged[0], /dropped message: message\.scenario\.duration/);
  });

  it('tells the page when the server fails or answers something unreadable, instead of passing it on', async () => {
    const failing = hostOnDemo(() => {
      throw new Error('no-such-node is not a node of this cluster');
    });
    await failing.host.receive({ type: 'simulate', scenario: SCENARIO });
    assert.deepEqual(failing.posted.at(-1), { type: 'error', message: 'the simulation failed: no-such-node is not a node of this cluster' });
    const garbled = hostOnDemo(() => ({ version: 1, timeline: '<script>' }));
    await garbled.host.receive({ type: 'simulate', scenario: SCENARIO });
    const last = garbled.posted.at(-1)!;
    assert.ok(last.type === 'error' && /unreadable simulation/.test(last.message), JSON.stringify(last));
    assert.ok(!garbled.posted.some((m) => m.type === 'result'));
  });

  it('shows only the newest answer when the page changes faster than the engine answers', async () => {
    let release: () => void = () => undefined;
    const slowFirst = hostOnDemo(async (method, params) => {
      if ((params as { scenario: Scenario }).scenario.duration === 60) await new Promise<void>((r) => (release = r));
      return engine(method, params);
    });
    const first = slowFirst.host.receive({ type: 'simulate', scenario: { ...SCENARIO, duration: 60 } });
    await slowFirst.host.receive({ type: 'simulate', scenario: SCENARIO });
    release();
    await first;
    const results = slowFirst.posted.filter((m) => m.type === 'result');
    assert.equal(results.length, 1);
    assert.ok(results[0].type === 'result' && results[0].result.scenario.duration === 3600);
  });

  it('cancels a simulation the page no longer waits for: superseded by a newer one, or the page hidden or closed', async () => {
    const signals = new Map<number, AbortSignal>();
    /** A simulation the server answers only once it is cancelled, as it does: with an error. */
    const { host, posted, logged } = hostOnDemo(async (method, params, cancelled) => {
      if (method !== Methods.simulate) return engine(method, params);
      const { duration } = (params as { scenario: Scenario }).scenario;
      signals.set(duration, cancelled!);
      if (duration === 3600) return engine(method, params);
      await new Promise<void>((resolve) => cancelled!.addEventListener('abort', () => resolve()));
      throw new Error('the simulation was cancelled');
    });
    await host.receive({ type: 'ready' });
    const superseded = host.receive({ type: 'simulate', scenario: { ...SCENARIO, duration: 60 } });
    await host.receive({ type: 'simulate', scenario: SCENARIO });
    await superseded;
    assert.equal(signals.get(60)?.aborted, true, 'the superseded simulation is cancelled');
    assert.equal(signals.get(3600)?.aborted, false, 'the newest is not');
    const hidden = host.receive({ type: 'simulate', scenario: { ...SCENARIO, duration: 120 } });
    host.reset();
    assert.equal(signals.get(120)?.aborted, true, 'hiding the page cancels what it waits for');
    await hidden;
    const closed = host.receive({ type: 'simulate', scenario: { ...SCENARIO, duration: 180 } });
    host.dispose();
    assert.equal(signals.get(180)?.aborted, true, 'closing the page cancels what it waits for');
    await closed;
    assert.deepEqual(posted.filter((m) => m.type === 'error'), [], 'a cancelled simulation is not shown as failed');
    assert.deepEqual(logged, []);
    assert.equal(posted.filter((m) => m.type === 'result').length, 1);
  });

  it('exports the shown scenario as a Markdown report, reusing the last result', async () => {
    const { host, reports, requests } = hostOnDemo();
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'simulate', scenario: SCENARIO });
    await host.receive({ type: 'export', scenario: SCENARIO });
    assert.equal(reports.length, 1);
    assert.match(reports[0], /^# What if every API server fails for 1 h\?/);
    assert.match(reports[0], /Cluster: \*\*demo\*\*/);
    assert.deepEqual(requests, [Methods.simulationInput, Methods.simulate, Methods.simulationInput], 'export reuses the result it has');
  });

  it('holds a code lens focus until the page is ready', async () => {
    const { host, posted } = hostOnDemo();
    host.focus('shop', 'orders-api');
    assert.equal(posted.length, 0);
    await host.receive({ type: 'ready' });
    assert.deepEqual(posted.map((m) => m.type), ['input', 'focus']);
    host.focus('meet', 'video-bridge');
    assert.deepEqual(posted.at(-1), { type: 'focus', namespace: 'meet', workload: 'video-bridge' });
  });
});

describe('simulation host across a hidden page', () => {
  it('keeps a focus for the page that comes back, after reset', async () => {
    const { host, posted } = hostOnDemo();
    await host.receive({ type: 'ready' });
    host.reset();
    host.focus('shop', 'orders-api');
    assert.deepEqual(posted.map((m) => m.type), ['input']);
    await host.receive({ type: 'ready' });
    assert.deepEqual(posted.map((m) => m.type), ['input', 'input', 'focus']);
  });
});

describe('simulation host when the server\'s cluster changes', () => {
  it('an open page draws the new cluster as soon as the server tells it, and a report is not exported from the one before', async () => {
    let clusterName = 'demo';
    const { host, posted, reports, requests } = hostOnDemo((method, params) => {
      const answer = engine(method, params);
      return method === Methods.simulationInput ? { ...(answer as object), cluster: { source: 'live', name: clusterName } } : answer;
    });
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'simulate', scenario: SCENARIO });
    clusterName = 'prod';
    await host.clusterChanged();
    const last = posted.at(-1)!;
    assert.ok(last.type === 'input' && last.input.cluster.name === 'prod');
    const asked = requests.length;
    await host.receive({ type: 'export', scenario: SCENARIO });
    assert.equal(requests.slice(asked).filter((m) => m === Methods.simulate).length, 1, 'simulated again on the new cluster');
    assert.match(reports[0], /prod/);
  });

  it('draws the new cluster after the next simulation (a live cluster read after the demo)', async () => {
    let clusterName = 'demo';
    const { host, posted } = hostOnDemo((method, params) => {
      const answer = engine(method, params);
      return method === Methods.simulationInput ? { ...(answer as object), cluster: { source: 'live', name: clusterName } } : answer;
    });
    await host.receive({ type: 'ready' });
    clusterName = 'prod';
    await host.receive({ type: 'simulate', scenario: SCENARIO });
    assert.deepEqual(posted.map((m) => m.type), ['input', 'busy', 'result', 'input']);
    const last = posted.at(-1)!;
    assert.ok(last.type === 'input' && last.input.cluster.name === 'prod');
  });
});
