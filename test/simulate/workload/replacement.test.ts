// The replacement handlers: where the scheduler binds a replacement, when there is nowhere to bind it, and when it serves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Slot } from '../../../server/src/simulate/capacity-state';
import type { SimWorkload } from '../../../server/src/simulate/model';
import type { Scenario } from '../../../server/src/simulate/types';
import { workload } from '../fixtures';
import { emit } from '../../../server/src/simulate/workload/run';
import { kubectlDrain, play, runOf } from './harness';

/** A replica whose pod is gone and whose first replacement (generation 1) waits for the scheduler, bound nowhere yet. */
function awaitingReplacement(slot: Slot): Slot {
  slot.alive = false;
  slot.generation = 1;
  slot.node = '';
  return slot;
}

describe('replacement-scheduled and replacement-ready handlers', () => {
  const cases = [
    { name: 'binds it to the schedulable node with the fewest of its pods, serving after its start', eligible: undefined, drains: [], node: 'worker-1', ready: 2 },
    { name: 'never to a cordoned node', eligible: ['worker-1', 'worker-3'], drains: [kubectlDrain('worker-1')], node: 'worker-3', ready: 2 },
    { name: 'leaves it Pending when no eligible node is schedulable', eligible: ['worker-3'], drains: [kubectlDrain('worker-3')], node: '', ready: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, c.eligible ? { eligibleNodes: c.eligible } : {}), undefined, c.drains);
      const slot = awaitingReplacement(run.slots[0]);
      const { readyAt, reasons } = play(run, 60, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/web: replaced' });
      assert.equal(slot.node, c.node);
      assert.equal(readyAt(89), 1);
      assert.equal(readyAt(90), c.ready);
      assert.match(reasons, c.node ? new RegExp(`the replacement runs on ${c.node}`) : /no schedulable node for a replacement pod: its node selector, node affinity or tolerations let it run on worker-3 only, none of which takes new pods now: it stays Pending/);
    });
  }

  it('never binds a pod that takes a host port to a node where one of its pods already holds it (it bound a second one there)', () => {
    // worker-3 is cordoned: the only other workers run a pod of its each, with port 8443.
    const run = runOf(workload('edge', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { hostPorts: [8443] }), undefined, [kubectlDrain('worker-3')]);
    const slot = awaitingReplacement(run.slots[2]);
    const { readyAt, reasons } = play(run, 60, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/edge: replaced' });
    assert.equal(slot.node, '');
    assert.equal(readyAt(3600), 2);
    assert.match(reasons, /no schedulable node for a replacement pod: on every node that would take it, one of its pods there holds host port 8443: it stays Pending/);
    // Without a host port it goes next to another of its pods.
    const free = runOf(workload('edge', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }), undefined, [kubectlDrain('worker-3')]);
    const moved = awaitingReplacement(free.slots[2]);
    play(free, 60, { kind: 'replacement-scheduled', slot: moved, generation: 1, why: 'Deployment shop/edge: replaced' });
    assert.equal(moved.node, 'worker-1');
  });

  it('keeps to required pod anti-affinity and to spread constraints that refuse to schedule, by node or by zone (it bound a second Kafka broker next to another)', () => {
    const drained = (extra: Partial<SimWorkload>) => {
      const run = runOf(workload('kafka', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, extra), undefined, [kubectlDrain('worker-3')]);
      const slot = awaitingReplacement(run.slots[2]);
      const { reasons } = play(run, 60, { kind: 'replacement-scheduled', slot, generation: 1, why: 'StatefulSet shop/kafka: replaced' });
      return { node: slot.node, reasons };
    };
    const anti = drained({ antiAffinity: ['node'] });
    assert.equal(anti.node, '');
    assert.match(anti.reasons, /on every node that would take it, its required pod anti-affinity allows one of its pods per node: it stays Pending/);
    // worker-3, cordoned, is still a domain with none of its pods: one more anywhere else is a skew of 2.
    const spread = drained({ hardSpread: [{ domain: 'node', maxSkew: 1 }] });
    assert.equal(spread.node, '');
    assert.match(spread.reasons, /its topology spread by node \(DoNotSchedule, maxSkew 1\) would be broken/);
    assert.equal(drained({ hardSpread: [{ domain: 'node', maxSkew: 2 }] }).node, 'worker-1', 'a skew of 2 is allowed');
    assert.equal(drained({}).node, 'worker-1');
  });

  it('a Pending replacement is scheduled once an eligible node takes new pods again (a fresh node joined), and serves after its start', () => {
    const run = runOf(workload('renderer', { 'worker-3': 1 }, { eligibleNodes: ['worker-3'] }), undefined, [kubectlDrain('worker-3', 0, { upgrade: true, uncordonAt: 150 })]);
    const slot = awaitingReplacement(run.slots[0]);
    run.evictions.push({ drain: run.ctx.drains[0], at: 0, terminatedAt: 30, sessionsCut: false, slot: slot.id });
    const { readyAt, reasons } = play(run, 30, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/renderer: replaced' });
    assert.match(reasons, /no schedulable node for a replacement pod: its node selector, node affinity or tolerations let it run on worker-3 only, none of which takes new pods now: it stays Pending until worker-3 takes new pods again at 2 m 30 s/);
    assert.equal(readyAt(179), 0);
    assert.equal(readyAt(180), 1, 'scheduled when worker-3 is back, serving the assumed 30 s later');
    assert.equal(slot.node, 'worker-3');
    assert.equal(run.evictions[0].replacementReady, 180);
  });

  it('a node up again after a reboot takes new pods once its kubelet has reached the API, as the node\'s row says, not as it boots', () => {
    // worker-3 reboots at 0: up at 120 s, its kubelet in touch at 130 s; Pending from 125 s, bound at 130 s, serving 30 s later.
    const reboot: Scenario = { fail: { kind: 'none' }, duration: 0, events: [{ kind: 'node-reboot', node: 'worker-3', at: 0 }] };
    const run = runOf(workload('renderer', { 'worker-3': 1 }, { eligibleNodes: ['worker-3'] }), reboot);
    const slot = awaitingReplacement(run.slots[0]);
    const { readyAt, reasons } = play(run, 125, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/renderer: replaced' });
    assert.match(reasons, /it stays Pending until worker-3 takes new pods again at 2 m 10 s/);
    assert.equal(readyAt(159), 0);
    assert.equal(readyAt(160), 1);
  });

  it('a replacement that serves only after the simulated time is told when it is bound, since it is never told serving', () => {
    // The run ends at 7,200 s; bound at 7,000 s, a 20-minute start ends at 8,200 s.
    const run = runOf(workload('billing', { 'worker-1': 1, 'worker-2': 1 }, { startSeconds: 1200 }));
    const slot = awaitingReplacement(run.slots[0]);
    slot.listed = false;
    const { events, readyAt } = play(run, 7000, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/billing: the ReplicaSet controller replaced its pod' });
    assert.deepEqual(
      events.map((e) => [e.at, e.reason]),
      [[7000, 'Deployment shop/billing: the ReplicaSet controller replaced its pod; the replacement runs on worker-1 and serves only after its 20 m start, beyond the simulated time. Serving 1/2']],
    );
    assert.equal(readyAt(7200), 1);
  });

  it('a replacement whose only node is lost for good stays Pending, with no time it would be scheduled', () => {
    const lost: Scenario = { fail: { kind: 'none' }, duration: 0, events: [{ kind: 'node-lost', node: 'worker-3', at: 0 }] };
    const run = runOf(workload('renderer', { 'worker-3': 1 }, { eligibleNodes: ['worker-3'] }), lost);
    const slot = awaitingReplacement(run.slots[0]);
    const { readyAt, reasons } = play(run, 30, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/renderer: replaced' });
    assert.match(reasons, /no schedulable node for a replacement pod: its node selector, node affinity or tolerations let it run on worker-3 only, none of which takes new pods now: it stays Pending\./);
    assert.doesNotMatch(reasons, /until/);
    assert.equal(readyAt(7200), 0);
  });

  it('is bound when it is scheduled: a node that takes new pods again during the start it would have had serves it only a start later', () => {
    // Pending from 30 s; worker-3 is back at 150 s; 1,200 s to start from there: serving at 1,350 s, not at 30 + 1,200.
    const run = runOf(workload('billing', { 'worker-3': 1 }, { eligibleNodes: ['worker-3'], startSeconds: 1200 }), undefined, [kubectlDrain('worker-3', 0, { upgrade: true, uncordonAt: 150 })]);
    const slot = awaitingReplacement(run.slots[0]);
    const { readyAt } = play(run, 30, { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/billing: replaced' });
    assert.equal(readyAt(1349), 0);
    assert.equal(readyAt(1350), 1);
  });

  it('is counted where it is bound while it starts: two replacements scheduled at one moment go to two nodes', () => {
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, { eligibleNodes: ['worker-1', 'worker-2'], replicas: 2 }));
    run.slots.forEach(awaitingReplacement);
    play(run, 60, (r) => {
      emit(r, 60, { kind: 'replacement-scheduled', slot: r.slots[0], generation: 1, why: 'replaced' });
      return { kind: 'replacement-scheduled', slot: r.slots[1], generation: 1, why: 'replaced' };
    });
    assert.deepEqual(run.slots.map((s) => s.node).sort(), ['worker-1', 'worker-2']);
  });

  it('follows the node it is bound to: a node that fails while it starts takes it along, and it does not serve at the end of its start', () => {
    const reboot: Scenario = { fail: { kind: 'none' }, duration: 0, events: [{ kind: 'node-reboot', node: 'worker-3', at: 40 }] };
    const run = runOf(workload('renderer', { 'worker-3': 1 }, { eligibleNodes: ['worker-3'], startSeconds: 600 }), reboot);
    const slot = awaitingReplacement(run.slots[0]);
    const { readyAt } = play(run, 30, (r) => {
      for (const incident of r.ctx.incidents) emit(r, incident.at, { kind: 'node-down', incident });
      return { kind: 'replacement-scheduled', slot, generation: 1, why: 'Deployment shop/renderer: replaced' };
    });
    assert.equal(readyAt(630), 0, 'not serving when the start begun at 30 s would have ended');
    assert.equal(slot.node, 'worker-3');
    assert.notEqual(slot.generation, 1, 'the node going down ended the incarnation that was starting');
  });

  it('marks the eviction it replaces as served again', () => {
    const run = runOf(workload('web', { 'worker-1': 1 }));
    const slot = run.slots[0];
    slot.alive = false;
    slot.generation = 3;
    run.evictions.push({ drain: kubectlDrain('worker-1'), at: 0, terminatedAt: 30, sessionsCut: false, slot: slot.id });
    play(run, 1200, { kind: 'replacement-ready', slot, generation: 3, why: 'replaced' });
    assert.equal(run.evictions[0].replacementReady, 1200);
  });

  it('leaves the eviction unserved when the replacement never comes up (its liveness probe kills it before its start ends)', () => {
    const liveness30 = { seconds: 30, probe: 'liveness', container: 'app', formula: 'initialDelaySeconds 0 + 3 × 10 s' } as const;
    const run = runOf(workload('billing', { 'worker-1': 1 }, { startSeconds: 1200, startBudget: liveness30 }));
    const slot = run.slots[0];
    slot.alive = false;
    slot.generation = 3;
    run.evictions.push({ drain: kubectlDrain('worker-1'), at: 0, terminatedAt: 30, sessionsCut: false, slot: slot.id });
    const { readyAt, reasons } = play(run, 30, { kind: 'replacement-ready', slot, generation: 3, why: 'replaced' });
    assert.equal(readyAt(7000), 0);
    assert.match(reasons, /never serves/);
    assert.equal(run.evictions[0].replacementReady, undefined);
  });
});
