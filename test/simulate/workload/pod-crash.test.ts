// The pod-crash and container-restarted handlers: a crash restarts in place, or loses the pod for good.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scenario } from '../../../server/src/simulate/types';
import { workload } from '../fixtures';
import { emit } from '../../../server/src/simulate/workload/run';
import { HEALTHY, play, runOf } from './harness';
import type { ScenarioEvent } from '../../../server/src/simulate/types';
import { simulate } from '../../../server/src/simulate/simulate';
import { cluster } from '../fixtures';
import { capacityAt } from '../expect';

const pick = ({ ready, blackholed }: { ready: number; blackholed: number }) => ({ ready, blackholed });

const apiDown: Scenario = { fail: { kind: 'apiserver' }, duration: 3600, events: [] };
const LIVENESS_30 = { seconds: 30, probe: 'liveness', container: 'app', formula: 'initialDelaySeconds 0 + 3 × 10 s' } as const;

describe('pod-crash handler', () => {
  const cases = [
    { name: 'restartable: back after the 10 s back-off, same IP', mode: 'restartable', scenario: HEALTHY, extra: {}, at: [[100, 1], [110, 2]], says: /restarts it in place after 10 s back-off/ },
    { name: 'restartable slow starter: back after back-off plus its declared start', mode: 'restartable', scenario: HEALTHY, extra: { startSeconds: 120 }, at: [[229, 1], [230, 2]], says: /serves again after its 120 s start/ },
    { name: 'restartable slow starter its liveness probe kills: never back', mode: 'restartable', scenario: HEALTHY, extra: { startSeconds: 120, startBudget: LIVENESS_30 }, at: [[7000, 1]], says: /never serves/ },
    { name: 'restartable, but its restartPolicy is Never: the pod fails for good (it was restarted in place)', mode: 'restartable', scenario: apiDown, extra: { restartNever: true }, at: [[100, 1], [3599, 1]], says: /a container on worker-1 crashed, and with restartPolicy Never its pod failed for good: nothing replaces it while the API is down/ },
    { name: 'permanent with the API up: the ReplicaSet controller replaces it', mode: 'permanent', scenario: HEALTHY, extra: {}, at: [[100, 1], [130, 2]], says: /replaces it/ },
    { name: 'permanent with the API down: nothing replaces it, the frozen Service blackholes 1/2', mode: 'permanent', scenario: apiDown, extra: {}, at: [[3599, 1]], says: /keeps sending it 1\/2 of new connections/ },
    {
      name: 'permanent with the API up but the controller manager down: replaced only once it runs again, the frozen Service blackholes 1/2 meanwhile (it said "the ReplicaSet controller replaces it")',
      mode: 'permanent',
      scenario: { fail: { kind: 'controller-manager' }, duration: 3600, events: [] } as Scenario,
      extra: {},
      at: [[3599, 1], [3600 + 30, 2]],
      says: /the ReplicaSet controller replaces it only when the controller manager runs again \(1 h\); until then its frozen Service keeps sending it 1\/2 of new connections/,
    },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, c.extra), c.scenario);
      const { readyAt, reasons } = play(run, 100, { kind: 'pod-crash', mode: c.mode });
      for (const [t, ready] of c.at) assert.equal(readyAt(t), ready, `ready at ${t}`);
      assert.match(reasons, c.says);
    });
  }

  it('a container waiting out its back-off is not ready: with the controllers acting its pod leaves its Service (no connection is sent to it); with the API down the frozen Service keeps sending it some', () => {
    const crashing = (fail: Scenario['fail']) => {
      const events = [100, 200, 300].map((at): ScenarioEvent => ({ kind: 'pod-crash', namespace: 'shop', workload: 'web', mode: 'restartable', at }));
      return simulate(cluster(), [workload('web', { 'worker-1': 1, 'worker-2': 1 })], { fail, duration: 3600, events });
    };
    // The third crash waits 40 s.
    for (const fail of [{ kind: 'none' }, { kind: 'scheduler' }] as const) assert.deepEqual(pick(capacityAt(crashing(fail), 'web', 330)), { ready: 1, blackholed: 0 });
    assert.deepEqual(pick(capacityAt(crashing({ kind: 'apiserver' }), 'web', 330)), { ready: 1, blackholed: 0.5 });
    assert.equal(capacityAt(crashing({ kind: 'none' }), 'web', 340).ready, 2);
  });

  it('with the API down, names no Service for a workload no Service selects', () => {
    const run = runOf(workload('worker', { 'worker-1': 1, 'worker-2': 1 }, { fronted: false }), apiDown);
    const { reasons } = play(run, 100, { kind: 'pod-crash', mode: 'permanent' });
    assert.match(reasons, /failed for good: nothing replaces it while the API is down/);
    assert.doesNotMatch(reasons, /Service|connections/);
  });

  it('starts the back-off over once a container has run 10 min without crashing; crashes closer together double it', () => {
    const run = runOf(workload('solo', { 'worker-1': 1 }), HEALTHY, [], 7200);
    const crash = { kind: 'pod-crash', mode: 'restartable' } as const;
    // Back at 110 (10 s), 130 (20 s), then 20 min of clean running before each of the next two crashes.
    for (const at of [100, 120, 1330, 2540]) emit(run, at, crash);
    const { reasons } = play(run, 3750, crash);
    const delays = [...reasons.matchAll(/restarts it in place after (\d+) s back-off/g)].map((m) => Number(m[1]));
    assert.deepEqual(delays, [10, 20, 10, 10, 10]);
  });

  it('a restarted ingress controller or CoreDNS container serves again only once the API is back: neither starts without it', () => {
    // CoreDNS waits for the API; an ingress controller exits after 113 s of trying, and its back-off grows meanwhile:
    // started at 610 s, 743, 896, 1,089, 1,362, 1,775, then every 413 s, it meets the API back at 3,600 s at its start of 3,840 s.
    for (const [extra, servesAt, says] of [
      [{ ingressController: true, apiClient: 'ingress-nginx' }, 3850, /as an ingress controller it cannot start without the API \(it gives up on it after 1 m 53 s and exits, and the kubelet starts it again after a back-off that grows to 5 m\) until one of its starts meets the API and it has synced \(1 h 4 m 10 s\)/],
      [{ clusterDns: true }, 3610, /CoreDNS started without the API cannot sync Services: not ready, and SERVFAIL for cluster names, until the API is back and synced \(1 h 10 s\)/],
    ] as const) {
      const run = runOf(workload('edge', { 'worker-1': 1, 'worker-2': 1 }, extra), apiDown);
      const { readyAt, reasons } = play(run, 600, { kind: 'pod-crash', mode: 'restartable' });
      assert.equal(readyAt(servesAt - 1), 1, 'down while the API is');
      assert.equal(readyAt(servesAt), 2, 'back once the API is and it has synced');
      assert.match(reasons, says);
    }
    const healthy = runOf(workload('edge', { 'worker-1': 1, 'worker-2': 1 }, { ingressController: true, apiClient: 'ingress-nginx' }), HEALTHY);
    assert.equal(play(healthy, 600, { kind: 'pod-crash', mode: 'restartable' }).readyAt(610), 2, 'with the API up, back after its back-off');
  });

  it('says so when no pod is left to crash', () => {
    const run = runOf(workload('web', { 'worker-1': 1 }));
    run.slots[0].alive = false;
    assert.match(play(run, 5, { kind: 'pod-crash', mode: 'permanent' }).reasons, /no running pod left to crash/);
  });
});

describe('container-restarted handler', () => {
  const cases = [
    { name: 'brings the container back', generation: 0, incidents: [], ready: 1 },
    { name: 'not for an older incarnation', generation: -1, incidents: [], ready: 0 },
    { name: 'not while its node is down', generation: 0, incidents: [{ node: 'worker-1', kind: 'lost' as const, at: 0, backAt: Infinity, what: 'lost', fact: 'rule 5' }], ready: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1 }), undefined, [], undefined, c.incidents);
      const slot = run.slots[0];
      slot.alive = false;
      const { readyAt } = play(run, 50, { kind: 'container-restarted', slot, generation: slot.generation + c.generation, repeat: false });
      assert.equal(readyAt(50), c.ready);
    });
  }
});
