// The three voluntary questions of the seed, as scenarios with their numbers: a 20-minute Tomcat,
// video calls during an autoscaler scale-down, and a GPU pool that should empty.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSeconds } from '../../server/src/simulate/format-time';
import type { SimTopology, SimWorkload } from '../../server/src/simulate/model';
import { validateSimulationResult } from '../../server/src/simulate/messages';
import { simulate } from '../../server/src/simulate/simulate';
import type { Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { capacityAt, componentAt, eventsAbout } from './expect';
import { cluster, workload } from './fixtures';

const watch = (events: ScenarioEvent[], duration = 3 * 3600): Scenario => ({ fail: { kind: 'none' }, duration, events });
const maxUnavailable1 = (pdb: string) => ({ pdb, budget: { field: 'maxUnavailable' as const, value: { kind: 'int' as const, value: 1 } } });
const minAvailable1 = (pdb: string) => ({ pdb, budget: { field: 'minAvailable' as const, value: { kind: 'int' as const, value: 1 } } });

/** The legacy billing app: Tomcat that needs 20 minutes to start, 3 replicas, one allowed down at a time. */
const tomcat = (placement: Record<string, number>): SimWorkload =>
  workload('billing', placement, { namespace: 'legacy', startSeconds: 1200, terminationGrace: 60, sessions: 'in-memory', disruptionBudget: maxUnavailable1('legacy/billing-pdb'), pdb: true });

describe('voluntary question 1: draining the node of a 20-minute Tomcat', () => {
  const result = simulate(cluster(), [tomcat({ 'worker-2': 2, 'worker-1': 1 })], watch([{ kind: 'drain', node: 'worker-2', at: 0 }]));
  const drain = result.drains![0];

  it('takes 21 minutes: the PDB lets one pod go, the second waits for the first replacement to start', () => {
    assert.deepEqual(drain, {
      node: 'worker-2',
      by: 'kubectl',
      start: 0,
      end: 1260,
      notRemovedBecause: null,
      blocked: [{ workload: 'legacy/billing', pdb: 'legacy/billing-pdb', from: 0, to: 1200, untilReady: true }],
      evicted: [
        { workload: 'legacy/billing', at: 0 },
        { workload: 'legacy/billing', at: 1200 },
      ],
    });
  });

  it('the drain waits on the first replacement, not on a budget that allows none: no finding of pdb-blocks-eviction is cited (check reports none)', () => {
    const node = result.timeline.find((e) => e.subject.type === 'node' && /blocked/.test(e.reason))!;
    assert.match(node.reason, /the PodDisruptionBudget legacy\/billing-pdb of legacy\/billing allows no disruption while a pod of it is not ready until 20 m/);
    assert.doesNotMatch(node.reason, /pdb-blocks-eviction/);
  });

  it('serves at 2/3 for 20 minutes after each eviction, and whole again at 40 minutes', () => {
    assert.equal(capacityAt(result, 'billing', 0).ready, 2);
    assert.equal(capacityAt(result, 'billing', 1199).ready, 2);
    assert.equal(capacityAt(result, 'billing', 1200).ready, 2, 'the first replacement serves as the second pod goes');
    assert.equal(capacityAt(result, 'billing', 2399).ready, 2);
    assert.equal(capacityAt(result, 'billing', 2400).ready, 3);
    for (const p of result.workloads[0].capacity) assert.ok(p.ready >= 2, `never below the PDB's 2 at ${p.at}`);
  });

  it('tells per pod when it was evicted, stopped and replaced, and that its in-memory sessions were cut', () => {
    assert.deepEqual(result.workloads[0].evictions, [
      { node: 'worker-2', at: 0, stopped: 60, replacementReady: 1200, sessionsCut: true },
      { node: 'worker-2', at: 1200, stopped: 1260, replacementReady: 2400, sessionsCut: true },
    ]);
    assert.ok(validateSimulationResult(JSON.parse(JSON.stringify(result))).ok, 'the webview accepts it');
  });

  it('says so in one paragraph, and cites the eviction and drain rules', () => {
    assert.match(result.summary![0], /^Draining worker-2 takes 21 m: legacy\/billing's PDB legacy\/billing-pdb lets one pod go at a time and each replacement needs 20 m to start; |^Draining worker-2 takes 21 m: legacy\/billing's PDB legacy\/billing-pdb lets one pod go at a time and each replacement needs 20 m to start/);
    const refused = eventsAbout(result, 'billing').find((e) => /refused/.test(e.reason))!;
    assert.match(refused.fact, /rule 15/);
    assert.match(refused.fact, /rule 16/);
    assert.match(refused.reason, /retries every 5 s/);
  });

  it('a rolling node upgrade takes each node in turn, billing at 2/3 from the first eviction until the last replacement serves', () => {
    const upgrade = simulate(cluster(), [tomcat({ 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 })], watch([{ kind: 'upgrade-nodes', at: 0 }], 4 * 3600));
    // worker-1's replacement is bound at once to worker-2 (as empty as worker-3, first by name), the next node
    // drained: that drain evicts it before it serves, and its own pod waits for the next replacement (20 m later).
    assert.deepEqual(upgrade.drains!.map((d) => [d.node, d.start, d.end]), [
      ['worker-1', 0, 60],
      ['worker-2', 180, 1440],
      ['worker-3', 1560, 2640],
    ]);
    assert.match(eventsAbout(upgrade, 'billing').map((e) => e.reason).join('\n'), /evicted its pod on worker-2 \(not ready yet\) for the node upgrade/);
    assert.equal(capacityAt(upgrade, 'billing', 100).ready, 2);
    assert.equal(capacityAt(upgrade, 'billing', 1200).ready, 2);
    assert.equal(capacityAt(upgrade, 'billing', 3779).ready, 2);
    assert.equal(capacityAt(upgrade, 'billing', 3780).ready, 3);
    assert.match(upgrade.summary!.join(' '), /rolling node upgrade of 3 workers takes/);
  });

  it('an upgrade that the simulated time cuts short is said to be cut short, not to stall', () => {
    const short = simulate(cluster(), [tomcat({ 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 })], watch([{ kind: 'upgrade-nodes', at: 0 }], 600));
    assert.match(short.summary!.join(' '), /The rolling node upgrade replaces 1 of 3 workers within the simulated 20 m: the upgrade of worker-2 is not done by then \(a longer --for shows whether it ever is\)\./);
    assert.doesNotMatch(short.summary!.join(' '), /stalls/);
  });
});

/** Live video calls of an hour; the pod keeps its calls for up to an hour when it is asked to stop. */
const videoBridge = () => workload('video-bridge', { 'worker-2': 2 }, { namespace: 'meet', sessions: 'in-memory', sessionSeconds: 3600, terminationGrace: 3600, replicas: 2 });

describe('voluntary question 2: live video calls while the autoscaler scales a node down', () => {
  const result = simulate(cluster(), [videoBridge()], watch([{ kind: 'scale-down', node: 'worker-2', at: 0 }]));

  it('evicts the bridges, lets them keep their calls until the 10-minute grace cap, then cuts them', () => {
    const drain = result.drains![0];
    assert.equal(drain.by, 'autoscaler');
    assert.equal(drain.end, 600);
    assert.equal(drain.notRemovedBecause, null);
    assert.equal(result.summary![0], 'Scaling worker-2 down takes 10 m: the 2 meet/video-bridge pods keep their sessions until 10 m, when the autoscaler\'s grace cap cuts them.');
    const cut = eventsAbout(result, 'video-bridge').find((e) => e.at === 600 && /sessions are cut/.test(e.reason));
    assert.ok(cut, 'the cut is told at 10 m');
  });

  it("a DaemonSet's pod goes with the node the autoscaler deleted: it runs on one node fewer, whole (it was counted 3/3 on a node gone)", () => {
    const agent = workload('node-agent', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { kind: 'DaemonSet', namespace: 'kube-system', fronted: false });
    const withAgent = simulate(cluster(), [videoBridge(), agent], watch([{ kind: 'scale-down', node: 'worker-2', at: 0 }]));
    assert.deepEqual(capacityAt(withAgent, 'node-agent', 599), { at: 0, ready: 3, desired: 3, blackholed: 0 });
    assert.deepEqual(capacityAt(withAgent, 'node-agent', 600), { at: 600, ready: 2, desired: 2, blackholed: 0 });
    assert.ok(eventsAbout(withAgent, 'node-agent').some((e) => e.at === 600 && /its pod on worker-2 goes with the node the autoscaler deleted; it runs on 2 nodes/.test(e.reason)));
  });

  it('with no grace period the bridges are killed at once, and that is told once, at the eviction', () => {
    const killed = simulate(cluster(), [{ ...videoBridge(), terminationGrace: 0 }], watch([{ kind: 'drain', node: 'worker-2', at: 0 }]));
    const told = eventsAbout(killed, 'video-bridge').filter((e) => /sessions/.test(e.reason));
    assert.deepEqual(told.map((e) => e.at), [0], told.map((e) => e.reason).join('\n'));
    assert.match(told[0].reason, /it is killed at once \(terminationGracePeriodSeconds: 0\); its in-memory sessions last 1 h, longer than 0 s: they are cut/);
    assert.doesNotMatch(told[0].reason, /grace period/);
  });

  it('with only the controller manager down, the autoscaler still scales the node down (it needs only the API): the bridges it evicts are replaced once the controller manager returns', () => {
    const result = simulate(cluster(), [videoBridge()], { fail: { kind: 'controller-manager' }, duration: 3600, events: [{ kind: 'scale-down', node: 'worker-2', at: 0 }] });
    assert.equal(result.drains![0].notRemovedBecause, null, 'it said: the cluster autoscaler needs the API and stops with it');
    assert.equal(capacityAt(result, 'video-bridge', 3599).ready, 0);
    assert.equal(capacityAt(result, 'video-bridge', 3600 + 30).ready, 2);
    assert.equal(componentAt(result, 'autoscaling', 0), 'degraded');
    assert.match(eventsAbout(result, 'autoscaling')[0].reason, /the HPA runs in the controller manager: replica counts are frozen; VPA and the cluster autoscaler need only the API/);
  });

  it('a kubectl drain honours the full hour instead: the calls end on their own', () => {
    const drained = simulate(cluster(), [videoBridge()], watch([{ kind: 'drain', node: 'worker-2', at: 0 }]));
    assert.equal(drained.drains![0].end, 3600, 'both bridges keep their calls the hour they last');
    assert.doesNotMatch(drained.summary![0], /cut/);
    assert.match(drained.summary![0], /the 2 meet\/video-bridge pods keep their sessions until they end \(at 1 h\)/);
  });
});

describe('voluntary question 3: a GPU pool that should empty', () => {
  const gpuCluster = () => {
    const topology = cluster();
    topology.nodes.push({ name: 'gpu-1', controlPlane: false, labels: { 'nvidia.com/gpu.present': 'true' }, taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }], capacity: { gpu: 4 } });
    return topology;
  };
  const renderer = (extra: Partial<SimWorkload> = {}) => workload('gpu-renderer', { 'gpu-1': 1 }, { namespace: 'render', eligibleNodes: ['gpu-1'], ...extra });

  it('the autoscaler leaves the GPU node while the renderer runs: no other node can take it', () => {
    const result = simulate(gpuCluster(), [renderer()], watch([{ kind: 'scale-down', node: 'gpu-1', at: 0 }]));
    const drain = result.drains![0];
    assert.equal(drain.end, null);
    assert.match(drain.notRemovedBecause!, /no other node can run render\/gpu-renderer's pod/);
    assert.deepEqual(drain.evicted, []);
    assert.match(result.summary![0], /^Scaling gpu-1 down does not happen: no other node can run/);
    assert.equal(capacityAt(result, 'gpu-renderer', 3600).ready, 1, 'nothing is evicted');
  });

  it('the autoscaler leaves the GPU node when the only other one is cordoned by a drain, NotReady or down: no usable node can take the renderer', () => {
    const twoGpus = () => {
      const topology = gpuCluster();
      topology.nodes.push({ name: 'gpu-2', controlPlane: false, labels: { 'nvidia.com/gpu.present': 'true' }, taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }], capacity: { gpu: 4 } });
      return topology;
    };
    const both = renderer({ eligibleNodes: ['gpu-1', 'gpu-2'] });
    const scaleDown = { kind: 'scale-down' as const, node: 'gpu-1', at: 60 };
    const refusal = (topology: SimTopology, events: ScenarioEvent[]) => simulate(topology, [both], watch([...events, scaleDown])).drains!.find((d) => d.node === 'gpu-1')!.notRemovedBecause;
    assert.equal(refusal(twoGpus(), []), null, 'gpu-2 can take it');
    assert.match(refusal(twoGpus(), [{ kind: 'drain', node: 'gpu-2', at: 0 }])!, /no other node can run render\/gpu-renderer's pod/);
    assert.match(refusal({ ...twoGpus(), notReadyNodes: ['gpu-2'] }, [])!, /no other node can run render\/gpu-renderer's pod/);
    assert.match(refusal(twoGpus(), [{ kind: 'node-lost', node: 'gpu-2', at: 30 }])!, /no other node can run render\/gpu-renderer's pod/);
  });

  it('the autoscaler leaves a node whose pod takes a host port every other node of the workload holds already', () => {
    const edge = workload('edge', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { hostPorts: [8443] });
    const result = simulate(cluster(), [edge], watch([{ kind: 'scale-down', node: 'worker-3', at: 0 }]));
    assert.match(result.drains![0].notRemovedBecause!, /no other node can run shop\/edge's pod: each runs one of its pods already, holding host port 8443 there/);
    assert.equal(capacityAt(result, 'edge', 3600).ready, 3, 'nothing is evicted');
  });

  it('the autoscaler does not pick a node whose pod\'s budget allows no disruption now, counting the pods not ready when read (it cordoned, was refused 2 min and gave up)', () => {
    const web = (notServing: SimWorkload['notServing']) => workload('web', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { pdb: true, disruptionBudget: maxUnavailable1('shop/web'), ...(notServing ? { notServing } : {}) });
    const refused = simulate(cluster(), [web([{ pod: 'web-2', node: 'worker-2', why: 'not-ready' }])], watch([{ kind: 'scale-down', node: 'worker-1', at: 0 }]));
    assert.equal(refused.drains![0].notRemovedBecause, 'the PodDisruptionBudget shop/web of shop/web allows no disruption (it needs 2 healthy and 2 are)');
    assert.equal(simulate(cluster(), [web(undefined)], watch([{ kind: 'scale-down', node: 'worker-1', at: 0 }])).drains![0].notRemovedBecause, null);
  });

  it('the autoscaler stops for unready nodes once the node controller has marked them NotReady, not while they still read Ready', () => {
    const lost = ['worker-1', 'worker-2', 'worker-3', 'worker-4'].map((node): ScenarioEvent => ({ kind: 'node-lost', node, at: 100 }));
    const halted = (at: number) => simulate(cluster({ workers: 6 }), [], watch([...lost, { kind: 'scale-down', node: 'worker-6', at }])).drains![0].notRemovedBecause;
    assert.equal(halted(140), null);
    assert.equal(halted(150), 'the cluster autoscaler stops all operations: 4 of 7 nodes are unready (more than 45 % and more than 3)');
  });

  it('a PDB that allows no disruption keeps the node too, and names the PDB', () => {
    const result = simulate(gpuCluster(), [renderer({ eligibleNodes: ['gpu-1', 'worker-1'], disruptionBudget: minAvailable1('render/gpu-renderer'), pdb: true })], watch([{ kind: 'scale-down', node: 'gpu-1', at: 0 }]));
    assert.match(result.drains![0].notRemovedBecause!, /PodDisruptionBudget render\/gpu-renderer of render\/gpu-renderer allows no disruption/);
  });

  it('kubectl drain of that node never finishes while the PDB allows nothing, and says which PDB', () => {
    const result = simulate(gpuCluster(), [renderer({ disruptionBudget: minAvailable1('render/gpu-renderer'), pdb: true })], watch([{ kind: 'drain', node: 'gpu-1', at: 0 }], 3600));
    const drain = result.drains![0];
    assert.equal(drain.end, null);
    assert.deepEqual(drain.blocked, [{ workload: 'render/gpu-renderer', pdb: 'render/gpu-renderer', from: 0, to: null, untilReady: false }]);
    assert.match(result.summary![0], /render\/gpu-renderer's PDB render\/gpu-renderer allows no eviction, so the drain never finishes/);
    const node = result.timeline.find((e) => e.subject.type === 'node' && /blocked/.test(e.reason))!;
    assert.match(node.reason, /pdb-blocks-eviction/);
  });

  it('two PDBs over its pods: the eviction API evicts none, whatever each allows; kubectl drain never finishes and the autoscaler keeps the node', () => {
    const twice = { ...maxUnavailable1('render/gpu-renderer'), others: ['render/second'] };
    const drained = simulate(gpuCluster(), [renderer({ disruptionBudget: twice, pdb: true })], watch([{ kind: 'drain', node: 'gpu-1', at: 0 }], 3600));
    assert.equal(drained.drains![0].end, null);
    assert.deepEqual(drained.drains![0].blocked, [{ workload: 'render/gpu-renderer', pdb: 'render/gpu-renderer and render/second', from: 0, to: null, untilReady: false }]);
    assert.match(drained.summary![0], /render\/gpu-renderer's PDBs render\/gpu-renderer and render\/second together allow no eviction, so the drain never finishes/);
    assert.match(drained.timeline.find((e) => e.subject.type === 'node' && /blocked/.test(e.reason))!.reason, /pdb-multiple/);
    const scaled = simulate(gpuCluster(), [renderer({ eligibleNodes: ['gpu-1', 'worker-1'], disruptionBudget: twice, pdb: true })], watch([{ kind: 'scale-down', node: 'gpu-1', at: 0 }]));
    assert.match(scaled.drains![0].notRemovedBecause!, /selected by 2 PodDisruptionBudgets, and the eviction API evicts no such pod/);
  });

  it('once the renderer can go, the pool empties and the renderer waits Pending for a GPU', () => {
    const result = simulate(gpuCluster(), [renderer({ kind: 'Job' })], watch([{ kind: 'drain', node: 'gpu-1', at: 0 }], 3600));
    assert.equal(result.drains![0].end, 30);
    assert.equal(capacityAt(result, 'gpu-renderer', 3600).ready, 0);
    assert.match(eventsAbout(result, 'gpu-renderer').map((e) => e.reason).join('\n'), /stays Pending/);
  });
});

describe('draining the node both CoreDNS replicas run on', () => {
  const coredns = (placement: Record<string, number>, extra: Partial<SimWorkload> = {}) => workload('coredns', placement, { namespace: 'kube-system', clusterDns: true, ...extra });
  const dnsStates = (result: ReturnType<typeof simulate>) => result.components.find((c) => c.name === 'dns')!.states;

  it('takes cluster DNS down until a replacement serves, and says why (it stayed ok: the DNS model followed node incidents only)', () => {
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns({ 'worker-1': 2 })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }]));
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'down' },
      { at: 30, state: 'ok' },
    ]);
    const down = result.timeline.find((e) => e.subject.type === 'component' && e.subject.name === 'dns' && e.state === 'down');
    assert.equal(down?.reason, '2 of 2 CoreDNS replicas evicted (the drain of worker-1): out of the kube-dns Service until their replacements serve; no replica answers: cluster and external names fail');
  });

  it('spread over two nodes, DNS is only degraded while the drained node\'s replica moves', () => {
    const result = simulate(cluster(), [coredns({ 'worker-1': 1, 'worker-2': 1 })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }]));
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'degraded' },
      { at: 30, state: 'ok' },
    ]);
  });

  it('a single replica (as k3s runs it) is counted in the singular', () => {
    const result = simulate(cluster({ coreDns: ['worker-1'] }), [coredns({ 'worker-1': 1 })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }]));
    const reasons = result.timeline.filter((e) => e.subject.type === 'component' && e.subject.name === 'dns').map((e) => e.reason);
    assert.match(reasons[0], /^1 of 1 CoreDNS replica evicted \(the drain of worker-1\)/);
    assert.equal(reasons[1], 'the 1 CoreDNS replica answers cluster names again');
  });

  it('losing the drained node later leaves DNS alone: its replicas run elsewhere by then', () => {
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns({ 'worker-1': 2 })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'node-lost', node: 'worker-1', at: 600 }]));
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'down' },
      { at: 30, state: 'ok' },
    ]);
  });

  it('losing the node a replica moved to takes that replica down with it, out of the kube-dns Service once the node is NotReady (DNS stayed ok: it followed the nodes of the cluster as read)', () => {
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns({ 'worker-1': 2 })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'node-lost', node: 'worker-2', at: 600 }]));
    const moved = eventsAbout(result, 'coredns').filter((e) => /the replacement runs on worker-2/.test(e.reason));
    assert.equal(moved.length, 1, 'one of the two replacements went to worker-2');
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'down' },
      { at: 30, state: 'ok' },
      { at: 600, state: 'degraded' },
      { at: 980, state: 'ok' },
    ]);
    const dns = result.timeline.filter((e) => e.subject.type === 'component' && e.subject.name === 'dns').map((e) => [e.at, e.reason]);
    assert.deepEqual(dns.slice(2, 4), [
      [600, '1 of 2 CoreDNS replicas gone (worker-2 was lost) and not back until the control plane restores them; meanwhile the kube-dns Service still sends them queries; 1 replica keeps answering'],
      [650, '1 of 2 CoreDNS replicas gone (worker-2 was lost) and out of the kube-dns Service since its node was marked NotReady, until it is replaced or back; 1 replica keeps answering'],
    ]);
    assert.equal(capacityAt(result, 'coredns', 980).ready, 2, 'the workload is whole again when DNS is');
  });

  it('a replica the drain moved away and that a second drain moves again follows each move', () => {
    const result = simulate(cluster({ coreDns: ['worker-1'] }), [coredns({ 'worker-1': 1 })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'drain', node: 'worker-2', at: 300 }, { kind: 'node-lost', node: 'worker-2', at: 900 }]));
    const states = dnsStates(result);
    assert.deepEqual(states.slice(0, 4), [
      { at: 0, state: 'down' },
      { at: 30, state: 'ok' },
      { at: 300, state: 'down' },
      { at: 330, state: 'ok' },
    ]);
    assert.equal(states.length, 4, `worker-2, lost after the replica left it, does not concern DNS: ${JSON.stringify(states)}`);
  });

  it('a replica the node controller replaced is followed too: losing the node it moved to takes it down again (DNS stayed ok)', () => {
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns({ 'worker-1': 1, 'worker-2': 1 })], watch([{ kind: 'node-lost', node: 'worker-1', at: 0 }, { kind: 'node-lost', node: 'worker-3', at: 1000 }]));
    assert.ok(eventsAbout(result, 'coredns').some((e) => e.at === 380 && /the replacement runs on worker-3/.test(e.reason)));
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'degraded' },
      { at: 380, state: 'ok' },
      { at: 1000, state: 'degraded' },
      { at: 1380, state: 'ok' },
    ]);
    assert.match(eventsAbout(result, 'dns').find((e) => e.at === 1000)!.reason, /^1 of 2 CoreDNS replicas gone \(worker-3 was lost\)/);
  });

  it('two workloads serving cluster DNS: a drain of the second one\'s node is its replica\'s, not the first one\'s', () => {
    const second = workload('kube-dns', { 'worker-2': 1 }, { namespace: 'kube-system', clusterDns: true });
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns({ 'worker-1': 1 }), second], watch([{ kind: 'drain', node: 'worker-2', at: 0 }, { kind: 'node-lost', node: 'worker-1', at: 600 }, { kind: 'node-lost', node: 'worker-3', at: 2000 }]));
    assert.match(eventsAbout(result, 'dns')[0].reason, /^1 of 2 CoreDNS replicas evicted \(the drain of worker-2\)/);
    assert.ok(eventsAbout(result, 'kube-dns').some((e) => e.at === 30 && /the replacement runs on worker-1/.test(e.reason)));
    assert.equal(result.components.find((c) => c.name === 'dns')!.states.find((s) => s.at === 600)?.state, 'down', 'both replicas run on worker-1 by then');
    for (const name of ['coredns', 'kube-dns']) assert.ok(eventsAbout(result, name).some((e) => e.at === 980 && /the replacement runs on worker-3/.test(e.reason)), name);
    assert.equal(result.components.find((c) => c.name === 'dns')!.states.find((s) => s.at === 2000)?.state, 'down', 'both moved to worker-3, each followed as its own replica');
  });

  it('a replica is back when the CoreDNS workload\'s replacement serves: after its own start, or never with no node to run on (DNS assumed 30 s and a node)', () => {
    const slow = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns({ 'worker-1': 1, 'worker-2': 1 }, { startSeconds: 120 })], watch([{ kind: 'node-lost', node: 'worker-1', at: 0 }]));
    assert.deepEqual(dnsStates(slow), [
      { at: 0, state: 'degraded' },
      { at: 470, state: 'ok' },
    ]);
    assert.equal(capacityAt(slow, 'coredns', 470).ready, 2, '50 s to NotReady, 300 s to the eviction, 120 s to start');
    const stranded = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns({ 'worker-1': 2 }, { eligibleNodes: ['worker-1'] })], watch([{ kind: 'node-lost', node: 'worker-1', at: 0 }]));
    assert.deepEqual(dnsStates(stranded), [{ at: 0, state: 'down' }]);
    assert.equal(capacityAt(stranded, 'coredns', 3600).ready, 0);
  });

  it('without a CoreDNS workload (its placement only), a replica on a lost node is assumed replaced 30 s after its eviction', () => {
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [], watch([{ kind: 'node-lost', node: 'worker-1', at: 0 }]));
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'degraded' },
      { at: 380, state: 'ok' },
    ]);
  });

  it('with a PDB that lets one go at a time, DNS is never down', () => {
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns({ 'worker-1': 2 }, { disruptionBudget: maxUnavailable1('kube-system/coredns'), pdb: true })], watch([{ kind: 'drain', node: 'worker-1', at: 0 }]));
    assert.ok(!dnsStates(result).some((s) => s.state === 'down'), JSON.stringify(dnsStates(result)));
  });
});

