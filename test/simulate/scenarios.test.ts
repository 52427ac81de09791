// The nine scenarios of SIMULATION.md, each as the facts its timeline must show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulate } from '../../server/src/simulate/simulate';
import type { Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { capacity, capacityAt, componentAt, eventsAbout, servesThroughout } from './expect';
import { cluster, workload } from './fixtures';

const TWO_HOURS = 7200;
const apiserverDown = (events: ScenarioEvent[] = [], duration = TWO_HOURS): Scenario => ({ fail: { kind: 'apiserver' }, duration, events });

const shop = () => [
  workload('api', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }),
  workload('cart', { 'worker-2': 1 }),
  workload('web', { 'worker-1': 1, 'worker-3': 1 }, { hpa: { min: 2, max: 10 } }),
];

describe('scenario 1: one control plane, API server down for 2 h, nothing else', () => {
  const result = simulate(cluster(), shop(), apiserverDown());

  it('keeps every workload serving throughout', () => {
    for (const name of ['api', 'cart', 'web']) assert.ok(servesThroughout(result, name), `${name} should serve throughout`);
  });

  it('takes scheduling, controllers, autoscaling and kubectl down at 0 and brings them back at 2 h', () => {
    for (const name of ['api', 'scheduling', 'controllers', 'autoscaling', 'kubectl'] as const) {
      assert.equal(componentAt(result, name, 0), 'down', name);
      assert.equal(componentAt(result, name, TWO_HOURS - 1), 'down', name);
      assert.equal(componentAt(result, name, TWO_HOURS), 'ok', name);
    }
    assert.equal(componentAt(result, 'etcd', 0), 'ok');
    assert.equal(componentAt(result, 'dns', 3600), 'ok');
    assert.equal(componentAt(result, 'service-routing', 0), 'degraded');
  });

  it('says why DNS holds and cites the rule', () => {
    const dns = eventsAbout(result, 'dns').find((e) => e.at === 0)!;
    assert.match(dns.reason, /informer cache/);
    assert.match(dns.reason, /response-cache expiry does not break DNS/);
    assert.match(dns.fact, /rule 8/);
  });

  it('tells that by 80 % of the TTL every token has missed its refresh, and what that does with and without the extended expiry', () => {
    const token = result.timeline.find((e) => /projected service-account token has missed/.test(e.reason))!;
    assert.equal(token.at, 2886);
    assert.match(token.fact, /rule 12/);
    // Refreshed at their own moments before the outage: not all at 48 m (it said so), and custom-audience ones keep their own TTL.
    assert.match(token.reason, /by now every projected service-account token has missed its refresh .* the first were missed as the outage began/);
    assert.match(token.reason, /tokens expire 12–60 m into the outage .* custom-audience tokens \(cloud IAM\) are never extended and expire on their own TTL/);
  });

  it('tells when the first tokens expire where expiry is not extended: 12 m into the outage, before every token has missed its refresh', () => {
    const first = result.timeline.find((e) => /first projected service-account tokens expire now/.test(e.reason))!;
    assert.equal(first.at, 3607 - 2886);
    assert.match(first.reason, /^where the API servers do not extend token expiry \(CIS-hardened\), .* every token has expired 1 h 7 s into the outage; with the default extended expiry nothing happens yet$/);
    const short = simulate(cluster(), shop(), apiserverDown([], 700));
    assert.ok(!short.timeline.some((e) => /tokens expire now/.test(e.reason)), 'an outage shorter than 12 m expires none');
  });
});

