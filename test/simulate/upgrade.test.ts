// A rolling node upgrade drains one worker at a time; each drain's end decides when the next starts. Re-running
// every workload for every node took 19 minutes for 2,000 nodes: a step re-runs only the workloads its drain can
// change, and must end every drain exactly when re-running them all does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ControlPlaneTimeline } from '../../server/src/simulate/control-plane';
import { planDrains } from '../../server/src/simulate/drain/planner';
import { drainEnd } from '../../server/src/simulate/drain/report';
import { rollUpgrade } from '../../server/src/simulate/drain/upgrade';
import { upgradeDrainEnds } from '../../server/src/simulate/drain/upgrade-runs';
import type { SimWorkload } from '../../server/src/simulate/model';
import { nodeIncidents } from '../../server/src/simulate/node-incidents';
import { NoExecuteTaints } from '../../server/src/simulate/no-execute-taints';
import { simulate } from '../../server/src/simulate/simulate';
import type { Failure, Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { simulateWorkload, type SimContext } from '../../server/src/simulate/workload-capacity';
import { capacityAt } from './expect';
import { cluster, workload } from './fixtures';
import { draws, random, randomPlacement } from './random';

const maxUnavailable = (pdb: string, value: number) => ({ pdb, budget: { field: 'maxUnavailable' as const, value: { kind: 'int' as const, value } } });

describe('a drain asked for and an upgrade\'s drain of the same node', () => {
  it('are told once when they end alike (kubectl refusing a pod without a controller twice said it twice)', () => {
    const workloads = [workload('web', { 'worker-1': 1, 'worker-2': 1 }), workload('debug', { 'worker-1': 1 }, { kind: 'Pod' })];
    const result = simulate(cluster({ workers: 2 }), workloads, { fail: { kind: 'none' }, duration: 1800, events: [{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'upgrade-nodes', at: 0 }] });
    const refusals = (result.summary ?? []).join(' ').match(/Draining worker-1 does not happen/g) ?? [];
    assert.equal(refusals.length, 1, (result.summary ?? []).join('\n'));
  });
});

describe('a rolling upgrade of 6 workers', () => {
  const workloads: SimWorkload[] = [
    workload('web', { 'worker-1': 2, 'worker-3': 1, 'worker-5': 1 }, { disruptionBudget: maxUnavailable('shop/web', 1), pdb: true, startSeconds: 90 }),
    workload('db', { 'worker-2': 1, 'worker-4': 1, 'worker-6': 1 }, { kind: 'StatefulSet', terminationGrace: 120, disruptionBudget: maxUnavailable('shop/db', 1), pdb: true }),
    workload('gpu', { 'worker-6': 1 }, { eligibleNodes: ['worker-6'], startSeconds: 300 }),
    workload('agent', Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`worker-${i + 1}`, 1])), { kind: 'DaemonSet' }),
  ];
  const result = simulate(cluster({ workers: 6 }), workloads, { fail: { kind: 'none' }, duration: 4 * 3600, events: [{ kind: 'upgrade-nodes', at: 60 }] });

  it('drains each worker in turn, the next 2 m after the previous one is empty', () => {
    assert.deepEqual(result.drains!.map((d) => [d.node, d.start, d.end]), [
      ['worker-1', 60, 180],
      ['worker-2', 300, 420],
      ['worker-3', 540, 570],
      ['worker-4', 690, 810],
      ['worker-5', 930, 960],
      ['worker-6', 1080, 1200],
    ]);
    assert.match(result.summary!.join(' '), /The rolling node upgrade of 6 workers takes 21 m, one node at a time\./);
  });

  it('keeps web within its budget (one pod down at a time), and gpu, which only worker-6 can run, down until worker-6 is back and gpu has started', () => {
    for (const p of result.workloads.find((w) => w.name === 'web')!.capacity) assert.ok(p.ready >= 3, `web at ${p.ready} at ${p.at}`);
    assert.equal(capacityAt(result, 'gpu', 1079).ready, 1);
    assert.equal(capacityAt(result, 'gpu', 1080).ready, 0);
    assert.equal(capacityAt(result, 'gpu', 1619).ready, 0, 'Pending until worker-6 is back at 22 m, then its 5 m start');
    assert.equal(capacityAt(result, 'gpu', 1620).ready, 1);
  });

  it('waits for the API before each drain, cordoning none while it is down, and says so (it cordoned and retried evictions with no API server)', () => {
    const down = simulate(cluster({ workers: 6 }), workloads, { fail: { kind: 'apiserver' }, duration: 600, events: [{ kind: 'upgrade-nodes', at: 300 }] });
    assert.deepEqual(down.drains!.map((d) => d.start)[0], 600, 'the first drain starts when the API is back');
    assert.ok(!down.timeline.some((e) => e.at < 600 && /cordoned/.test(e.reason)));
    assert.match(down.summary!.join(' '), /The rolling node upgrade replaces \d of 6 workers within the simulated 15 m, waiting for the API until 10 m \(cordoning a node is a write\):/);
  });

  it('says a fresh node has joined when it takes new pods: 2 m after its drain ended, with no kubelet reconnecting', () => {
    const joined = result.timeline.filter((e) => e.subject.type === 'node' && /the fresh worker-\d has joined/.test(e.reason));
    assert.deepEqual(
      joined.map((e) => [e.subject.name, e.at]),
      result.drains!.map((d) => [d.node, d.end! + 120]),
    );
    const agent = result.timeline.filter((e) => e.subject.name === 'agent').map((e) => e.reason).join('\n');
    assert.match(agent, /The fresh worker-6 has joined: DaemonSet shop\/agent's pods start there/);
    assert.doesNotMatch(agent, /reached the API again/, 'a fresh node has no kubelet coming back');
  });
});

