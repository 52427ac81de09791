// The traffic-surge, oom-kill and scale-out handlers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scenario } from '../../../server/src/simulate/types';
import { workload } from '../fixtures';
import { HEALTHY, play, runOf } from './harness';

const apiDown: Scenario = { fail: { kind: 'apiserver' }, duration: 3600, events: [] };

describe('traffic-surge handler', () => {
  const cases = [
    { name: 'HPA with a working control plane: scales out after its sync and start, and no pod is OOM-killed', extra: { hpa: { min: 2, max: 10 } }, scenario: HEALTHY, check: [[100 + 15 + 30, 'desired', 6], [3600, 'ready', 6]], says: /the HPA scales it from 2 to 6 pods/ },
    { name: "HPA stopped by its maxReplicas below the demand, with a memory limit: the pods it runs are still OOM-killed ~30 s on", extra: { hpa: { min: 2, max: 3 } }, scenario: HEALTHY, check: [[145, 'desired', 3], [145, 'ready', 3], [175, 'ready', 0], [185, 'ready', 3]], says: /its HPA stops at maxReplicas 3, below the 6 pods the traffic asks for: each pod still carries 2× its load[\s\S]*hit its memory limit under the surge/ },
    { name: 'HPA stopped by its maxReplicas below the demand, no memory limit: node pressure evicts its pods ~60 s on', extra: { hpa: { min: 2, max: 3 }, memoryLimit: false }, scenario: HEALTHY, check: [[145, 'ready', 3], [205, 'ready', 0]], says: /each pod carrying 2× its load at the HPA's maxReplicas, its nodes \(worker-1, worker-2, worker-3\) come under memory pressure/ },
    { name: 'HPA frozen with the API: no scale-out, each pod carries ×3', extra: { hpa: { min: 2, max: 10 } }, scenario: apiDown, check: [[100, 'load', 3]], says: /its HPA is frozen with the API/ },
    {
      name: 'HPA stopped with the controller manager, the API up: said as such (it said "frozen with the API")',
      extra: { hpa: { min: 2, max: 10 } },
      scenario: { fail: { kind: 'controller-manager' }, duration: 3600, events: [] } as Scenario,
      check: [[100, 'load', 3]],
      says: /its HPA runs in the controller manager, which is not acting: no scale-out/,
    },
    { name: 'no HPA with a memory limit and restartPolicy Never: OOM-killed ~30 s in, its pods fail for good', extra: { restartNever: true }, scenario: apiDown, check: [[130, 'ready', 0], [3599, 'ready', 0]], says: /OOM-killed, and with restartPolicy Never its pod failed for good/ },
    { name: 'no HPA and no memory limit: node pressure evicts its pods for good after ~60 s', extra: { memoryLimit: false }, scenario: apiDown, check: [[160, 'ready', 0]], says: /come under memory pressure/ },
    { name: 'no HPA with a memory limit: OOM-killed ~30 s in, restarted in place, and told that it loops while the surge lasts', extra: {}, scenario: apiDown, check: [[130, 'ready', 0], [140, 'ready', 2], [170, 'ready', 0]], says: /OOM-killed[\s\S]*container restarted; while the surge lasts it is OOM-killed again ~30 s after each restart, each back-off twice as long up to 5 m/ },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, c.extra), c.scenario);
      const { capacity, reasons } = play(run, 100, { kind: 'traffic-surge', factor: 3 });
      for (const [t, field, value] of c.check) assert.equal(capacity.filter((p) => p.at <= t).at(-1)![field], value, `${field} at ${t}`);
      assert.match(reasons, c.says);
    });
  }

  it('within the HPA\'s 10 % tolerance no pod is added, with the control plane up or after an outage (×1.05 scaled 2 pods to 3)', () => {
    for (const scenario of [HEALTHY, apiDown]) {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, { hpa: { min: 2, max: 10 } }), scenario);
      const { capacity, reasons } = play(run, 100, { kind: 'traffic-surge', factor: 1.05 });
      assert.ok(capacity.every((p) => p.desired === 2), JSON.stringify(capacity));
      assert.match(reasons, /traffic ×1.05 on 2 pods; within its HPA's 10 % tolerance, which leaves the replica count alone: no scale-out/);
      assert.doesNotMatch(reasons, /scales/);
    }
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, { hpa: { min: 2, max: 10 } }), HEALTHY);
    assert.match(play(run, 100, { kind: 'traffic-surge', factor: 1.2 }).reasons, /the HPA scales it from 2 to 3 pods/);
  });

  it('on a workload no pod of which runs (scaled to zero): nothing serves the traffic, no load is carried, nothing is hurt by it', () => {
    const run = runOf(workload('idle', {}, { replicas: 0, hpa: { min: 0, max: 5 } }), apiDown);
    const { capacity, reasons } = play(run, 300, { kind: 'traffic-surge', factor: 5 });
    assert.match(reasons, /shop\/idle: traffic ×5, but no pod of it runs: nothing serves it, and its HPA does not scale it up from none/);
    assert.doesNotMatch(reasons, /carries/);
    assert.ok(capacity.every((p) => (p.load ?? 1) === 1 && p.ready === 0 && p.desired === 0), JSON.stringify(capacity));
  });

  it('scaled to zero by KEDA: its triggers, not the HPA, bring it up from none, which the simulation does not follow', () => {
    const run = runOf(workload('idle', {}, { replicas: 0, hpa: { min: 0, max: 5, keda: true } }), apiDown);
    const { reasons } = play(run, 300, { kind: 'traffic-surge', factor: 5 });
    assert.match(reasons, /shop\/idle: traffic ×5, but no pod of it runs: nothing serves it until KEDA activates it: its triggers scale it up from none, and the simulation does not follow them/);
    assert.doesNotMatch(reasons, /its HPA does not scale/);
  });

  it('keeps nothing per cycle of the loop it is in: a week of it kept a note and a crash record for every kill of every pod (gigabytes on 10,000 pods)', () => {
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }), { ...apiDown, duration: 7 * 24 * 3600 }, [], 7 * 24 * 3600);
    const { capacity } = play(run, 100, { kind: 'traffic-surge', factor: 3 });
    assert.ok(capacity.length > 1000, 'it loops all week');
    assert.deepEqual(run.crashes, [], 'only cluster DNS reads its crashes');
    assert.ok(run.notes.size < 10, `${run.notes.size} moments with notes kept`);
  });

  it('ignores a factor that is no surge', () => {
    const run = runOf(workload('web', { 'worker-1': 1 }));
    assert.equal(play(run, 0, { kind: 'traffic-surge', factor: 1 }).events.length, 0);
  });
});

describe('oom-kill handler', () => {
  const cases = [
    { name: 'kills a live container before relief', at: 50, relief: 100, ready: 0 },
    { name: 'not after relief', at: 150, relief: 100, ready: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1 }));
      run.load = 3;
      run.surgeRelief = c.relief;
      const slot = run.slots[0];
      assert.equal(play(run, c.at, { kind: 'oom-kill', slot, generation: 0, first: true }).readyAt(c.at), c.ready);
    });
  }
});

describe('scale-out handler', () => {
  it('adds pods up to the target and spreads the load over them', () => {
    const run = runOf(workload('web', { 'worker-1': 1 }));
    const { capacity } = play(run, 10, { kind: 'scale-out', to: 3, demand: 3, why: 'scaled out', fact: 'rule 10' });
    assert.deepEqual(capacity.at(-1), { at: 7200, ready: 3, desired: 3, blackholed: 0 });
  });
});