describe('scenario 2: as 1, plus worker-2 reboots at 10 m', () => {
  const result = simulate(cluster(), shop(), apiserverDown([{ kind: 'node-reboot', node: 'worker-2', at: 600 }]));

  it('loses the pods on worker-2 from 600 s until the API returns', () => {
    assert.deepEqual(capacityAt(result, 'api', 599), { at: 0, ready: 3, desired: 3, blackholed: 0 });
    assert.equal(capacityAt(result, 'api', 600).ready, 2);
    assert.equal(capacityAt(result, 'api', TWO_HOURS).ready, 2, 'still gone when the API returns: the kubelet needs it to restart them');
    assert.equal(capacityAt(result, 'api', TWO_HOURS + 10).ready, 3, 'back once the kubelet reached the API');
  });

  it('a node rebooted and then lost, or rebooted twice, before its kubelet reached the API is told back once, or never', () => {
    const nodeEvents = (events: ScenarioEvent[]) => eventsAbout(simulate(cluster(), shop(), apiserverDown(events)), 'worker-2').map((e) => `${e.at} ${e.state}`);
    assert.deepEqual(nodeEvents([{ kind: 'node-reboot', node: 'worker-2', at: 600 }, { kind: 'node-lost', node: 'worker-2', at: 1200 }]), ['600 down', '720 degraded', '1200 down']);
    assert.deepEqual(nodeEvents([{ kind: 'node-reboot', node: 'worker-2', at: 600 }, { kind: 'node-reboot', node: 'worker-2', at: 1200 }]), ['600 down', '720 degraded', '1200 down', '1320 degraded', `${TWO_HOURS + 10} ok`]);
  });

  it('takes the 1-replica workload that ran there down', () => {
    const cart = capacityAt(result, 'cart', 600);
    assert.equal(cart.ready, 0);
    const down = eventsAbout(result, 'cart').find((e) => e.state === 'down')!;
    assert.equal(down.at, 600);
    assert.match(down.reason, /worker-2 rebooted/);
    assert.match(down.reason, /nothing recreates it while the API is down/);
  });

  it('degrades DNS: the CoreDNS replica on worker-2 still gets queries, the other answers from a frozen cache', () => {
    const dns = eventsAbout(result, 'dns').find((e) => e.at === 600)!;
    assert.equal(dns.state, 'degraded');
    assert.match(dns.reason, /^1 of 2 CoreDNS replicas gone \(worker-2 rebooted[^)]*\) and not back until the control plane restores them; meanwhile the kube-dns Service still sends them queries; 1 replica keeps answering from the informer cache \(frozen: no new Services\)/);
  });

  it('keeps sending the dead pods their share of traffic: k/N blackholed', () => {
    assert.equal(capacityAt(result, 'api', 600).blackholed, 0.333);
    assert.equal(capacityAt(result, 'api', 3600).blackholed, 0.333);
    assert.equal(capacityAt(result, 'cart', 600).blackholed, 1);
    assert.ok(servesThroughout(result, 'web'), 'web has no pod on worker-2');
  });

  it('says the rebooted node serves nothing even once up', () => {
    const node = eventsAbout(result, 'worker-2');
    assert.deepEqual(node.map((e) => [e.at, e.state]), [[600, 'down'], [720, 'degraded'], [TWO_HOURS + 10, 'ok']]);
    assert.match(node[1].reason, /only static pods start/);
    assert.match(node[1].fact, /rule 7/);
  });
});

describe('scenario 3: three control planes, one control-plane node lost', () => {
  const result = simulate(cluster({ controlPlanes: 3 }), shop(), { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: TWO_HOURS, events: [] });

  it('keeps etcd quorum with 2 of 3 members', () => {
    assert.equal(componentAt(result, 'etcd', 0), 'degraded');
    assert.match(eventsAbout(result, 'etcd')[0].reason, /2 of 3 members up, quorum needs 2/);
    assert.notEqual(componentAt(result, 'api', 0), 'down');
    assert.equal(componentAt(result, 'kubectl', 0), 'ok');
  });

  it('moves the leader leases within ~15 s', () => {
    assert.equal(componentAt(result, 'scheduling', 0), 'degraded');
    assert.equal(componentAt(result, 'controllers', 14), 'degraded');
    assert.equal(componentAt(result, 'scheduling', 15), 'ok');
    assert.equal(componentAt(result, 'controllers', 15), 'ok');
  });

  it('says nothing more of scheduling and the controllers once the leases have moved: cp-1 coming back does not bring them "back"', () => {
    for (const name of ['scheduling', 'controllers']) {
      const told = eventsAbout(result, name).map((e) => [e.at, e.state]);
      assert.deepEqual(told, [[0, 'degraded'], [15, 'ok']], `${name}: ${eventsAbout(result, name).map((e) => `${e.at} ${e.reason}`).join('; ')}`);
    }
    assert.ok(eventsAbout(result, 'api').some((e) => e.at === TWO_HOURS && e.state === 'ok'), 'the API is whole again when cp-1 is back');
  });

  it('has no workload impact', () => {
    for (const name of ['api', 'cart', 'web']) assert.ok(servesThroughout(result, name), name);
  });
});

describe('scenario 4: three control planes, two control-plane nodes lost', () => {
  const result = simulate(cluster({ controlPlanes: 3 }), shop(), { fail: { kind: 'nodes', nodes: ['cp-1', 'cp-2'] }, duration: TWO_HOURS, events: [] });

  it('loses quorum: the API is down as in scenario 1', () => {
    assert.equal(componentAt(result, 'etcd', 0), 'down');
    assert.match(eventsAbout(result, 'etcd')[0].reason, /1 of 3 members up, quorum needs 2/);
    for (const name of ['api', 'scheduling', 'controllers', 'kubectl'] as const) assert.equal(componentAt(result, name, 60), 'down', name);
    for (const name of ['api', 'cart', 'web']) assert.ok(servesThroughout(result, name), name);
  });

  it('matches scenario 1 minute by minute for the workloads', () => {
    const one = simulate(cluster(), shop(), apiserverDown());
    assert.deepEqual(result.workloads.map((w) => w.capacity), one.workloads.map((w) => w.capacity));
  });
});