describe('a drain of a node that failed during the simulation', () => {
  const failed = (events: ScenarioEvent[], fail: Scenario['fail'] = { kind: 'nodes', nodes: ['worker-1'] }): Scenario => ({ fail, duration: 3600, events });
  const web = workload('web', { 'worker-1': 1, 'worker-2': 1 });
  const db = workload('db', { 'worker-1': 1 }, { kind: 'StatefulSet' });

  it('waits for the pods the node controller evicted there: they stay Terminating until the node\'s kubelet is back', () => {
    const result = simulate(cluster(), [web, db], failed([{ kind: 'drain', node: 'worker-1', at: 600 }]));
    assert.equal(capacityAt(result, 'web', 380).ready, 2, 'replaced after 50 s + 300 s, serving 30 s later, as without the drain');
    const back = 3600 + 10;
    assert.equal(result.drains![0].end, back, 'done once the kubelet reaches the API again and confirms their end');
    assert.match(result.summary![0], /^Draining worker-1 takes 50 m 10 s: it waits for 2 pods of shop\/web and shop\/db that stay Terminating on worker-1 until its kubelet is back/);
    assert.ok(eventsAbout(result, 'web').some((e) => e.at === 600 && e.reason.includes('its pod the node controller evicted is stuck stopping on worker-1, which is down')));
  });

  it('does not let a StatefulSet make its pod again before the old one is gone: it stays down until the node is back', () => {
    const result = simulate(cluster(), [web, db], failed([{ kind: 'drain', node: 'worker-1', at: 600 }]));
    assert.equal(capacityAt(result, 'db', 3609).ready, 0);
    assert.equal(capacityAt(result, 'db', 3610 + 30).ready, 1);
    assert.deepEqual(result.workloads.find((w) => w.name === 'db')!.evictions, [{ node: 'worker-1', at: 600, stopped: 3610, replacementReady: 3640, sessionsCut: false }]);
  });

  it('goes on retrying an eviction its PDB refused when the node then dies: the pod goes once the budget allows (its retries stopped with the node, the budget blocked for minutes)', () => {
    // Both nodes drained at 0: worker-2's pod waits for worker-1's replacement (ready at 30 s); worker-2 dies at 10 s.
    const api = workload('api', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { disruptionBudget: maxUnavailable1('shop/api'), pdb: true });
    const result = simulate(cluster(), [api], watch([{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'drain', node: 'worker-2', at: 0 }, { kind: 'node-lost', node: 'worker-2', at: 10 }], 1200));
    const fromWorker2 = result.workloads[0].evictions!.find((e) => e.node === 'worker-2')!;
    assert.ok(fromWorker2.at <= 35, `evicted at ${fromWorker2.at}`);
    assert.equal(capacityAt(result, 'api', fromWorker2.at + 30).ready, 3, 'its replacement serves 30 s later');
  });

  it('before the node controller\'s eviction, evicts the dead pods itself: replaced at once, while the drain still waits for them', () => {
    const result = simulate(cluster(), [web], failed([{ kind: 'drain', node: 'worker-1', at: 100 }]));
    assert.equal(capacityAt(result, 'web', 130).ready, 2);
    assert.equal(result.drains![0].end, 3610);
    assert.ok(eventsAbout(result, 'web').some((e) => e.at === 100 && e.reason.includes("kubectl drain evicted its pod on worker-1; it stays Terminating there (the down node's kubelet cannot confirm its end)")));
  });

  it('of a node lost for good never finishes', () => {
    const result = simulate(cluster(), [web], { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'node-lost', node: 'worker-1', at: 0 }, { kind: 'drain', node: 'worker-1', at: 600 }] });
    assert.equal(result.drains![0].end, null);
  });

  it('an upgrade, which drains each node before replacing it, still finishes', () => {
    const result = simulate(cluster(), [web], watch([{ kind: 'upgrade-nodes', at: 0 }], 7200));
    assert.ok(result.drains!.every((d) => d.end !== null), JSON.stringify(result.drains));
    // Pods that stop at once (no grace period): the node is replaced at the moment they are evicted, which is no failure of it.
    const quick = simulate(cluster(), [workload('quick', { 'worker-1': 1, 'worker-2': 1 }, { terminationGrace: 0 })], watch([{ kind: 'upgrade-nodes', at: 0 }], 7200));
    assert.ok(quick.drains!.every((d) => d.end === d.start), JSON.stringify(quick.drains));
  });
});

