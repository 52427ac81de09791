// The drain-start, eviction-attempt, eviction and eviction-refused handlers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SimWorkload } from '../../../server/src/simulate/model';
import type { Scenario } from '../../../server/src/simulate/types';
import { termination } from '../../../server/src/simulate/workload/handlers/eviction';
import { workload } from '../fixtures';
import { autoscalerDrain, HEALTHY, kubectlDrain, play, runOf } from './harness';

const budget = (field: 'minAvailable' | 'maxUnavailable', value: number) => ({ pdb: 'shop/web-pdb', budget: { field, value: { kind: 'int' as const, value } } });
const apiDown: Scenario = { fail: { kind: 'apiserver' }, duration: 600, events: [] };

describe('drain-start handler', () => {
  const cases = [
    { name: 'evicts every pod of a Deployment on the node, told together', extra: {}, evicted: 2, says: /kubectl drain evicted 2 of its pods on worker-1; for each, it stops within its 30 s grace period/ },
    { name: 'leaves a DaemonSet pod running', extra: { kind: 'DaemonSet' }, evicted: 0, says: /DaemonSet pods are not evicted/ },
    { name: 'leaves a static pod running', extra: { kind: 'Pod', staticPod: true }, evicted: 0, says: /static \(mirror\) pod cannot be evicted/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const drain = kubectlDrain('worker-1');
      const run = runOf(workload('web', { 'worker-1': 2, 'worker-2': 1 }, c.extra), HEALTHY, [drain]);
      const { reasons } = play(run, 0, { kind: 'drain-start', drain });
      assert.equal(run.evictions.length, c.evicted);
      assert.match(reasons, c.says);
    });
  }

  it('tells the pods of one workload it evicts at once as many, not as "its pod" once', () => {
    const drain = kubectlDrain('worker-1');
    const run = runOf(workload('web', { 'worker-1': 3, 'worker-2': 1 }), HEALTHY, [drain]);
    const { reasons } = play(run, 0, { kind: 'drain-start', drain });
    assert.match(reasons, /kubectl drain evicted 3 of its pods on worker-1; for each, it stops within .* the 3 evicted pods leave its Service/);
    assert.doesNotMatch(reasons, /its pod on|the evicted pod leaves/);
  });

  it('evicts a replacement still starting on the node too, telling it was not ready and cutting no sessions', () => {
    const drain = kubectlDrain('worker-1');
    const run = runOf(workload('billing', { 'worker-1': 1, 'worker-2': 1 }, { sessions: 'in-memory', startSeconds: 1200 }), HEALTHY, [drain]);
    const starting = run.slots[0];
    starting.alive = false;
    starting.generation = 1;
    const { reasons } = play(run, 0, { kind: 'drain-start', drain });
    assert.equal(run.evictions.length, 1);
    assert.equal(run.evictions[0].sessionsCut, false);
    assert.match(reasons, /kubectl drain evicted its pod on worker-1 \(not ready yet\); it stops within its 30 s grace period \(the default\); the ReplicaSet/);
  });

  it('evicts a crash-looping pod on the node, telling that it never came up rather than that it is not ready yet', () => {
    const drain = kubectlDrain('worker-1');
    const startBudget = { seconds: 30, probe: 'liveness' as const, container: 'app', formula: 'initialDelaySeconds 0 + 3 × 10 s' };
    const run = runOf(workload('billing', { 'worker-1': 1, 'worker-2': 1 }, { startSeconds: 1200, startBudget }), HEALTHY, [drain]);
    const looping = run.slots[0];
    looping.alive = false;
    looping.generation = 1;
    const { reasons } = play(run, 0, { kind: 'drain-start', drain });
    assert.match(reasons, /kubectl drain evicted its pod on worker-1 \(crash-looping: its probes kill it before it is up\); it stops within/);
    assert.doesNotMatch(reasons, /not ready yet/);
  });

  it('says the replacement of a pod its probes kill before it is up never serves (it said "serving after 20 m", then "so it never serves")', () => {
    const drain = kubectlDrain('worker-1');
    const startBudget = { seconds: 30, probe: 'liveness' as const, container: 'app', formula: 'initialDelaySeconds 0 + 3 × 10 s' };
    const run = runOf(workload('billing', { 'worker-1': 1, 'worker-2': 1 }, { startSeconds: 1200, startBudget }), HEALTHY, [drain]);
    const { reasons } = play(run, 0, { kind: 'drain-start', drain });
    assert.match(reasons, /the ReplicaSet controller creates a replacement at once, which its probes kill before it is up/);
    assert.doesNotMatch(reasons, /serving after/);
  });

  it('an earlier eviction whose replacement is evicted before it serves is served by the replacement after it', () => {
    const drain = kubectlDrain('worker-1');
    const run = runOf(workload('billing', { 'worker-1': 1 }, { eligibleNodes: ['worker-1', 'worker-2'], startSeconds: 1200 }), HEALTHY, [drain]);
    const starting = run.slots[0];
    starting.alive = false;
    starting.generation = 1;
    run.evictions.push({ drain: kubectlDrain('worker-3'), at: 0, terminatedAt: 30, sessionsCut: false, slot: starting.id });
    play(run, 60, { kind: 'drain-start', drain });
    assert.deepEqual(run.evictions.map((e) => e.replacementReady), [1260, 1260], 'the replica evicted from worker-3 serves again on worker-2 at 60 + 1,200 s');
  });

  it('an earlier eviction whose replacement served keeps the time it served, when that replacement is evicted in turn', () => {
    const drain = kubectlDrain('worker-1');
    const run = runOf(workload('web', { 'worker-1': 1 }, { eligibleNodes: ['worker-1', 'worker-2'] }), HEALTHY, [drain]);
    const served = run.slots[0];
    served.generation = 1;
    run.evictions.push({ drain: kubectlDrain('worker-3'), at: 0, terminatedAt: 30, sessionsCut: false, slot: served.id, replacementReady: 30 });
    play(run, 60, { kind: 'drain-start', drain });
    assert.deepEqual(run.evictions.map((e) => e.replacementReady), [30, 90]);
  });

  it('evicts nothing from a halted drain', () => {
    const drain = kubectlDrain('worker-1', 0, { halted: 'a bare pod' });
    const run = runOf(workload('web', { 'worker-1': 1 }), HEALTHY, [drain]);
    play(run, 0, { kind: 'drain-start', drain });
    assert.equal(run.evictions.length, 0);
  });
});