/** The context simulate() gives the upgrade: the scenario's own drains and node incidents, with an end well past them. */
function baseOf(workers: number, workloads: SimWorkload[], scenario: Scenario): SimContext {
  const topology = cluster({ workers });
  const controlPlane = new ControlPlaneTimeline(topology, scenario);
  const incidents = nodeIncidents(scenario);
  const taints = new NoExecuteTaints(topology, controlPlane, incidents);
  return { topology, scenario, controlPlane, incidents, taints, drains: planDrains({ scenario, topology, workloads, controlPlane, incidents, notReady: taints.notReady }), end: scenario.duration + 3600 };
}

/** The upgrade's drains (node, start, uncordoned) and replaced nodes, with the drain end that `ends` gives. */
function roll(workers: number, workloads: SimWorkload[], scenario: Scenario, ends: (base: SimContext) => Parameters<typeof rollUpgrade>[4]) {
  const base = baseOf(workers, workloads, scenario);
  const at = scenario.events.find((e) => e.kind === 'upgrade-nodes')!.at;
  const step = rollUpgrade(at, base.topology, workloads, { plans: base.drains, incidents: base.incidents }, ends(base));
  return { drains: step.plans.map((p) => [p.node, p.start, p.uncordonAt]), replaced: step.incidents.map((i) => [i.node, i.at, i.backAt]) };
}

/** What a step's drain end was before: every workload run again with the drains so far. */
const everyWorkload = (workloads: SimWorkload[]) => (base: SimContext) => (step: { plans: SimContext['drains']; incidents: SimContext['incidents'] }, plan: SimContext['drains'][number]) =>
  drainEnd(plan, workloads.map((w) => ({ workload: w, run: simulateWorkload(w, { ...base, drains: step.plans, incidents: step.incidents }) })), base.end);

function generate(seed: number) {
  const next = random(seed);
  const { int, pick } = draws(next);
  const workers = int(2, 8);
  const names = Array.from({ length: workers }, (_, i) => `worker-${i + 1}`);
  const workloads = Array.from({ length: int(1, 7) }, (_, i) => {
    // Some may run on a few nodes only: their replacements wait for those, or crowd the one left.
    const pinned = next() < 0.4 ? [...new Set([pick(names), pick(names), pick(names)])] : undefined;
    return workload(`app-${i}`, randomPlacement(int(1, 4), pinned ?? names, pick), {
      kind: pick(['Deployment', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job'] as const),
      ...(pinned ? { eligibleNodes: pinned } : {}),
      ...(next() < 0.4 ? { disruptionBudget: maxUnavailable(`shop/app-${i}`, pick([0, 1, 1, 2])), pdb: true } : {}),
      ...(next() < 0.4 ? { startSeconds: pick([10, 300, 1200]) } : {}),
      ...(next() < 0.4 ? { terminationGrace: pick([0, 30, 600]) } : {}),
      ...(next() < 0.3 ? { hpa: { min: 1, max: 8 }, memoryLimit: next() < 0.5 } : {}),
    });
  });
  const events: ScenarioEvent[] = Array.from({ length: int(0, 4) }, () => {
    const target = pick(workloads).name;
    return pick<ScenarioEvent>([
      { kind: 'node-reboot', node: pick(names), at: int(0, 1800) },
      { kind: 'node-lost', node: pick(names), at: int(0, 1800) },
      { kind: 'pod-crash', namespace: 'shop', workload: target, mode: pick(['restartable', 'permanent'] as const), at: int(0, 1800) },
      { kind: 'traffic-surge', namespace: 'shop', workload: target, factor: 3, at: int(0, 1800) },
      { kind: 'drain', node: pick(names), at: int(0, 1800) },
    ]);
  });
  const fail = pick<Failure>([{ kind: 'none' }, { kind: 'none' }, { kind: 'apiserver' }, { kind: 'scheduler' }, { kind: 'controller-manager' }]);
  const scenario: Scenario = { fail, duration: fail.kind === 'none' ? 4 * 3600 : pick([600, 1800]), events: [...events, { kind: 'upgrade-nodes', at: int(0, 900) }] };
  return { seed, workers, workloads, scenario };
}

describe('a step re-runs only the workloads its drain can change', () => {
  it('and ends every drain, and so every step, where re-running every workload does (150 generated upgrades)', () => {
    let steps = 0;
    for (let seed = 7000; seed < 7150; seed++) {
      const c = generate(seed);
      const all = roll(c.workers, c.workloads, c.scenario, everyWorkload(c.workloads));
      assert.deepEqual(roll(c.workers, c.workloads, c.scenario, (base) => upgradeDrainEnds(base, c.workloads)), all, `seed ${seed}`);
      steps += all.replaced.length;
    }
    assert.ok(steps > 300, `only ${steps} workers replaced`);
  });

  it('runs a workload again only for the drains near its pods: 40 workers with a Deployment on each run 40 + 2 × 40 times, not 40 × 40', () => {
    const names = Array.from({ length: 40 }, (_, i) => `worker-${i + 1}`);
    const workloads = names.map((node, i) => workload(`app-${i}`, { [node]: 1 }));
    const scenario: Scenario = { fail: { kind: 'none' }, duration: 24 * 3600, events: [{ kind: 'upgrade-nodes', at: 0 }] };
    let runs = 0;
    const counted = (base: SimContext) => upgradeDrainEnds(base, workloads, (w, ctx) => (runs++, simulateWorkload(w, ctx)));
    assert.deepEqual(roll(40, workloads, scenario, counted), roll(40, workloads, scenario, everyWorkload(workloads)));
    assert.ok(runs <= 40 + 2 * 40, `${runs} runs`);
  });
});