describe('scenario 5: as 1, plus traffic ×3 on an HPA workload at 5 m', () => {
  const surge: ScenarioEvent = { kind: 'traffic-surge', namespace: 'shop', workload: 'web', factor: 3, at: 300 };

  it('does not scale out and is degraded from 5 m', () => {
    const result = simulate(cluster(), shop(), apiserverDown([surge]));
    assert.equal(capacityAt(result, 'web', 300).desired, 2, 'the HPA is frozen');
    assert.equal(capacityAt(result, 'web', 300).load, 3);
    const hit = eventsAbout(result, 'web').find((e) => e.at === 300)!;
    assert.equal(hit.state, 'degraded');
    assert.match(hit.reason, /HPA is frozen/);
    assert.match(hit.fact, /rule 10/);
  });

  it('writes the capacity after the reason as a sentence of its own: no lower-case word after a full stop', () => {
    const result = simulate(cluster(), shop(), apiserverDown([surge]));
    const reasons = eventsAbout(result, 'web').map((e) => e.reason);
    assert.ok(reasons.some((r) => /HPA is frozen.*\. Serving 2\/2/.test(r)), reasons.join('\n'));
    for (const reason of reasons) assert.doesNotMatch(reason, /\. [a-z]/);
  });

  it('with memory limits: OOM kills restarted in place, capacity dips and returns', () => {
    const result = simulate(cluster(), shop(), apiserverDown([surge]));
    const web = capacity(result, 'web').filter((p) => p.at > 300 && p.at < TWO_HOURS);
    assert.ok(web.some((p) => p.ready === 0), 'OOM-killed containers stop serving');
    assert.ok(web.some((p) => p.ready === 2 && p.at > 400), 'and come back in place');
    assert.ok(result.timeline.some((e) => e.subject.name === 'web' && /OOM-killed/.test(e.reason)));
  });

  it('scales out once the HPA acts: at once with a working controller manager, after recovery otherwise', () => {
    const healthy = simulate(cluster(), shop(), { fail: { kind: 'scheduler' }, duration: 0, events: [surge] });
    assert.deepEqual(capacityAt(healthy, 'web', 300 + 15 + 30), { at: 345, ready: 6, desired: 6, blackholed: 0 });
    const frozen = simulate(cluster(), shop(), apiserverDown([surge]));
    const after = capacityAt(frozen, 'web', TWO_HOURS + 15 + 30);
    assert.equal(after.desired, 6);
    assert.equal(after.load, undefined, 'six pods carry the tripled traffic');
    const unscheduled = simulate(cluster(), shop(), { fail: { kind: 'scheduler' }, duration: 3600, events: [surge] });
    assert.equal(capacityAt(unscheduled, 'web', 1800).desired, 2, 'the HPA asks, but no scheduler binds the new pods');
    assert.equal(capacityAt(unscheduled, 'web', 3600 + 30).desired, 6);
  });

  it('without memory limits: evicted for good under node pressure, neighbours at risk', () => {
    const workloads = shop().map((w) => (w.name === 'web' ? { ...w, memoryLimit: false, pdb: true } : w));
    const result = simulate(cluster(), workloads, apiserverDown([surge]));
    assert.equal(capacityAt(result, 'web', 360).ready, 0);
    assert.ok(eventsAbout(result, 'web').some((e) => e.at === 360 && /node-pressure eviction ignores PDBs/.test(e.reason)));
    assert.equal(capacityAt(result, 'web', 3600).ready, 0, 'nothing replaces evicted pods while the API is down');
    assert.ok(capacityAt(result, 'web', TWO_HOURS + 60).ready > 0, 'replaced after recovery');
    assert.ok(eventsAbout(result, 'api').some((e) => /at risk/.test(e.reason) && e.at === 360), 'api shares worker-1 and worker-3');
  });
});

describe('scenario 6: one control plane, CoreDNS only on it, control-plane node lost', () => {
  const result = simulate(cluster({ coreDns: ['cp-1', 'cp-1'] }), shop(), { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: TWO_HOURS, events: [] });

  it('takes cluster DNS down at 0', () => {
    assert.equal(componentAt(result, 'dns', 0), 'down');
    const dns = eventsAbout(result, 'dns').find((e) => e.at === 0)!;
    assert.match(dns.reason, /2 of 2 CoreDNS replicas gone \(cp-1 failed\)/);
    assert.match(dns.reason, /cluster and external names fail/);
  });

  it('brings DNS back once the node and the API are back', () => {
    assert.equal(componentAt(result, 'dns', TWO_HOURS + 10), 'ok');
  });
});

