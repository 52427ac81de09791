import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ControlPlaneTimeline } from '../../server/src/simulate/control-plane';
import type { SimNode, SimTopology } from '../../server/src/simulate/model';
import { nodeIncidents } from '../../server/src/simulate/node-incidents';
import { holdReason, NoExecuteTaints } from '../../server/src/simulate/no-execute-taints';
import { simulate } from '../../server/src/simulate/simulate';
import type { Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { capacityAt, eventsAbout } from './expect';
import { cluster, workload } from './fixtures';

/** One control plane (zone b) and workers, the first `inZoneA` of them in zone a and the rest in zone b. */
function zoned(workers: number, inZoneA: number, extra: Partial<SimTopology> = {}): SimTopology {
  const topology = cluster({ workers });
  const nodes: SimNode[] = topology.nodes.map((n) => ({ ...n, zone: n.name.startsWith('worker-') && Number(n.name.slice(7)) <= inZoneA ? 'a' : 'b' }));
  return { ...topology, ...extra, nodes };
}

const lost = (...nodes: string[]): ScenarioEvent[] => nodes.map((node) => ({ kind: 'node-lost', node, at: 60 }));
/** A healthy control plane: only the events happen. */
const healthy = (events: ScenarioEvent[]): Scenario => ({ fail: { kind: 'apiserver' }, duration: 0, events });

function taintsOf(topology: SimTopology, scenario: Scenario) {
  const cp = new ControlPlaneTimeline(topology, scenario);
  const taints = new NoExecuteTaints(topology, cp, nodeIncidents(scenario));
  return { taints, evictionAt: (node: string, from: number, toleration = 300) => taints.evictionAt(node, from, toleration) };
}

describe('the node controller taints NotReady nodes zone by zone', () => {
  it('taints the nodes of a zone that keeps most of its nodes one every 10 s: their pods go a toleration after each taint', () => {
    const { evictionAt, taints } = taintsOf(zoned(6, 5), healthy(lost('worker-1', 'worker-2')));
    assert.equal(evictionAt('worker-1', 110), 410, 'NotReady at 60 + 50 s, tainted then, evicted 300 s later');
    assert.equal(evictionAt('worker-2', 110, 30), 150, 'tainted 10 s later; a pod tolerating the taint 30 s');
    assert.equal(taints.taintedAt('worker-2', 110), 120);
    assert.deepEqual(taints.allHolds(), [], 'waiting its turn is not a disruption to tell');
  });

  it('serves the queue first come, first served', () => {
    const events: ScenarioEvent[] = [{ kind: 'node-lost', node: 'worker-2', at: 60 }, { kind: 'node-lost', node: 'worker-1', at: 61 }];
    const { taints } = taintsOf(zoned(6, 5), healthy(events));
    assert.deepEqual([taints.taintedAt('worker-2', 0), taints.taintedAt('worker-1', 0)], [110, 120]);
  });

  it('adds no taint in a zone of 50 nodes or fewer with more than 2 and 55 % or more of its nodes NotReady: the pods there stay, not replaced', () => {
    const topology = zoned(6, 5);
    const scenario = healthy(lost('worker-1', 'worker-2', 'worker-3'));
    const { evictionAt, taints } = taintsOf(topology, scenario);
    for (const node of ['worker-1', 'worker-2', 'worker-3']) assert.equal(evictionAt(node, 110), Infinity, node);
    const hold = taints.holdFrom('worker-1', 110)!;
    assert.equal(hold.at, 110);
    assert.equal(hold.until, Infinity);
    assert.equal(holdReason(hold), 'zone a is partially disrupted (3 of its 5 nodes NotReady: more than 2, and 55 % or more), where, in a zone of 50 nodes or fewer, the node controller adds no NoExecute taint');

    const web = workload('web', { 'worker-1': 1, 'worker-2': 1, 'worker-4': 1 });
    const result = simulate(topology, [web], scenario);
    assert.equal(capacityAt(result, 'web', 110).ready, 1);
    assert.equal(capacityAt(result, 'web', result.end!).ready, 1, 'nothing replaces the pods bound to the lost nodes');
    const told = eventsAbout(result, 'web').find((e) => e.at === 110 && /stays bound/.test(e.reason))!;
    assert.match(told.reason, /its pod on NotReady worker-1 stays bound there, not evicted and not replaced: zone a is partially disrupted/);
    assert.match(told.fact, /rule 14: the node controller taints one node of a zone every 10 s; none in a zone partially down/);
    const row = eventsAbout(result, 'worker-3').find((e) => e.at === 110)!;
    assert.equal(row.state, 'down');
    assert.match(row.reason, /^worker-3 is NotReady, but zone a is partially disrupted .*: its pods stay bound to it$/);

    const two = simulate(topology, [web], healthy(lost('worker-1', 'worker-2')));
    assert.equal(capacityAt(two, 'web', two.end!).ready, 3, 'with 2 of 5 NotReady the pods are evicted and replaced');
  });

  it('counts a zone partially disrupted from 55 % of its nodes, and stops tainting in it up to 50 nodes', () => {
    const down = (workers: number, inZoneA: number, count: number) => taintsOf(zoned(workers, inZoneA), healthy(lost(...Array.from({ length: count }, (_, i) => `worker-${i + 1}`))));
    assert.equal(down(21, 20, 11).evictionAt('worker-1', 110), Infinity, '11 of 20: 55 %');
    assert.equal(down(21, 20, 10).evictionAt('worker-1', 110), 410, '10 of 20: 50 %');
    assert.equal(down(51, 50, 40).evictionAt('worker-1', 110), Infinity, 'a zone of 50 nodes');
    assert.equal(down(52, 51, 40).evictionAt('worker-1', 110), 410, 'a zone of 51 nodes: one every 100 s');
  });

  it('stops tainting once the zone is partially down, though nodes queued before it are waiting their turn', () => {
    const events: ScenarioEvent[] = ['worker-1', 'worker-2', 'worker-3'].map((node, i) => ({ kind: 'node-lost', node, at: 60 + [0, 2, 5][i] }));
    const { evictionAt } = taintsOf(zoned(6, 5), healthy(events));
    assert.deepEqual(['worker-1', 'worker-2', 'worker-3'].map((node) => evictionAt(node, 0)), [410, Infinity, Infinity], 'worker-2 waited for 120 s; at 115 s the zone is partially down');
  });

  it('taints the nodes still NotReady once the zone recovers, one every 10 s from 10 s later, and their pods go a toleration later', () => {
    const reboot: ScenarioEvent = { kind: 'node-reboot', node: 'worker-3', at: 60 };
    const scenario = healthy([...lost('worker-1', 'worker-2'), reboot]);
    const { evictionAt, taints } = taintsOf(zoned(6, 5), scenario);
    // worker-3 is up at 180 and its kubelet reports at 190: 2 of 5 NotReady, the zone's rate back from none.
    assert.deepEqual(taints.holdFrom('worker-1', 110), { at: 110, until: 190, cause: 'partial', zone: taints.holdFrom('worker-1', 110)!.zone, notReady: 3, size: 5 });
    assert.equal(taints.holdFrom('worker-3', 110)!.then, 'ready');
    assert.deepEqual([taints.taintedAt('worker-1', 110), taints.taintedAt('worker-2', 110)], [200, 210]);
    assert.equal(evictionAt('worker-1', 110), 500);

    const web = workload('web', { 'worker-1': 1, 'worker-4': 1 });
    const result = simulate(zoned(6, 5), [web], scenario);
    assert.match(eventsAbout(result, 'web').find((e) => e.at === 110 && /stays bound/.test(e.reason))!.reason, /stays bound there until the node controller taints it at 3 m 20 s/);
    const replaced = eventsAbout(result, 'web').find((e) => /was evicted/.test(e.reason))!;
    assert.equal(replaced.at, 530, 'evicted at 500, its replacement serving 30 s later');
    assert.match(replaced.reason, /its pod on worker-1 was evicted 300 s after the node's taint at 3 m 20 s \(default toleration\)/);
    assert.match(eventsAbout(result, 'worker-1').find((e) => e.at === 110)!.reason, /; it taints the node at 3 m 20 s, and the pods not tolerating it longer are evicted from then$/);
    assert.match(eventsAbout(result, 'worker-3').find((e) => e.at === 110)!.reason, /, until the node is Ready again at 3 m 10 s$/);
  });

  it('taints one node every 100 s in a zone of more than 50 nodes partially down', () => {
    const names = Array.from({ length: 40 }, (_, i) => `worker-${i + 1}`);
    const { evictionAt, taints } = taintsOf(zoned(70, 60), healthy(lost(...names)));
    const evictions = names.map((node) => evictionAt(node, 110)).sort((a, b) => a - b);
    assert.deepEqual(evictions.slice(0, 3), [410, 510, 610]);
    assert.equal(evictions.at(-1), 410 + 39 * 100);
    assert.equal(holdReason(taints.holdFrom('worker-2', 110)!), 'zone a is partially disrupted (40 of its 60 nodes NotReady: more than 2, and 55 % or more), where the node controller adds its NoExecute taint to one node every 1 m 40 s');
    assert.equal(taints.allHolds().find(([node]) => node === 'worker-40')![1].length, 1, 'one hold a node, though the count of NotReady nodes changes');
  });

  it('counts a zone wholly down as a healthy one: one node every 10 s', () => {
    const { evictionAt } = taintsOf(zoned(6, 3), healthy(lost('worker-1', 'worker-2', 'worker-3')));
    assert.deepEqual(['worker-1', 'worker-2', 'worker-3'].map((node) => evictionAt(node, 110)), [410, 420, 430]);
  });

  it('leaves nodes labelled node.kubernetes.io/exclude-disruption out of the zone counts, and taints them as the others', () => {
    const topology = zoned(6, 5);
    topology.nodes.find((n) => n.name === 'worker-3')!.labels['node.kubernetes.io/exclude-disruption'] = '';
    const { evictionAt } = taintsOf(topology, healthy(lost('worker-1', 'worker-2', 'worker-3')));
    assert.equal(evictionAt('worker-1', 110), 410, '2 of the 4 nodes counted');
    assert.equal(evictionAt('worker-3', 110), 430);
  });

  it('tells zones apart by region as well as by zone, the beta labels first as the node controller reads them', () => {
    const topology = zoned(6, 5);
    for (const node of topology.nodes) if (['worker-4', 'worker-5'].includes(node.name)) node.labels['topology.kubernetes.io/region'] = 'eu';
    // Zone a of no region holds worker-1, -2 and -3 alone: wholly down.
    assert.equal(taintsOf(topology, healthy(lost('worker-1', 'worker-2', 'worker-3'))).evictionAt('worker-1', 110), 410);
    const beta = zoned(6, 5);
    for (const node of beta.nodes) if (['worker-1', 'worker-2', 'worker-3'].includes(node.name)) node.labels['failure-domain.beta.kubernetes.io/zone'] = 'x';
    assert.equal(taintsOf(beta, healthy(lost('worker-1', 'worker-2', 'worker-3'))).evictionAt('worker-1', 110), 410, 'zone x: worker-1, -2 and -3, wholly down');
  });

  it('keeps the taint of a node tainted at the read when its zone is partially disrupted, and adds none to the others', () => {
    const topology = zoned(6, 5, { notReadyNodes: ['worker-1', 'worker-2', 'worker-3'], notReadyTaintedFor: { 'worker-1': 100 } });
    const { evictionAt, taints } = taintsOf(topology, healthy([]));
    assert.equal(evictionAt('worker-1', 0), 200);
    assert.equal(evictionAt('worker-2', 0), Infinity);
    assert.equal(taints.holdFrom('worker-2', 0)!.at, 0);
  });

  it('keeps a taint through a controller manager outage, its countdown started again at the manager\'s return', () => {
    const topology = zoned(6, 5, { notReadyNodes: ['worker-1'], notReadyTaintedFor: { 'worker-1': 100 } });
    const { evictionAt } = taintsOf(topology, { fail: { kind: 'controller-manager' }, duration: 600, events: [] });
    assert.equal(evictionAt('worker-1', 0), 900);
  });

  it('takes every taint off and adds none while every node is NotReady; once one is back, taints again zone by zone from 10 s later', () => {
    const all = ['cp-1', 'worker-1', 'worker-2', 'worker-3'];
    const topology = { ...cluster(), notReadyNodes: all, notReadyTaintedFor: { 'worker-1': 100 } };
    const reboot: ScenarioEvent = { kind: 'node-reboot', node: 'worker-3', at: 60 };
    const { evictionAt, taints } = taintsOf(topology, healthy([reboot]));
    assert.match(holdReason(taints.holdFrom('worker-1', 0)!), /^every node of the cluster is NotReady, which the node controller takes for a loss of its own connection \(master disruption mode\)/);
    // worker-3 reports again at 190: zone a (cp-1, worker-1) and zone b (worker-2) are wholly down, tainted at the normal rate.
    assert.deepEqual(['cp-1', 'worker-1', 'worker-2'].map((node) => taints.taintedAt(node, 0)), [200, 210, 200]);
    assert.equal(evictionAt('worker-1', 0), 510, 'its taint from before the read was taken off');
    assert.equal(evictionAt('worker-3', 0), Infinity);
    assert.equal(taintsOf(topology, healthy([])).evictionAt('worker-2', 0), Infinity);
  });
});