describe('draining the node of CoreDNS while the controller manager is down', () => {
  it('says the evicted replicas stay listed by the kube-dns Service (its endpoints frozen), not that they left it', () => {
    const coredns = workload('coredns', { 'worker-1': 2 }, { namespace: 'kube-system', clusterDns: true });
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns], { fail: { kind: 'controller-manager' }, duration: 1200, events: [{ kind: 'drain', node: 'worker-1', at: 60 }] });
    const down = result.timeline.find((e) => e.subject.type === 'component' && e.subject.name === 'dns' && e.state === 'down');
    assert.equal(down?.at, 60);
    assert.equal(down?.reason, '2 of 2 CoreDNS replicas evicted (the drain of worker-1): stopped, yet still listed by the kube-dns Service (its endpoints frozen without the controller manager), until their replacements serve; no replica answers: cluster and external names fail');
  });
});

describe('a drain of a node that failed, at the edges', () => {
  const web = workload('web', { 'worker-1': 1, 'worker-2': 1 });
  const failed = (events: ScenarioEvent[], duration = 3600): Scenario => ({ fail: { kind: 'nodes', nodes: ['worker-1'] }, duration, events });

  it('started at the very moment of the node controller\'s eviction (350 s), still waits for the evicted pod', () => {
    for (const at of [350, 355]) {
      const result = simulate(cluster(), [web], failed([{ kind: 'drain', node: 'worker-1', at }]));
      assert.equal(result.drains![0].end, 3610, `drain at ${at} s`);
      assert.match(result.summary![0], /it waits for a pod of shop\/web that stays Terminating on worker-1 until its kubelet is back/);
    }
  });

  it('of a node lost for good, gives a result the webview accepts: the pod never stopped (null)', () => {
    const result = simulate(cluster(), [web], { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'node-lost', node: 'worker-1', at: 0 }, { kind: 'drain', node: 'worker-1', at: 100 }] });
    assert.deepEqual(result.workloads[0].evictions!.map((e) => e.stopped), [null]);
    const checked = validateSimulationResult(JSON.parse(JSON.stringify(result)));
    assert.ok(checked.ok, checked.ok ? '' : checked.error);
  });

  it('once the node\'s kubelet is back, waits for nothing the node controller evicted there (their end is confirmed)', () => {
    const result = simulate(cluster(), [web], failed([{ kind: 'scale-down', node: 'worker-1', at: 2400 }, { kind: 'drain', node: 'worker-1', at: 2500 }], 1800));
    for (const drain of result.drains!) assert.ok(drain.end !== null && drain.end - drain.start <= 30, JSON.stringify(result.drains));
    assert.ok(!result.summary!.some((s) => /Terminating/.test(s)), result.summary!.join('\n'));
  });

  it('a node that reboots during an evicted pod\'s grace period ends it then, confirmed once its kubelet is back: a StatefulSet waits for that', () => {
    const db = workload('db', { 'worker-1': 1 }, { kind: 'StatefulSet' });
    const result = simulate(cluster(), [db], watch([{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'node-reboot', node: 'worker-1', at: 10 }], 3600));
    assert.equal(result.drains![0].end, 140, 'the reboot takes 120 s and the kubelet 10 s more to reach the API');
    assert.equal(capacityAt(result, 'db', 169).ready, 0);
    assert.equal(capacityAt(result, 'db', 170).ready, 1);
  });
});