describe('scenario 7: as 1, CoreDNS on workers, CoreDNS restarts at 20 m', () => {
  const result = simulate(cluster(), shop(), apiserverDown([{ kind: 'coredns-restart', at: 1200 }]));

  it('keeps DNS up until the restart, then down from 20 m + 5 s', () => {
    assert.equal(componentAt(result, 'dns', 1199), 'ok');
    assert.equal(componentAt(result, 'dns', 1200), 'degraded');
    assert.equal(componentAt(result, 'dns', 1205), 'down');
    assert.equal(componentAt(result, 'dns', TWO_HOURS + 10), 'ok');
  });

  it('still resolves external names', () => {
    const down = eventsAbout(result, 'dns').find((e) => e.state === 'down')!;
    assert.equal(down.at, 1205);
    assert.match(down.reason, /SERVFAIL for every cluster name, external names still resolve/);
  });

  it('says nothing of a restart with the API up: the API is down here', () => {
    assert.ok(!result.timeline.some((e) => /with the API up/.test(e.reason)));
  });

  it('is harmless while the API is up', () => {
    const calm = simulate(cluster(), shop(), { fail: { kind: 'scheduler' }, duration: TWO_HOURS, events: [{ kind: 'coredns-restart', at: 1200 }] });
    assert.equal(componentAt(calm, 'dns', 1205), 'ok');
    // Said, where it looked ignored.
    assert.match(eventsAbout(calm, 'dns').find((e) => e.at === 1200)!.reason, /^CoreDNS restarted with the API up: its replicas list Services and endpoints from the API as they start and answer again within seconds$/);
    const coredns = workload('coredns', { 'worker-1': 1, 'worker-2': 1 }, { namespace: 'kube-system', clusterDns: true });
    const told = simulate(cluster(), [coredns], { fail: { kind: 'scheduler' }, duration: TWO_HOURS, events: [{ kind: 'coredns-restart', at: 1200 }] });
    assert.match(eventsAbout(told, 'coredns').find((e) => e.at === 1200)!.reason, /^Deployment kube-system\/coredns: restarted with the API up, which its replicas sync with as they start: ready again within seconds/);
    assert.equal(capacityAt(told, 'coredns', 1200).ready, 2);
  });
});

describe('scenario 8: as 1, one of 3 api pods crashes for good at 15 m', () => {
  const result = simulate(cluster(), shop(), apiserverDown([{ kind: 'pod-crash', namespace: 'shop', workload: 'api', mode: 'permanent', at: 900 }]));

  it('fails about 1/3 of new connections from 15 m until recovery', () => {
    assert.equal(capacityAt(result, 'api', 899).blackholed, 0);
    assert.deepEqual(capacityAt(result, 'api', 900), { at: 900, ready: 2, desired: 3, blackholed: 0.333 });
    assert.equal(capacityAt(result, 'api', TWO_HOURS - 1).blackholed, 0.333);
    assert.equal(capacityAt(result, 'api', TWO_HOURS + 10).blackholed, 0, 'the kubelet reports it and the endpoint goes');
    assert.equal(capacityAt(result, 'api', TWO_HOURS + 10 + 30).ready, 3, 'the ReplicaSet replaces it');
  });

  it('recovers at once from a restartable crash', () => {
    const soft = simulate(cluster(), shop(), apiserverDown([{ kind: 'pod-crash', namespace: 'shop', workload: 'api', mode: 'restartable', at: 900 }]));
    assert.equal(capacityAt(soft, 'api', 900).ready, 2);
    assert.equal(capacityAt(soft, 'api', 910).ready, 3, 'kubelet back-off 10 s, same pod IP');
  });
});

describe('scenario 9: the scheduler only is down', () => {
  const result = simulate(cluster(), shop(), { fail: { kind: 'scheduler' }, duration: TWO_HOURS, events: [] });

  it('leaves running workloads alone, new pods Pending, kubectl working', () => {
    for (const name of ['api', 'cart', 'web']) assert.ok(servesThroughout(result, name), name);
    assert.equal(componentAt(result, 'scheduling', 0), 'down');
    assert.match(eventsAbout(result, 'scheduling')[0].reason, /new pods stay Pending/);
    assert.equal(componentAt(result, 'kubectl', 0), 'ok');
    assert.equal(componentAt(result, 'api', 0), 'ok');
    assert.equal(componentAt(result, 'controllers', 0), 'ok');
  });

  it('tells from the start that kubectl works but new pods stay Pending (controllers still create them), before it "works" again at the end', () => {
    assert.deepEqual(
      eventsAbout(result, 'kubectl').map((e) => [e.at, e.reason]),
      [
        [0, 'kubectl reads and writes work and controllers act on them, but no new pod is scheduled: new pods stay Pending'],
        [TWO_HOURS, 'kubectl works'],
      ],
    );
  });

  it('still loses pods nobody can reschedule after a node is lost', () => {
    const lost = simulate(cluster(), shop(), { fail: { kind: 'scheduler' }, duration: TWO_HOURS, events: [{ kind: 'node-lost', node: 'worker-2', at: 600 }] });
    assert.equal(capacityAt(lost, 'api', 600).blackholed, 0.333);
    assert.equal(capacityAt(lost, 'api', 650).blackholed, 0, 'the node controller still marks it NotReady after 50 s');
    assert.equal(capacityAt(lost, 'cart', 3600).ready, 0, 'evicted after 300 s, but no scheduler binds the replacement');
    assert.equal(capacityAt(lost, 'cart', TWO_HOURS + 30).ready, 1);
  });
});