describe('eviction-attempt handler', () => {
  const cases = [
    { name: 'no PDB: let through', pdb: undefined, scenario: HEALTHY, evicted: 1, refused: 0 },
    { name: 'maxUnavailable 1 with all healthy: let through', pdb: budget('maxUnavailable', 1), scenario: HEALTHY, evicted: 1, refused: 0 },
    { name: 'minAvailable 3 of 3: refused, and retried every 5 s for as long as the run lasts', pdb: budget('minAvailable', 3), scenario: HEALTHY, evicted: 0, refused: 1 },
    { name: 'the API is down: refused without a PDB', pdb: undefined, scenario: apiDown, evicted: 1, refused: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const drain = kubectlDrain('worker-1');
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 2 }, c.pdb ? { disruptionBudget: c.pdb } : {}), c.scenario, [drain], 3600);
      const slot = run.slots[0];
      play(run, 0, { kind: 'eviction-attempt', slot, generation: 0, drain, firstTry: 0 });
      assert.equal(run.evictions.length, c.evicted);
      assert.equal(run.refusals.filter((r) => r.to === null).length, c.refused);
      if (c.scenario === apiDown) assert.equal(run.evictions[0].at, 600, 'evicted by a retry once the API is back');
    });
  }
});

describe('eviction-attempt handler, a StatefulSet of 3 whose budgets pick pods out by name (statefulset.kubernetes.io/pod-name)', () => {
  const int = (field: 'minAvailable' | 'maxUnavailable', value: number) => ({ field, value: { kind: 'int' as const, value } });
  const web = (podBudgets: SimWorkload['podBudgets'], extra: Partial<SimWorkload> = {}) =>
    workload('web', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { kind: 'StatefulSet', podNames: { 'worker-1': ['web-0'], 'worker-2': ['web-1'], 'worker-3': ['web-2'] }, podBudgets, ...extra });
  const perPod = (field: 'minAvailable' | 'maxUnavailable', value: number) => ['web-0', 'web-1', 'web-2'].map((pod) => ({ pdb: `shop/${pod}`, budget: int(field, value), pods: [pod] }));
  /** Asks to evict the pod on the node: whether it went, and why not. */
  const attempt = (w: SimWorkload, node: string) => {
    const drain = kubectlDrain(node);
    const run = runOf(w, HEALTHY, [drain], 3600);
    const slot = run.slots.find((s) => s.node === node)!;
    const { reasons } = play(run, 0, { kind: 'eviction-attempt', slot, generation: 0, drain, firstTry: 0 });
    return { evicted: run.evictions.length, refusedBy: run.refusals.find((r) => r.to === null)?.pdb, reasons };
  };

  // maxUnavailable is counted against the StatefulSet's 3 replicas, a whole-number minAvailable against the pod.
  for (const [field, value, needs] of [['maxUnavailable', 0, 3], ['minAvailable', 1, 1]] as const) {
    it(`one per pod, each ${field} ${value}: each refuses the eviction of its pod (429); it let every pod go`, () => {
      for (const [node, pod] of [['worker-1', 'web-0'], ['worker-3', 'web-2']]) {
        const { evicted, refusedBy, reasons } = attempt(web(perPod(field, value)), node);
        assert.equal(evicted, 0);
        assert.equal(refusedBy, `shop/${pod}`);
        assert.match(reasons, new RegExp(`its PodDisruptionBudget shop/${pod} \\(over pod ${pod}\\) needs ${needs} healthy and 1 is: 0 disruptions allowed, the eviction API answers 429`));
      }
    });
  }

  it('one per pod, each minAvailable 0: each lets its pod go', () => {
    assert.equal(attempt(web(perPod('minAvailable', 0)), 'worker-2').evicted, 1);
  });

  it('one per pod, each maxUnavailable 1: counted against all 3 replicas, each wants 2 healthy of its 1 pod, and refuses', () => {
    const { evicted, reasons } = attempt(web(perPod('maxUnavailable', 1)), 'worker-2');
    assert.equal(evicted, 0);
    assert.match(reasons, /its PodDisruptionBudget shop\/web-1 \(over pod web-1\) needs 2 healthy and 1 is/);
  });

  it('one over pod 0 only: web-0 stays, web-1 and web-2 go as if there were none', () => {
    const only0 = web([{ pdb: 'shop/web-0', budget: int('maxUnavailable', 0), pods: ['web-0'] }]);
    assert.deepEqual([attempt(only0, 'worker-1').evicted, attempt(only0, 'worker-2').evicted, attempt(only0, 'worker-3').evicted], [0, 1, 1]);
  });

  it('one over web-1 and web-2, minAvailable 1, both on the drained node: it counts its own 2 pods healthy, not the 3, and lets one go at a time', () => {
    const drain = kubectlDrain('worker-1');
    const rest = workload('web', { 'worker-1': 2, 'worker-2': 1 }, {
      kind: 'StatefulSet',
      podNames: { 'worker-1': ['web-1', 'web-2'], 'worker-2': ['web-0'] },
      podBudgets: [{ pdb: 'shop/web-rest', budget: int('minAvailable', 1), pods: ['web-1', 'web-2'] }],
      eligibleNodes: ['worker-1', 'worker-2', 'worker-3'],
    });
    const run = runOf(rest, HEALTHY, [drain], 3600);
    play(run, 0, { kind: 'drain-start', drain });
    const [first, second] = run.evictions.map((e) => e.at);
    assert.equal(first, 0);
    assert.ok(second > 0, `the second waits until the first is replaced and ready (evicted at ${second})`);
  });

  it('one over pod 0 beside one over every pod: web-0 has two, and the eviction API refuses it (500); web-1 has one', () => {
    const both = web([{ pdb: 'shop/web-0', budget: int('maxUnavailable', 1), pods: ['web-0'] }], { disruptionBudget: { pdb: 'shop/web', budget: int('maxUnavailable', 1) } });
    const refused = attempt(both, 'worker-1');
    assert.equal(refused.refusedBy, 'shop/web and shop/web-0');
    assert.match(refused.reasons, /its pod web-0 is selected by 2 PodDisruptionBudgets \(shop\/web, shop\/web-0\)/);
    assert.equal(attempt(both, 'worker-2').evicted, 1);
  });
});