describe('cluster DNS against what the CoreDNS workload does', () => {
  const dnsStates = (result: ReturnType<typeof simulate>) => result.components.find((c) => c.name === 'dns')!.states;
  const dnsReasons = (result: ReturnType<typeof simulate>) => result.timeline.filter((e) => e.subject.type === 'component' && e.subject.name === 'dns').map((e) => `${e.at} ${e.reason}`);

  it('replicas already out of the kube-dns Service (their node NotReady at the read) are not said to be still listed once a drain evicts them', () => {
    const coredns = workload('coredns', { 'worker-1': 2 }, { namespace: 'kube-system', clusterDns: true, notServing: [{ pod: 'coredns-a', node: 'worker-1', why: 'node-not-ready' }, { pod: 'coredns-b', node: 'worker-1', why: 'node-not-ready' }] });
    const topology = { ...cluster({ coreDns: ['worker-1', 'worker-1'] }), notReadyNodes: ['worker-1'] };
    const result = simulate(topology, [coredns], { fail: { kind: 'controller-manager' }, duration: 1200, events: [{ kind: 'drain', node: 'worker-1', at: 60 }] });
    const atDrain = dnsReasons(result).find((r) => r.startsWith('60 '));
    assert.ok(atDrain, dnsReasons(result).join('\n'));
    assert.match(atDrain, /evicted \(the drain of worker-1\): out of the kube-dns Service until their replacements serve/);
  });

  it('follows the CoreDNS workload\'s own toleration of an unreachable node: whole again when its replacements serve', () => {
    const coredns = workload('coredns', { 'worker-1': 2 }, { namespace: 'kube-system', clusterDns: true, nodeLossToleration: { 'node.kubernetes.io/unreachable': 30 } });
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-1'] }), [coredns], watch([{ kind: 'node-reboot', node: 'worker-1', at: 0 }], 3600));
    assert.equal(capacityAt(result, 'coredns', 110).ready, 2, 'evicted at 50 + 30 s, serving 30 s later');
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'down' },
      { at: 110, state: 'ok' },
    ]);
  });
});

