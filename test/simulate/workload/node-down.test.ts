// The node-down and pods-back handlers: what a node that stops does to the replicas on it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FACT } from '../../../server/src/simulate/facts';
import type { NodeIncident } from '../../../server/src/simulate/node-incidents';
import type { SimWorkload } from '../../../server/src/simulate/model';
import type { Scenario, TimelineEvent } from '../../../server/src/simulate/types';
import { simulate } from '../../../server/src/simulate/simulate';
import { cluster, workload } from '../fixtures';
import { HEALTHY, play, runOf } from './harness';
import type { SimulationResult } from '../../../server/src/simulate/types';

const componentStates = (result: SimulationResult, name: string) => result.components.find((c) => c.name === name)!.states;

const apiDown = (duration: number): Scenario => ({ fail: { kind: 'apiserver' }, duration, events: [] });
const incident = (kind: NodeIncident['kind'], at: number, backAt: number): NodeIncident => ({ node: 'worker-1', kind, at, backAt, what: `worker-1 ${kind}`, fact: FACT.nothingReplaced });

describe('node-down handler', () => {
  const cases = [
    { name: 'lost with a healthy control plane: evicted after grace + toleration, replaced 30 s later', scenario: HEALTHY, incident: incident('lost', 100, Infinity), expect: { at: [[100, 1], [100 + 50 + 300 + 30, 2]], says: /control plane notices after the 50 s grace period/ } },
    { name: 'lost while the API is down: nothing recreates it until the API returns, and the node is marked NotReady 50 s after the controller manager can watch it again', scenario: apiDown(3600), incident: incident('lost', 100, Infinity), expect: { at: [[100, 1], [3599, 1]], says: /nothing recreates it while the API is down[\s\S]*marked NotReady 50 s after the controller manager could watch it again/ } },
    { name: 'rebooted while the API is down: back only once the kubelet reached the API', scenario: apiDown(3600), incident: incident('reboot', 100, 220), expect: { at: [[221, 1], [3600 + 10, 2]], says: /worker-1 reboot: 1 pod/ } },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }), c.scenario, [], undefined, [c.incident]);
      const { readyAt, reasons } = play(run, c.incident.at, { kind: 'node-down', incident: c.incident });
      for (const [t, ready] of c.expect.at) assert.equal(readyAt(t), ready, `ready at ${t}`);
      assert.match(reasons, c.expect.says);
    });
  }

  it('waits the grace period the cluster\'s controller manager was read with (20 s here), not the default', () => {
    const scenario: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'node-lost', node: 'worker-1', at: 100 }] };
    const result = simulate({ ...cluster(), nodeMonitorGrace: 20 }, [workload('web', { 'worker-1': 1, 'worker-2': 1 })], scenario);
    const reasons = result.timeline.filter((e) => e.subject.name === 'web').map((e) => e.reason).join('\n');
    assert.match(reasons, /control plane notices after the 20 s grace period/);
    assert.equal(result.timeline.find((e) => e.subject.name === 'web' && e.state === 'ok' && e.at > 100)!.at, 100 + 20 + 300 + 30);
  });

  describe('a controller manager\'s leader lost with its control-plane node', () => {
    // cp-1 and worker-1 go together (one rack): the node controller that marks worker-1 NotReady must first hold the lease.
    const scenario: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'node-lost', node: 'cp-1', at: 100 }, { kind: 'node-lost', node: 'worker-1', at: 100 }] };
    const unlisted = (leaders: { controllerManager?: string } | undefined) => {
      const result = simulate({ ...cluster({ controlPlanes: 3 }), ...(leaders ? { leaders } : {}) }, [workload('web', { 'worker-1': 1, 'worker-2': 1 })], scenario);
      const dropped = result.timeline.find((e) => e.subject.name === 'web' && /marked NotReady/.test(e.reason))!;
      return { at: dropped.at, reason: dropped.reason, result };
    };

    it('delays marking nodes NotReady by the lease hand-over, counted afresh by the new leader', () => {
      const { at, reason } = unlisted({ controllerManager: 'cp-1' });
      assert.equal(at, 100 + 15 + 50);
      assert.match(reason, /worker-1 marked NotReady 50 s after a surviving controller manager took the lease over/);
    });

    it('does not when the leader\'s node survives', () => {
      assert.equal(unlisted({ controllerManager: 'cp-2' }).at, 100 + 50);
      assert.equal(componentStates(unlisted({ controllerManager: 'cp-2' }).result, 'controllers').some((s) => s.state === 'degraded'), false);
    });

    it('takes the lost node for the leader\'s when the leases were not read', () => {
      assert.equal(unlisted(undefined).at, 100 + 15 + 50);
    });
  });

  it('evicts after the pods\' own toleration of an unreachable node, when they set one (30 s: replaced at 50 + 30 + 30 s)', () => {
    const i = incident('lost', 0, Infinity);
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, { nodeLossToleration: { 'node.kubernetes.io/unreachable': 30 } }), undefined, [], undefined, [i]);
    const { readyAt, reasons } = play(run, 0, { kind: 'node-down', incident: i });
    assert.equal(readyAt(109), 1);
    assert.equal(readyAt(110), 2);
    assert.match(reasons, /its pod on worker-1 was evicted 30 s after NotReady \(its own toleration\)/);
  });

  it('never evicts pods that tolerate an unreachable node for ever (no tolerationSeconds), and says so', () => {
    const i = incident('lost', 0, Infinity);
    const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }, { nodeLossToleration: { 'node.kubernetes.io/unreachable': null } }), undefined, [], undefined, [i]);
    const { readyAt, reasons } = play(run, 0, { kind: 'node-down', incident: i });
    assert.equal(readyAt(7200), 1);
    assert.match(reasons, /its pods tolerate the NotReady node for ever \(a NoExecute toleration without tolerationSeconds\): its pod on worker-1 is not evicted, and nothing replaces it until the node is back/);
  });

  it('makes a StatefulSet\'s pod evicted from a failed node again once the node is back: a new pod the scheduler places, not a restart there', () => {
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: ['worker-2'] }, duration: 3600, events: [] };
    const result = simulate(cluster(), [workload('db', { 'worker-2': 1 }, { kind: 'StatefulSet' })], scenario);
    const back = result.timeline.find((e) => e.subject.name === 'db' && e.state === 'ok')!;
    assert.equal(back.at, 3600 + 10 + 30, 'its kubelet reports 10 s after the node is up, and the new pod serves 30 s after');
    assert.match(back.reason, /^StatefulSet shop\/db: worker-2 reached the API again and its kubelet confirmed the end of the pod evicted there, so the StatefulSet controller made it again; the replacement runs on worker-1\./);
    // Not evicted (the node is back before its toleration ran out): its kubelet restarts it in place.
    const short = simulate(cluster(), [workload('db', { 'worker-2': 1 }, { kind: 'StatefulSet' })], { ...scenario, duration: 200 });
    assert.match(short.timeline.find((e) => e.subject.name === 'db' && e.state === 'ok')!.reason, /its kubelet restarted StatefulSet shop\/db's pods there/);
  });

  it('says once that DaemonSet pods stay on the unreachable node, though it reboots during its failure', () => {
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: ['worker-1'] }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-1', at: 600 }] };
    const result = simulate(cluster(), [workload('log-agent', { 'worker-1': 1, 'worker-2': 1 }, { kind: 'DaemonSet' })], scenario);
    const told = result.timeline.filter((e) => e.reason.includes('DaemonSet pods tolerate an unreachable node'));
    assert.deepEqual(told.map((e) => e.at), [50], result.timeline.map((e) => `${e.at} ${e.reason}`).join('\n'));
  });

  it('tells of Services and endpoints only for a workload a Service selects (a node agent has none)', () => {
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: ['worker-1'] }, duration: 1800, events: [] };
    const told = (fronted: boolean) => {
      const result = simulate(cluster(), [workload('agent', { 'worker-1': 1, 'worker-2': 1 }, { kind: 'DaemonSet', fronted })], scenario);
      return aboutWorkloads(result.timeline);
    };
    const agent = told(false);
    assert.doesNotMatch(agent, /Service|endpoints|pod IPs/, agent);
    assert.match(agent, /reached the API again: its kubelet restarted DaemonSet shop\/agent's pods there\. Now/);
    assert.match(told(true), /pods there leave its Service[\s\S]*\(new pod IPs\)/);
    // The controller manager watched the node all along: counted from the kubelet's silence.
    assert.match(told(true), /worker-1 marked NotReady 50 s after its kubelet stopped reporting: DaemonSet shop\/agent's pods there leave its Service/);
  });

  it('does not say a frozen Service keeps the pods of a workload no Service selects, when the node comes back with the controllers down', () => {
    const scenario: Scenario = { fail: { kind: 'controller-manager' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-1', at: 60 }] };
    const told = (fronted: boolean) => aboutWorkloads(simulate(cluster(), [workload('batch', { 'worker-1': 1, 'worker-2': 1 }, { fronted })], scenario).timeline);
    assert.doesNotMatch(told(false), /frozen endpoints|Service/, told(false));
    assert.match(told(true), /frozen endpoints do not list/);
  });

  it('leaves replicas on other nodes alone', () => {
    const i = incident('lost', 0, Infinity);
    const run = runOf(workload('web', { 'worker-2': 2 }), undefined, [], undefined, [i]);
    const { capacity } = play(run, 0, { kind: 'node-down', incident: i });
    assert.ok(capacity.every((p) => p.ready === 2));
  });

  it('brings a static pod back from disk when the node returns, API or not', () => {
    const i = incident('reboot', 0, 120);
    const run = runOf(workload('etcd-proxy', { 'worker-1': 1 }, { kind: 'Pod', staticPod: true }), apiDown(3600), [], undefined, [i]);
    const { readyAt, reasons } = play(run, 0, { kind: 'node-down', incident: i });
    assert.equal(readyAt(119), 0);
    assert.equal(readyAt(120), 1);
    assert.match(reasons, /restarted static pod/);
  });
});