describe('eviction-attempt handler, a pod not ready under a budget that allows no eviction', () => {
  const attempt = (alwaysAllowUnhealthy: boolean) => {
    const drain = kubectlDrain('worker-1');
    const guard = { ...budget('maxUnavailable', 1), ...(alwaysAllowUnhealthy ? { alwaysAllowUnhealthy: true as const } : {}) };
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 2 }, { disruptionBudget: guard }), HEALTHY, [drain], 3600);
    // Two of three not ready: the budget needs 2 healthy and 1 is.
    run.slots[0].alive = false;
    run.slots[1].alive = false;
    play(run, 0, { kind: 'eviction-attempt', slot: run.slots[0], generation: 0, drain, firstTry: 0 });
    return run;
  };

  it('IfHealthyBudget (the default): refused while the healthy pods do not meet the budget', () => {
    assert.equal(attempt(false).evictions.length, 0);
  });

  it('AlwaysAllow: let through, whatever the budget says (it was read as the default, and the drain never finished)', () => {
    assert.equal(attempt(true).evictions.length, 1);
  });
});

describe('eviction-refused handler', () => {
  const cases = [
    { name: 'kubectl keeps retrying: the refusal stays open', drain: kubectlDrain('worker-1'), open: 1, gaveUp: 0 },
    { name: 'the autoscaler gives up after 2 minutes', drain: autoscalerDrain('worker-1'), open: 0, gaveUp: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1 }, { disruptionBudget: budget('minAvailable', 1) }), HEALTHY, [c.drain], 3600);
      const slot = run.slots[0];
      const { reasons } = play(run, 0, { kind: 'eviction-refused', slot, generation: 0, drain: c.drain, firstTry: 0, why: 'PDB', pdb: 'shop/web-pdb' });
      assert.equal(run.refusals.filter((r) => r.to === null).length, c.open);
      assert.equal(run.gaveUp.length, c.gaveUp);
      if (c.gaveUp) assert.equal(run.gaveUp[0].at, 120);
      assert.match(reasons, /refused/);
    });
  }
});