describe('a drain of two pods with in-memory sessions that a budget lets go one at a time', () => {
  it('says when each loses its sessions, not the last one\'s moment for both', () => {
    const billing = workload('billing', { 'worker-1': 2, 'worker-2': 1 }, { sessions: 'in-memory', startSeconds: 1200, pdb: true, disruptionBudget: maxUnavailable1('shop/billing') });
    const result = simulate(cluster(), [billing], watch([{ kind: 'drain', node: 'worker-1', at: 0 }], 3 * 3600));
    const cuts = result.workloads[0].evictions!.filter((e) => e.sessionsCut).map((e) => e.stopped!);
    assert.equal(cuts.length, 2);
    assert.match(result.summary![0], new RegExp(`the 2 shop/billing pods lose their in-memory sessions at ${formatSeconds(cuts[0])} and ${formatSeconds(cuts[1])}\\.$`));
  });
});

describe('a node that fails while a pod evicted from it is stopping', () => {
  it('cuts the sessions it still held then, not when the kubelet later confirms the end', () => {
    const calls = workload('calls', { 'worker-1': 1, 'worker-2': 1 }, { sessions: 'in-memory', sessionSeconds: 60, terminationGrace: 120 });
    const result = simulate(cluster(), [calls], watch([{ kind: 'drain', node: 'worker-1', at: 0 }, { kind: 'node-reboot', node: 'worker-1', at: 10 }], 3600));
    assert.deepEqual(result.workloads[0].evictions!.map((e) => [e.stopped, e.sessionsCut]), [[140, true]]);
    assert.match(result.summary![0], /^Draining worker-1 takes 2 m 20 s: the shop\/calls pod loses its in-memory sessions at 10 s\.$/);
    // Said as a moment of the timeline when the drain starts later (it said "at 10 s" of a drain at 10 m).
    const later = simulate(cluster(), [calls], watch([{ kind: 'drain', node: 'worker-1', at: 600 }, { kind: 'node-reboot', node: 'worker-1', at: 610 }], 3600));
    assert.match(later.summary![0], /^Draining worker-1 takes 2 m 20 s: the shop\/calls pod loses its in-memory sessions at 10 m 10 s\.$/);
    assert.ok(eventsAbout(result, 'calls').some((e) => e.reason.includes('worker-1 fails at 10 s, before it stops: it dies then with its sessions, and is gone once the kubelet is back (2 m 20 s)')));
  });
});