/** What the timeline says of workloads (the cluster's DNS and components have their own lines). */
function aboutWorkloads(timeline: readonly TimelineEvent[]): string {
  return timeline
    .filter((e) => e.subject.type === 'workload')
    .map((e) => e.reason)
    .join('\n');
}

describe('pods-back handler', () => {
  const cases = [
    { name: 'with the controllers running the new pod IP is listed at once', scenario: HEALTHY, blackholedAfter: 0, says: /\(new pod IPs\)/ },
    { name: 'with the controllers down the frozen endpoints keep the dead IP', scenario: { fail: { kind: 'controller-manager' }, duration: 3600, events: [] } as Scenario, blackholedAfter: 0.5, says: /frozen endpoints do not list/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('web', { 'worker-1': 1, 'worker-2': 1 }), c.scenario);
      const slot = run.slots[0];
      slot.alive = false;
      const { capacity, reasons } = play(run, 500, { kind: 'pods-back', slot, generation: slot.generation, incident: incident('reboot', 0, 120) });
      assert.equal(capacity.filter((p) => p.at <= 500).at(-1)!.blackholed, c.blackholedAfter);
      assert.match(reasons, c.says);
    });
  }

  it('with the controllers down, pods on the node\'s network (hostNetwork) are reached again at the IP the frozen endpoints list', () => {
    const frozen: Scenario = { fail: { kind: 'controller-manager' }, duration: 3600, events: [] };
    const back = (extra: Partial<SimWorkload>, kind: NodeIncident['kind'] = 'reboot') => {
      const run = runOf(workload('ingress', { 'worker-1': 1, 'worker-2': 1 }, extra), frozen);
      const slot = run.slots[0];
      slot.alive = false;
      return play(run, 500, { kind: 'pods-back', slot, generation: slot.generation, incident: incident(kind, 0, 120) });
    };
    const onHostNetwork = back({ hostNetwork: true });
    const at500 = onHostNetwork.capacity.filter((p) => p.at <= 500).at(-1)!;
    assert.deepEqual([at500.ready, at500.blackholed], [2, 0]);
    assert.match(onHostNetwork.reasons, /they use the node's network, so the IP the frozen endpoints list is theirs again/);
    // A fresh node in its place has another IP: nothing the frozen endpoints list.
    const onFreshNode = back({ hostNetwork: true }, 'replaced');
    assert.equal(onFreshNode.capacity.filter((p) => p.at <= 500).at(-1)!.blackholed, 0.5);
    assert.match(onFreshNode.reasons, /frozen endpoints do not list/);
  });

  it('with the controllers back only after the restarted pod became ready, does not then say it is not ready', () => {
    const scenario: Scenario = { fail: { kind: 'controller-manager' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-1', at: 600 }] };
    const told = aboutWorkloads(simulate(cluster(), [workload('billing', { 'worker-1': 1, 'worker-2': 1 }, { startSeconds: 300 })], scenario).timeline);
    assert.doesNotMatch(told, /are not ready: the endpoints drop their old IPs/, told);
    assert.match(told, /endpoints updated with the restarted pods/);
  });

  it('does nothing for a replica that was replaced meanwhile', () => {
    const run = runOf(workload('web', { 'worker-1': 1 }));
    const slot = run.slots[0];
    slot.alive = false;
    const { capacity } = play(run, 10, { kind: 'pods-back', slot, generation: slot.generation - 1, incident: incident('reboot', 0, 120) });
    assert.ok(capacity.every((p) => p.ready === 0));
  });
});