describe('eviction handler', () => {
  it('a pod that has not served holds no sessions: it stops as any pod does, cutting nothing, whatever the sessions declared', () => {
    const drain = kubectlDrain('worker-1');
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, { terminationGrace: 3600, sessions: 'in-memory', sessionSeconds: 600 }), HEALTHY, [drain]);
    assert.deepEqual(termination(run, drain, 0, false), { terminatedAt: 3600, grace: 3600, capped: false, sessionsCut: false });
    assert.equal(termination(run, drain, 0).terminatedAt, 600, 'a pod that served keeps its sessions until they end');
    const slot = run.slots[0];
    slot.alive = false;
    const { reasons } = play(run, 0, { kind: 'eviction', slot, drain });
    assert.equal(run.evictions[0].terminatedAt, 3600);
    assert.doesNotMatch(reasons, /sessions/);
  });

  const cases = [
    { name: 'default grace: gone 30 s later, replaced at once', extra: {}, drain: kubectlDrain('worker-1'), terminatedAt: 30, cut: false },
    { name: 'an hour of grace under the autoscaler: capped at 600 s', extra: { terminationGrace: 3600 }, drain: autoscalerDrain('worker-1'), terminatedAt: 600, cut: false },
    { name: 'sessions of an hour, grace of an hour, kubectl: the calls end first', extra: { terminationGrace: 3600, sessions: 'in-memory', sessionSeconds: 3600 }, drain: kubectlDrain('worker-1'), terminatedAt: 3600, cut: false },
    { name: 'sessions of an hour under the autoscaler: cut at its 600 s cap', extra: { terminationGrace: 3600, sessions: 'in-memory', sessionSeconds: 3600 }, drain: autoscalerDrain('worker-1'), terminatedAt: 600, cut: true },
    { name: 'in-memory sessions of unknown length: cut when the pod stops', extra: { sessions: 'in-memory' }, drain: kubectlDrain('worker-1'), terminatedAt: 30, cut: true },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, c.extra), HEALTHY, [c.drain]);
      const slot = run.slots[0];
      assert.deepEqual(termination(run, c.drain, 0).terminatedAt, c.terminatedAt);
      const { readyAt } = play(run, 0, { kind: 'eviction', slot, drain: c.drain });
      assert.equal(run.evictions[0].terminatedAt, c.terminatedAt);
      assert.equal(run.evictions[0].sessionsCut, c.cut);
      assert.equal(readyAt(0), 1, 'the evicted pod leaves its Service at once');
      assert.equal(readyAt(30), 2, 'its replacement serves after the assumed 30 s start');
      assert.equal(run.evictions[0].replacementReady, 30);
    });
  }

  it('with the controller manager down, the replacement waits for it, and the eviction says so', () => {
    const drain = kubectlDrain('worker-1');
    const controllersDown: Scenario = { fail: { kind: 'controller-manager' }, duration: 3600, events: [] };
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }), controllersDown, [drain]);
    const { readyAt, reasons } = play(run, 0, { kind: 'eviction', slot: run.slots[0], drain });
    assert.match(reasons, /the ReplicaSet controller creates a replacement when the controller manager runs again \(1 h\), serving after 30 s/);
    assert.doesNotMatch(reasons, /at once/);
    assert.equal(readyAt(3600 + 29), 1);
    assert.equal(readyAt(3600 + 30), 2);
  });

  it('with the scheduler down, the replacement is made at once and stays Pending until the scheduler runs again', () => {
    const drain = kubectlDrain('worker-1');
    const schedulerDown: Scenario = { fail: { kind: 'scheduler' }, duration: 1800, events: [] };
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }), schedulerDown, [drain]);
    const { readyAt, reasons } = play(run, 0, { kind: 'eviction', slot: run.slots[0], drain });
    assert.match(reasons, /creates a replacement at once; it stays Pending until the scheduler runs again \(30 m\), serving after 30 s/);
    assert.equal(readyAt(1800 + 29), 1);
    assert.equal(readyAt(1800 + 30), 2);
  });

  it('a StatefulSet pod is recreated only once the old one is gone', () => {
    const drain = kubectlDrain('worker-1');
    const run = runOf(workload('db', { 'worker-1': 1 }, { kind: 'StatefulSet', terminationGrace: 120 }), HEALTHY, [drain]);
    const { readyAt } = play(run, 0, { kind: 'eviction', slot: run.slots[0], drain });
    assert.equal(readyAt(149), 0);
    assert.equal(readyAt(150), 1);
  });
});

describe('eviction handler, of a pod already stopping', () => {
  it('waits for it once, though handed it twice at one moment (by the drain\'s start and by the node controller\'s eviction that left it)', () => {
    const run = runOf(workload('web', { 'worker-1': 1 }, { notServing: [{ pod: 'web-old', node: 'worker-1', why: 'stopping' }] }));
    const drain = kubectlDrain('worker-1', 0);
    const [slot] = run.slots;
    run.handlers.eviction(run, { kind: 'eviction', slot, drain }, 0);
    run.handlers.eviction(run, { kind: 'eviction', slot, drain }, 0);
    assert.deepEqual(run.evictions.map((e) => e.stoppingPod), ['web-old']);
  });
});