describe('beyond the nine', () => {
  it('a what-if with 3 control planes survives the loss of cp-1', () => {
    const one = simulate(cluster(), shop(), { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: TWO_HOURS, events: [] });
    const three = simulate(cluster(), shop(), { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: TWO_HOURS, controlPlanes: 3, events: [] });
    assert.equal(componentAt(one, 'api', 0), 'down');
    assert.equal(componentAt(three, 'api', 0), 'degraded');
    assert.ok(three.assumptions.some((a) => /what-if: simulated as if the cluster had 3 stacked control-plane nodes/.test(a)));
  });

  it('a what-if\'s added control-plane nodes run the DaemonSets the cluster\'s control planes run (kube-proxy was "1 of 5" with 7 nodes), and a left-out one none', () => {
    const proxy = workload('kube-proxy', { 'cp-1': 1, 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { kind: 'DaemonSet', namespace: 'kube-system' });
    const agent = workload('agent', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { kind: 'DaemonSet' });
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: ['cp-1', 'control-plane-2'] }, duration: 1800, controlPlanes: 3, events: [] };
    const result = simulate(cluster(), [proxy, agent], scenario);
    assert.match(eventsAbout(result, 'kube-proxy')[0].reason, /control-plane-2 failed: 1 pod of DaemonSet kube-system\/kube-proxy gone \(1 of 6\).* Serving 4\/6/);
    assert.equal(capacityAt(result, 'agent', 0).desired, 3, 'a DaemonSet that keeps off the control planes gains nothing');
    const fewer = simulate(cluster({ controlPlanes: 3 }), [workload('kube-proxy', { 'cp-1': 1, 'cp-2': 1, 'cp-3': 1, 'worker-1': 1 }, { kind: 'DaemonSet' })], { fail: { kind: 'none' }, duration: 600, controlPlanes: 1, events: [] });
    assert.equal(capacityAt(fewer, 'kube-proxy', 0).desired, 2);
  });

  it('a what-if that leaves a control-plane node out runs its other pods on the first one kept, where a failure of that node reaches them', () => {
    const dns = workload('coredns', { 'cp-3': 1, 'worker-1': 1 }, { namespace: 'kube-system' });
    const result = simulate(cluster({ controlPlanes: 3 }), [dns], { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: 1800, controlPlanes: 1, events: [] });
    assert.equal(capacityAt(result, 'coredns', 1800).ready, 1, 'the pod of cp-3 ran on cp-1, which failed');
    assert.equal(capacityAt(result, 'coredns', 1800).desired, 2);
  });

  it('a what-if on a cluster with external etcd keeps its etcd: losing two of three control planes leaves the API up (it became stacked etcd, and lost quorum)', () => {
    const external = cluster({ controlPlanes: 3, etcd: { mode: 'external', members: 3 } });
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: ['cp-1', 'cp-2'] }, duration: 1800, controlPlanes: 3, events: [] };
    const result = simulate(external, shop(), scenario);
    assert.equal(componentAt(result, 'api', 60), 'degraded', 'one API server of three serves, etcd has quorum on its own hosts');
    assert.ok(!result.assumptions.some((a) => /stacked/.test(a)), result.assumptions.join('\n'));
    const five = simulate(external, shop(), { ...scenario, controlPlanes: 5 });
    assert.ok(five.assumptions.some((a) => a.includes('as if the cluster had 5 control-plane nodes') && a.includes('its external etcd as it is')), five.assumptions.join('\n'));
    assert.equal(componentAt(five, 'api', 60), 'degraded');
  });

  it('what a scenario says twice counts once: a node failed twice, a reboot of one node at one moment repeated; two crashes at a moment crash two pods', () => {
    const reboots = Array.from({ length: 50 }, () => ({ kind: 'node-reboot' as const, node: 'worker-2', at: 600 }));
    const once = simulate(cluster(), shop(), apiserverDown([reboots[0]], 3600));
    const repeated = simulate(cluster(), shop(), apiserverDown(reboots, 3600));
    assert.equal(repeated.timeline.length, once.timeline.length);
    assert.deepEqual(repeated.scenario.events, [reboots[0]]);
    const twice = simulate(cluster(), shop(), { fail: { kind: 'nodes', nodes: ['worker-2', 'worker-2'] }, duration: 600, events: [] });
    assert.deepEqual(twice.scenario.fail, { kind: 'nodes', nodes: ['worker-2'] });
    const crash = { kind: 'pod-crash' as const, namespace: 'shop', workload: 'api', mode: 'permanent' as const, at: 600 };
    assert.equal(capacityAt(simulate(cluster(), shop(), apiserverDown([crash, crash], 3600)), 'api', 601).ready, capacityAt(simulate(cluster(), shop(), apiserverDown([crash], 3600)), 'api', 601).ready - 1);
  });

  it('workers named like external etcd members (etcd-1, etcd-2) are no members: failing them leaves etcd and the API up (it lost quorum)', () => {
    const topology = cluster({ controlPlanes: 2, etcd: { mode: 'external', members: 3 } });
    topology.nodes = topology.nodes.map((n) => (n.name === 'worker-1' ? { ...n, name: 'etcd-1' } : n.name === 'worker-2' ? { ...n, name: 'etcd-2' } : n));
    const result = simulate(topology, [], { fail: { kind: 'nodes', nodes: ['etcd-1', 'etcd-2'] }, duration: 1800, events: [] });
    assert.equal(componentAt(result, 'api', 60), 'ok');
    assert.equal(componentAt(result, 'etcd', 60), 'ok');
  });

  it('a replacement serves only after the start its workload declares (kube-resilience/startup-seconds), and the assumptions say so', () => {
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: ['worker-2'] }, duration: TWO_HOURS, events: [] };
    const quick = simulate(cluster(), [workload('app', { 'worker-1': 1, 'worker-2': 1 })], scenario);
    const slow = simulate(cluster(), [workload('app', { 'worker-1': 1, 'worker-2': 1 }, { startSeconds: 1200 })], scenario);
    const wholeAgain = (result: typeof quick) => capacity(result, 'app').find((p) => p.at > 0 && p.ready === p.desired)!.at;
    assert.equal(wholeAgain(slow) - wholeAgain(quick), 1200 - 30);
    assert.ok(slow.assumptions.some((a) => a.includes('or after the start its workload declares (shop/app 1200 s)')), slow.assumptions.join('\n'));
  });

  it('a worker lost while the control plane is healthy is noticed, evicted and replaced', () => {
    const result = simulate(cluster(), shop(), { fail: { kind: 'nodes', nodes: ['worker-2'] }, duration: TWO_HOURS, events: [] });
    assert.equal(componentAt(result, 'api', 0), 'ok');
    assert.equal(capacityAt(result, 'api', 0).blackholed, 0.333);
    assert.equal(capacityAt(result, 'api', 50).blackholed, 0);
    assert.equal(capacityAt(result, 'api', 50 + 300 + 30).ready, 3);
  });

  it('a StatefulSet pod on a lost node is not replaced', () => {
    const db = workload('db', { 'worker-2': 1 }, { kind: 'StatefulSet' });
    const result = simulate(cluster(), [db], { fail: { kind: 'scheduler' }, duration: 0, events: [{ kind: 'node-lost', node: 'worker-2', at: 0 }] });
    assert.equal(capacityAt(result, 'db', 590).ready, 0);
    assert.ok(eventsAbout(result, 'db').some((e) => /force-deletes/.test(e.reason)));
  });

  it('with only the controller manager down, a rebooted node runs its pods again but the frozen Service does not find them', () => {
    const result = simulate(cluster(), shop(), { fail: { kind: 'controller-manager' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-2', at: 600 }] });
    assert.equal(componentAt(result, 'kubectl', 600), 'ok');
    assert.equal(eventsAbout(result, 'kubectl')[0].reason, "kubectl reads and writes work, but no controller acts on them: a Deployment's new replicas, a Job's pods are never created");
    assert.deepEqual(capacityAt(result, 'api', 730), { at: 600, ready: 2, desired: 3, blackholed: 0.333 });
    assert.ok(eventsAbout(result, 'api').some((e) => e.at === 730 && /frozen endpoints/.test(e.reason)));
    assert.equal(capacityAt(result, 'api', 3600).ready, 3);
    assert.equal(componentAt(result, 'dns', 730), 'degraded', 'the restarted CoreDNS replica has a new IP the kube-dns Service does not list');
    assert.equal(componentAt(result, 'dns', 3600), 'ok');
  });

  it('a CoreDNS restart during an API outage takes the CoreDNS workload out as it takes cluster DNS down, until the API returns (it served 2/2 throughout)', () => {
    const coredns = workload('coredns', { 'worker-1': 1, 'worker-2': 1 }, { namespace: 'kube-system', clusterDns: true });
    const result = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns], apiserverDown([{ kind: 'coredns-restart', at: 2400 }], 7200));
    assert.equal(componentAt(result, 'dns', 2405), 'down');
    assert.deepEqual([2399, 2400, 7209, 7210].map((t) => capacityAt(result, 'coredns', t).ready), [2, 0, 0, 2]);
    const restarted = eventsAbout(result, 'coredns').find((e) => e.at === 2400)!.reason;
    assert.match(restarted, /CoreDNS restarted while the API is down: .* none is ready and they answer SERVFAIL until the API is back and synced \(2 h 10 s\)/);
    assert.match(restarted, /Serving 0\/2, 100 % of new connections go to listed pods that do not serve$/, 'running pods that answer SERVFAIL are not dead');
    // With the API up it syncs at once: nothing to tell.
    const calm = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns], { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'coredns-restart', at: 600 }] });
    assert.ok(calm.workloads[0].capacity.every((p) => p.ready === 2));
  });

  it('cluster DNS follows the CoreDNS pods that crash during an API outage: down once every replica has crashed, a restarted one answers SERVFAIL until the API returns (it stayed ok)', () => {
    const coredns = workload('coredns', { 'worker-1': 1, 'worker-2': 1 }, { namespace: 'kube-system', clusterDns: true });
    const dns = (events: ScenarioEvent[]) => simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns], apiserverDown(events, 3600));
    const crash = (mode: 'restartable' | 'permanent', at: number): ScenarioEvent => ({ kind: 'pod-crash', namespace: 'kube-system', workload: 'coredns', mode, at });

    const restarted = dns([crash('restartable', 600), crash('restartable', 660)]);
    assert.deepEqual([599, 600, 660, 671, 676, 3609, 3610].map((t) => componentAt(restarted, 'dns', t)), ['ok', 'degraded', 'down', 'degraded', 'down', 'down', 'ok']);
    assert.match(restarted.timeline.find((e) => e.subject.type === 'component' && e.subject.name === 'dns' && e.at === 600)!.reason, /1 of 2 CoreDNS replicas crashed \(a container on worker-1 crashed\) and not answering until the kubelet has restarted it; the kube-dns Service still sends it queries \(its endpoints frozen\)/);
    assert.match(restarted.timeline.find((e) => e.subject.type === 'component' && e.subject.name === 'dns' && e.at === 675)!.reason, /2 of 2 CoreDNS replicas restarted without the API: SERVFAIL for every cluster name/);

    const failed = dns([crash('permanent', 600), crash('permanent', 660)]);
    assert.deepEqual([599, 600, 660, 3599].map((t) => componentAt(failed, 'dns', t)), ['ok', 'degraded', 'down', 'down']);

    // With the API up, a crashed replica is back after its back-off, and one failed for good once its replacement serves.
    const calm = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns], { fail: { kind: 'none' }, duration: 3600, events: [crash('restartable', 600)] });
    assert.deepEqual([600, 610].map((t) => componentAt(calm, 'dns', t)), ['degraded', 'ok']);
    const replaced = simulate(cluster({ coreDns: ['worker-1', 'worker-2'] }), [coredns], { fail: { kind: 'none' }, duration: 3600, events: [crash('permanent', 600)] });
    assert.deepEqual([600, 3000].map((t) => componentAt(replaced, 'dns', t)), ['degraded', 'ok']);
  });

  it('a kube-proxy restart on a node that is down, or back without the API, restarts nothing: Services do not work there (it said they keep working)', () => {
    const told = (events: ScenarioEvent[]) => eventsAbout(simulate(cluster(), shop(), apiserverDown(events, 1800)), 'worker-2').filter((e) => e.at === 360);
    const rebooted = told([{ kind: 'node-reboot', node: 'worker-2', at: 180 }, { kind: 'kube-proxy-restart', node: 'worker-2', at: 360 }]);
    assert.deepEqual(rebooted.map((e) => e.state), ['degraded']);
    assert.match(rebooted[0].reason, /kube-proxy on worker-2 has not run since the node came back: .* nothing restarts it and the node still serves no Service/);
    const lost = told([{ kind: 'node-lost', node: 'worker-2', at: 180 }, { kind: 'kube-proxy-restart', node: 'worker-2', at: 360 }]);
    assert.deepEqual(lost.map((e) => [e.state, e.reason]), [['down', 'kube-proxy on worker-2 cannot be restarted: worker-2 was lost, and nothing runs there']]);
    const running = told([{ kind: 'kube-proxy-restart', node: 'worker-2', at: 360 }]);
    assert.match(running[0].reason, /does not flush its rules \(v1\.14\+\), so Services keep working there/);
  });

  it('a node down for two overlapping reasons runs its pods again only after the later one ends', () => {
    const result = simulate(cluster(), shop(), { fail: { kind: 'nodes', nodes: ['cp-1', 'worker-2'] }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-2', at: 3500 }] });
    assert.equal(capacityAt(result, 'api', 3615).ready, 2, 'worker-2 is still rebooting when the outage ends');
    assert.equal(capacityAt(result, 'api', 3630).ready, 3);
    assert.deepEqual(eventsAbout(result, 'worker-2').map((e) => [e.at, e.state]), [[0, 'down'], [3500, 'down'], [3630, 'ok']]);
  });

  it('tells the cluster autoscaler pausing when many nodes are unready at recovery, once the node controller has marked them NotReady', () => {
    const lost = ['worker-1', 'worker-2', 'worker-3', 'worker-4'].map((node) => ({ kind: 'node-lost' as const, node, at: 60 }));
    const result = simulate(cluster({ workers: 6 }), [], apiserverDown(lost, 3600));
    // Their Ready condition is the one written before the outage until the returning controller manager's grace period ends.
    const pause = eventsAbout(result, 'autoscaling').find((e) => e.state === 'degraded' && e.at > 0)!;
    assert.equal(pause.at, 3650);
    assert.match(pause.reason, /4 of 7 nodes are unready 50 s after the API returns, once the node controller has marked them NotReady/);
    assert.match(pause.fact, /rule 14/);
    const calm = simulate(cluster({ workers: 6 }), [], apiserverDown(lost.slice(0, 1), 3600));
    assert.ok(!eventsAbout(calm, 'autoscaling').some((e) => e.state === 'degraded'));
  });

  it('keeps the autoscaling row degraded while the autoscaler pauses, without also saying it acts again; ok once enough nodes are back (both were said at once, and the row said ok)', () => {
    const lost = ['worker-1', 'worker-2', 'worker-3', 'worker-4'].map((node) => ({ kind: 'node-lost' as const, node, at: 60 }));
    const stays = simulate(cluster({ workers: 6 }), [], apiserverDown(lost, 3600));
    assert.deepEqual(stays.components.find((c) => c.name === 'autoscaling')!.states, [{ at: 0, state: 'down' }, { at: 3600, state: 'ok' }, { at: 3650, state: 'degraded' }]);
    assert.deepEqual(eventsAbout(stays, 'autoscaling').filter((e) => e.at === 3650).map((e) => e.state), ['degraded']);
    // Rebooted just before the API returns, the nodes are up two minutes later, and Ready once their kubelets reach the API (10 s).
    const rebooted = ['worker-1', 'worker-2', 'worker-3', 'worker-4'].map((node) => ({ kind: 'node-reboot' as const, node, at: 3590 }));
    const ends = simulate(cluster({ workers: 6 }), [], apiserverDown(rebooted, 3600));
    assert.deepEqual(ends.components.find((c) => c.name === 'autoscaling')!.states, [{ at: 0, state: 'down' }, { at: 3600, state: 'ok' }, { at: 3650, state: 'degraded' }, { at: 3720, state: 'ok' }]);
    assert.match(eventsAbout(ends, 'autoscaling').find((e) => e.at === 3720)!.reason, /enough nodes are ready again: the cluster autoscaler acts again/);
  });

  it('an API outage shorter than a lease moves no lease: scheduling and the controllers are ok once it is back (they stayed degraded to the end)', () => {
    const result = simulate(cluster(), shop(), apiserverDown([], 10));
    for (const name of ['scheduling', 'controllers'] as const) assert.deepEqual(result.components.find((c) => c.name === name)!.states, [{ at: 0, state: 'down' }, { at: 10, state: 'ok' }]);
  });

  it('counts nodes NotReady when the cluster was read among those that pause the cluster autoscaler', () => {
    const nodes = cluster({ workers: 6 });
    const unready = { ...nodes, notReadyNodes: ['worker-5', 'worker-6'] };
    const lost = ['worker-1', 'worker-2'].map((node) => ({ kind: 'node-lost' as const, node, at: 60 }));
    const result = simulate(unready, [], apiserverDown(lost, 3600));
    assert.match(eventsAbout(result, 'autoscaling').find((e) => e.at === 3650)!.reason, /^4 of 7 nodes are unready/);
    assert.ok(!eventsAbout(simulate(nodes, [], apiserverDown(lost, 3600)), 'autoscaling').some((e) => e.state === 'degraded' && e.at > 0));
  });

  it('an etcd quorum loss keeps reads of cached data for ~30 s, and not kubectl get (a consistent read)', () => {
    const result = simulate(cluster({ controlPlanes: 3 }), shop(), { fail: { kind: 'etcd' }, duration: 600, events: [] });
    assert.equal(componentAt(result, 'api', 0), 'degraded');
    assert.equal(componentAt(result, 'api', 30), 'down');
    assert.equal(componentAt(result, 'api', 600), 'ok');
    assert.match(eventsAbout(result, 'kubectl')[0].reason, /^`kubectl get` and writes fail at once \(both need etcd's quorum\); only reads of cached data \(informers\) are answered from the watch cache, for about 30 s/);
  });

  it('the loss of the only control plane is the loss of its API server, not of etcd\'s quorum alone', () => {
    const result = simulate(cluster(), shop(), { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: 600, events: [] });
    assert.equal(eventsAbout(result, 'api')[0].reason, 'no API server is running (and etcd has no quorum): nothing can read or write cluster state');
  });

  it('an operator loses the API at once', () => {
    const operator = workload('operator', { 'worker-1': 1 }, { apiClient: 'an operator, image example/operator:1', fronted: false });
    const result = simulate(cluster(), [operator], apiserverDown([], 600));
    const first = eventsAbout(result, 'operator')[0];
    assert.equal(first.at, 0);
    assert.equal(first.state, 'degraded');
    assert.match(first.reason, /loses its lease after ~15 s/);
    assert.match(first.fact, /rule 11/);
  });
});
