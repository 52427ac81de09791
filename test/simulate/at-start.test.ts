// A snapshot is taken as it was: pods on a NotReady node or not Ready do not serve at the start, and pods already
// stopping (deleted, in their grace period) serve nothing, are not replaced, and hold up a drain of their node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { resourceFromObject, type Resource } from '../../server/src/manifest/parse';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { detectTopology } from '../../server/src/cluster/topology-detect';
import { simulate } from '../../server/src/simulate/simulate';
import { slotsAtStart } from '../../server/src/simulate/workload/at-start';
import type { Scenario } from '../../server/src/simulate/types';
import { capacity, capacityAt, eventsAbout } from './expect';
import { cluster as clusterShape, workload as simWorkload } from './fixtures';

const object = (o: object): Resource => resourceFromObject(o)!;
const node = (name: string, ready = 'True') => {
  const controlPlane = name.startsWith('cp-');
  return object({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : {}) } },
    spec: controlPlane ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {},
    status: { conditions: [{ type: 'Ready', status: ready }] },
  });
};
const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx' }] } });
/** A Deployment with its ReplicaSet, as a cluster lists them. */
const deployment = (app: string, replicas: number, extra: object = {}) => [
  object({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: app, namespace: 'shop' }, spec: { replicas, selector: { matchLabels: { app } }, template: template(app), ...extra } }),
  object({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `${app}-1`, namespace: 'shop', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, controller: true }] }, spec: { replicas, selector: { matchLabels: { app } }, template: template(app) } }),
];
const pod = (name: string, app: string, nodeName: string, { ready = 'True', deleted = false } = {}) =>
  object({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', labels: { app }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-1`, controller: true }], ...(deleted ? { deletionTimestamp: '2026-03-01T10:00:00Z' } : {}) },
    spec: { nodeName, containers: [{ name: app, image: 'nginx' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready }] },
  });
const service = (app: string) => object({ apiVersion: 'v1', kind: 'Service', metadata: { name: app, namespace: 'shop' }, spec: { selector: { app }, ports: [{ port: 80 }] } });

function run(resources: Resource[], scenario: Scenario) {
  const inventory = new Inventory();
  inventory.setCluster(resources);
  const { topology, workloads } = buildSimInputs(inventory, undefined);
  return { topology, workloads, result: simulate(topology, workloads, scenario) };
}

describe('pods that were not serving when the cluster was read', () => {
  const cluster = [node('cp-1'), node('worker-1'), node('worker-2', 'Unknown'), node('worker-3'), ...deployment('web', 3), service('web'), pod('web-a', 'web', 'worker-1'), pod('web-b', 'web', 'worker-2'), pod('web-c', 'web', 'worker-3', { ready: 'False' })];
  const { topology, workloads, result } = run(cluster, { fail: { kind: 'apiserver' }, duration: 3600, events: [] });

  it('are named with why: on a NotReady node, or not Ready', () => {
    assert.deepEqual(topology.notReadyNodes, ['worker-2'], 'the NotReady node takes no new pods');
    assert.deepEqual(workloads.find((w) => w.name === 'web')!.notServing, [
      { pod: 'web-b', node: 'worker-2', why: 'node-not-ready' },
      { pod: 'web-c', node: 'worker-3', why: 'not-ready' },
    ]);
  });

  it('on the node\'s own row: down from the start, with when the node controller evicts its pods', () => {
    const row = result.timeline.filter((e) => e.subject.type === 'node' && e.subject.name === 'worker-2');
    assert.deepEqual(
      row.map((e) => [e.at, e.state, e.reason]),
      [[0, 'down', 'worker-2 was NotReady when the cluster was read: its pods serve nothing, and it takes no new pods; the node controller evicts its pods once they no longer tolerate it: by 1 h 5 m for the default 300 s toleration (counted from the controller manager\'s return, whose taint-eviction controller counts afresh)']],
    );
  });

  it('a guess of where pods run (CoreDNS\'s, a workload without pods listed) leaves the NotReady node out', () => {
    assert.ok(topology.assumptions.includes('CoreDNS placement unknown: assumed 2 replicas on worker-1 and worker-3'), topology.assumptions.join('\n'));
    const unlisted = run([...cluster, ...deployment('api', 3)], { fail: { kind: 'none' }, duration: 60, events: [] }).workloads.find((w) => w.name === 'api')!;
    assert.equal(unlisted.placementSource, 'assumed');
    assert.ok(!('worker-2' in unlisted.placement), JSON.stringify(unlisted.placement));
    assert.equal(Object.values(unlisted.placement).reduce((a, b) => a + b, 0), 3);
  });

  it('do not count as serving replicas or endpoints from the start, and the report says so with names and numbers', () => {
    assert.deepEqual(capacityAt(result, 'web', 0), { at: 0, ready: 1, desired: 3, blackholed: 0 });
    assert.deepEqual(capacityAt(result, 'web', 3600), { at: 0, ready: 1, desired: 3, blackholed: 0 }, 'the outage replaces nothing');
    const first = eventsAbout(result, 'web')[0];
    assert.equal(first.at, 0);
    assert.equal(first.state, 'degraded');
    assert.equal(first.reason, 'Deployment shop/web: 1 of 3 pods ready at the start (web-b on NotReady node worker-2, web-c not Ready): counted as not serving until something replaces them. Serving 1/3');
    assert.equal(eventsAbout(result, 'web').filter((e) => /ready at the start/.test(e.reason)).length, 1, 'told once, though moment 0 is measured before and after its events');
    assert.ok(result.summary!.includes('1 of 1 workload affected'), result.summary!.join('\n'));
  });

  it('are evicted by the node controller once their 300 s toleration of the NotReady node runs out, and replaced elsewhere (they stayed down for good)', () => {
    const watched = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [] }).result;
    assert.equal(capacityAt(watched, 'web', 299).ready, 1);
    assert.equal(capacityAt(watched, 'web', 330).ready, 2, 'evicted at 300 s, serving 30 s later; web-c, not Ready on a Ready node, is no one\'s to replace');
    const told = eventsAbout(watched, 'web').find((e) => e.at === 330)!;
    assert.match(told.reason, /^Deployment shop\/web: its pod web-b on NotReady node worker-2 was evicted once its 300 s toleration ran out \(it stays Terminating there, no kubelet confirming its end\), and the ReplicaSet controller replaced it; the replacement runs on worker-(1|3)\b/);
  });

  it('a NotReady node an incident brings back is Ready again: its kubelet confirms what ends there, so a drain of it later finishes', () => {
    const rebooted = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-2', at: 10 }, { kind: 'drain', node: 'worker-2', at: 1200 }] }).result;
    assert.deepEqual(rebooted.drains!.map((d) => [d.node, d.end]), [['worker-2', 1230]]);
    const lateReboot = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-2', at: 60 }, { kind: 'node-reboot', node: 'worker-2', at: 600 }] }).result;
    assert.deepEqual(lateReboot.drains!.map((d) => [d.node, d.end]), [['worker-2', 730]], 'the drain waits until the node is back and its kubelet has reached the API (600 s + a 120 s reboot + 10 s), not for ever');
  });

  it('on a NotReady node a reboot brings back before their toleration runs out: not evicted, and not said to tolerate it for ever (they were)', () => {
    const rebooted = run(cluster, { fail: { kind: 'apiserver' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-2', at: 600 }] }).result;
    assert.deepEqual(eventsAbout(rebooted, 'web').filter((e) => /for ever|evicted/.test(e.reason)), []);
    assert.ok(eventsAbout(rebooted, 'web').some((e) => /ready at the start/.test(e.reason)), 'its pods on the NotReady node are told of, and the reboot run');
    assert.equal(capacityAt(rebooted, 'web', 3599).ready, 1, 'not evicted, nothing replaces web-b during the outage');
  });

  it('evicted so, they stay Terminating on the NotReady node: a drain of it later still never finishes, and says what it waits for', () => {
    const drained = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-2', at: 600 }] }).result;
    assert.deepEqual(drained.drains!.map((d) => [d.node, d.end, d.evicted]), [['worker-2', null, [{ workload: 'shop/web', at: 600 }]]]);
    assert.equal(drained.summary![0], 'Draining worker-2 does not finish within the simulated time: it waits for the pod web-b of shop/web, already stopping.');
    assert.ok(eventsAbout(drained, 'web').some((e) => e.at === 600 && e.reason.includes('its pod web-b is stuck stopping on worker-2, which is NotReady (no kubelet confirms its end): kubectl drain waits for it until the node is back')));
    assert.equal(capacityAt(drained, 'web', 600).ready, 2, 'the replacement serves elsewhere meanwhile');
  });

  it('after an outage, are evicted once the controller manager is back and their toleration has run out, counted from its return (the node is NotReady already: no grace period)', () => {
    assert.equal(capacityAt(result, 'web', 3899).ready, 1);
    assert.equal(capacityAt(result, 'web', 3930).ready, 2, 'back at 3,600 s, the node queued and tainted at once, evicted at 3,900 s, serving at 3,930 s');
  });

  it('of a StatefulSet stay Terminating on the NotReady node: evicted, never replaced, and said so', () => {
    const db = object({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'shop' }, spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') } });
    const member = (name: string, nodeName: string) =>
      object({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'shop', labels: { app: 'db' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', controller: true }] },
        spec: { nodeName, containers: [{ name: 'db', image: 'postgres' }] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      });
    const watched = run([node('cp-1'), node('worker-1'), node('worker-2', 'Unknown'), node('worker-3'), db, service('db'), member('db-0', 'worker-1'), member('db-1', 'worker-2')], { fail: { kind: 'none' }, duration: 3600, events: [] }).result;
    assert.equal(capacityAt(watched, 'db', 3600).ready, 1);
    assert.ok(eventsAbout(watched, 'db').some((e) => e.at === 300 && e.reason.includes('its pod db-1 on NotReady node worker-2 is evicted but stays Terminating there, and the StatefulSet will not start another with the same name until someone force-deletes it')));
  });

  it('a drain of the NotReady node evicts its pod there and the replacement serves, but the drain never ends: the pod stays Terminating', () => {
    const drained = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-2', at: 60 }] }).result;
    assert.deepEqual(drained.drains!.map((d) => [d.node, d.end, d.evicted.length]), [['worker-2', null, 1]]);
    assert.equal(capacityAt(drained, 'web', 90).ready, 2);
    assert.ok(
      eventsAbout(drained, 'web').some((e) => e.reason.includes("kubectl drain evicted its pod on worker-2; it stays Terminating there (the NotReady node's kubelet cannot confirm its end), so kubectl drain waits for it until the node is back or the pod is force-deleted; the ReplicaSet controller creates a replacement at once")),
      eventsAbout(drained, 'web').map((e) => e.reason).join('\n'),
    );
  });
});

describe('pods already stopping when the cluster was read', () => {
  const cluster = [node('cp-1'), node('worker-1'), node('worker-2'), ...deployment('old', 0), pod('old-a', 'old', 'worker-1', { deleted: true }), pod('old-b', 'old', 'worker-1', { deleted: true }), ...deployment('web', 1), pod('web-a', 'web', 'worker-2')];
  const { result } = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-1', at: 0 }] });

  it('of a Deployment scaled to 0 are named when their node is drained, and the drain waits until they are gone', () => {
    assert.deepEqual(result.drains![0].evicted, [{ workload: 'shop/old', at: 0 }, { workload: 'shop/old', at: 0 }]);
    assert.equal(result.drains![0].end, 30);
    assert.equal(result.summary![0], 'Draining worker-1 takes 30 s: it waits for the 2 pods old-a and old-b of shop/old (scaled to 0), already stopping.');
    const told = eventsAbout(result, 'old').map((e) => e.reason).join('\n');
    assert.match(told, /Deployment shop\/old: 2 pods already stopping \(old-a on worker-1, old-b on worker-1\): deleted, they serve nothing and nothing replaces them/);
    assert.match(told, /its pod old-a on worker-1 is already stopping \(deleted, its workload scaled to 0\): kubectl drain waits until it is gone at 30 s/);
  });

  it('are not replaced, and the eviction lets them go whatever the budget says', () => {
    assert.deepEqual(result.workloads.find((w) => w.name === 'old')!.evictions!.map((e) => e.replacementReady), [null, null]);
    const guarded = [
      ...cluster.filter((r) => r.name !== 'web' && r.name !== 'web-1' && r.name !== 'web-a'),
      ...deployment('web', 1),
      pod('web-a', 'web', 'worker-1'),
      pod('web-old', 'web', 'worker-1', { deleted: true }),
      object({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'shop' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } }),
    ];
    const blocked = run(guarded, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-1', at: 0 }] }).result;
    assert.deepEqual(blocked.drains![0].evicted, [{ workload: 'shop/old', at: 0 }, { workload: 'shop/old', at: 0 }, { workload: 'shop/web', at: 0 }]);
    assert.deepEqual(blocked.drains![0].blocked, [{ workload: 'shop/web', pdb: 'shop/web', from: 0, to: null, untilReady: false }], 'the one serving pod stays blocked');
  });

  it('are gone by the end of their grace period: a drain later does not wait for them', () => {
    const later = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-1', at: 600 }] }).result;
    assert.deepEqual(later.drains!.map((d) => [d.start, d.end, d.evicted.length]), [[600, 600, 0]]);
  });
});

describe('a StatefulSet pod already stopping when the cluster was read', () => {
  const statefulSet = (replicas: number) =>
    object({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'shop' }, spec: { replicas, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') } });
  const member = (name: string, nodeName: string, deleted = false) =>
    object({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'shop', labels: { app: 'db' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', controller: true }], ...(deleted ? { deletionTimestamp: '2026-03-01T10:00:00Z' } : {}) },
      spec: { nodeName, containers: [{ name: 'db', image: 'postgres' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
  const nodes = [node('cp-1'), node('worker-1'), node('worker-2'), node('worker-3')];
  const watch: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [] };

  it('is made again once it is gone, as its controller does when it is short of replicas (a rolling restart)', () => {
    const { result } = run([...nodes, statefulSet(3), service('db'), member('db-0', 'worker-1'), member('db-1', 'worker-2'), member('db-2', 'worker-3', true)], watch);
    assert.equal(capacityAt(result, 'db', 0).ready, 2);
    assert.equal(capacityAt(result, 'db', 3600).ready, 3);
    assert.match(eventsAbout(result, 'db')[0].reason, /1 pod already stopping \(db-2 on worker-3\): deleted, it serves nothing and the StatefulSet controller recreates it once it is gone/);
    const drained = run([...nodes, statefulSet(3), service('db'), member('db-0', 'worker-1'), member('db-1', 'worker-2'), member('db-2', 'worker-3', true)], { ...watch, events: [{ kind: 'drain', node: 'worker-3', at: 0 }] }).result;
    assert.match(eventsAbout(drained, 'db').map((e) => e.reason).join('\n'), /its pod db-2 on worker-3 is already stopping \(deleted\): kubectl drain waits until it is gone at 30 s \(its 30 s grace period, counted from when the cluster was read\); the StatefulSet controller recreates it then/);
    assert.equal(capacityAt(drained, 'db', 3600).ready, 3, 'recreated on another node than the drained one');
  });

  it('is not made again when the StatefulSet was scaled down', () => {
    const { result } = run([...nodes, statefulSet(2), service('db'), member('db-0', 'worker-1'), member('db-1', 'worker-2'), member('db-2', 'worker-3', true)], watch);
    assert.equal(capacityAt(result, 'db', 3600).ready, 2);
    assert.match(eventsAbout(result, 'db')[0].reason, /nothing replaces it/);
  });
});

describe('how long a node had been NotReady when the cluster was read', () => {
  const readAt = Date.parse('2026-03-01T10:00:00Z');
  const tainted = (name: string, timeAdded: string) => {
    const tainted = node(name, 'Unknown');
    tainted.object.spec.taints = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded }, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }];
    return tainted;
  };
  const read = (resources: Resource[], at: number | undefined) => {
    const inventory = new Inventory();
    inventory.setCluster(resources);
    return buildSimInputs(inventory, { source: 'snapshot', name: 'lab', resources, missing: [], topology: detectTopology(resources), ...(at === undefined ? {} : { readAt: at }) });
  };
  const cluster = (worker2: Resource) => [node('cp-1'), node('worker-1'), worker2, node('worker-3'), ...deployment('web', 2), service('web'), pod('web-a', 'web', 'worker-1'), pod('web-b', 'web', 'worker-2')];
  const watch: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [] };

  it('counts the pods\' 300 s toleration from when the node controller tainted the node, not from the read', () => {
    const { topology, workloads } = read(cluster(tainted('worker-2', '2026-03-01T09:56:00Z')), readAt);
    assert.deepEqual(topology.notReadyTaintedFor, { 'worker-2': 240 });
    const result = simulate(topology, workloads, watch);
    assert.equal(capacityAt(result, 'web', 59).ready, 1);
    assert.equal(capacityAt(result, 'web', 90).ready, 2, 'evicted at 60 s, its replacement serving 30 s later');
    const row = result.timeline.filter((e) => e.subject.type === 'node' && e.subject.name === 'worker-2');
    assert.match(row[0].reason, /the node controller evicts its pods once they no longer tolerate it: by 1 m for the default 300 s toleration \(from when the node controller tainted it, 4 m before the read\)$/);
  });

  it('tainted longer ago than the toleration, evicts at once', () => {
    const { topology, workloads } = read(cluster(tainted('worker-2', '2026-03-01T09:50:00Z')), readAt);
    const result = simulate(topology, workloads, watch);
    assert.equal(capacityAt(result, 'web', 30).ready, 2);
    assert.match(result.timeline.find((e) => e.subject.type === 'node' && e.subject.name === 'worker-2')!.reason, /evicts its pods once they no longer tolerate it: at once for the default 300 s toleration/);
  });

  it('without the read\'s time (a kubectl List), a taint time from another clock (after the read) or no taint time, counts from the read, the latest it can', () => {
    for (const [worker2, at] of [[tainted('worker-2', '2026-03-01T09:56:00Z'), undefined], [tainted('worker-2', '2026-03-01T10:05:00Z'), readAt], [tainted('worker-2', 'yesterday'), readAt]] as const) {
      const { topology, workloads } = read(cluster(worker2), at);
      assert.equal(topology.notReadyTaintedFor, undefined);
      assert.equal(capacityAt(simulate(topology, workloads, watch), 'web', 329).ready, 1);
    }
  });
});

describe('a workload\'s own toleration of a NotReady node', () => {
  const tolerating = (app: string, tolerations: object[]) => deployment(app, 1, {}).map((r) => {
    if (r.kind === 'Deployment') r.object.spec.template.spec.tolerations = tolerations;
    return r;
  });
  const watch: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [] };

  it('is read from its pod template, by taint (Exists without a key tolerates both, for ever)', () => {
    const resources = [node('cp-1'), node('worker-1'), ...tolerating('fast', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }]), ...tolerating('stays', [{ operator: 'Exists' }]), ...deployment('plain', 1)];
    const { workloads } = run(resources, watch);
    assert.deepEqual(Object.fromEntries(workloads.map((w) => [w.name, w.nodeLossToleration])), {
      fast: { 'node.kubernetes.io/unreachable': 30 },
      stays: { 'node.kubernetes.io/unreachable': null, 'node.kubernetes.io/not-ready': null },
      plain: undefined,
    });
  });

  it('of the taint its node carries: not-ready where the kubelet reported NotReady (Ready False), unreachable where it stopped reporting', () => {
    const tolerations = [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }];
    const reported = run([node('cp-1'), node('worker-1', 'False'), node('worker-2'), ...tolerating('web', tolerations), pod('web-a', 'web', 'worker-1')], watch);
    assert.deepEqual(reported.topology.notReadyReported, ['worker-1']);
    assert.equal(capacityAt(reported.result, 'web', 59).ready, 0);
    assert.equal(capacityAt(reported.result, 'web', 90).ready, 1, 'evicted at 60 s, serving 30 s later');
    const silent = run([node('cp-1'), node('worker-1', 'Unknown'), node('worker-2'), ...tolerating('web', tolerations), pod('web-a', 'web', 'worker-1')], watch);
    assert.equal(capacityAt(silent.result, 'web', 329).ready, 0, 'unreachable: the default 300 s');
    assert.equal(capacityAt(silent.result, 'web', 330).ready, 1);
  });
});

describe('a pod stuck stopping on a NotReady node', () => {
  const cluster = [node('cp-1'), node('worker-1', 'Unknown'), node('worker-2'), ...deployment('web', 1), pod('web-old', 'web', 'worker-1', { deleted: true }), pod('web-new', 'web', 'worker-2')];
  const { workloads, result } = run(cluster, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-1', at: 0 }] });

  it('is known as stuck: no kubelet confirms its end', () => {
    assert.deepEqual(workloads.find((w) => w.name === 'web')!.notServing, [{ pod: 'web-old', node: 'worker-1', why: 'stopping', stuck: true }]);
  });

  it('holds kubectl drain of its node for as long as the node is away, and says why (it was taken as gone after its grace period)', () => {
    assert.equal(result.drains![0].end, null);
    assert.ok(
      eventsAbout(result, 'web').some((e) => e.reason.includes('its pod web-old is stuck stopping on worker-1, which is NotReady (no kubelet confirms its end): kubectl drain waits for it until the node is back, or the pod is force-deleted')),
      eventsAbout(result, 'web').map((e) => e.reason).join('\n'),
    );
  });
});

describe('a CoreDNS replica on a node NotReady when the cluster was read', () => {
  const topology = { ...clusterShape({ coreDns: ['worker-1', 'worker-2'] }), notReadyNodes: ['worker-2'] };
  const coredns = simWorkload('coredns', { 'worker-1': 1, 'worker-2': 1 }, { namespace: 'kube-system', clusterDns: true, notServing: [{ pod: 'coredns-b', node: 'worker-2', why: 'node-not-ready' }] });
  const dnsStates = (result: ReturnType<typeof simulate>) => result.components.find((c) => c.name === 'dns')!.states;

  it('answers nothing from the start (DNS was ok), and serves again when the workload\'s replacement does', () => {
    const result = simulate(topology, [coredns], { fail: { kind: 'none' }, duration: 3600, events: [] });
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'degraded' },
      { at: 330, state: 'ok' },
    ]);
    assert.match(eventsAbout(result, 'dns')[0].reason, /^1 of 2 CoreDNS replicas gone \(worker-2 NotReady when the cluster was read\) and out of the kube-dns Service/);
    assert.equal(capacityAt(result, 'coredns', 330).ready, 2);
  });

  it('drained before its toleration runs out, it follows the drain', () => {
    const result = simulate(topology, [coredns], { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: 'worker-2', at: 60 }] });
    assert.deepEqual(dnsStates(result), [
      { at: 0, state: 'degraded' },
      { at: 90, state: 'ok' },
    ]);
  });
});

describe('a DaemonSet pod on a node NotReady when the cluster was read', () => {
  it('is not evicted (DaemonSet pods tolerate the node), as when the node fails during the simulation, and says so', () => {
    const agent = simWorkload('log-agent', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { kind: 'DaemonSet', namespace: 'kube-system', notServing: [{ pod: 'log-agent-b', node: 'worker-2', why: 'node-not-ready' }] });
    const result = simulate({ ...clusterShape({}), notReadyNodes: ['worker-2'] }, [agent], { fail: { kind: 'none' }, duration: 3600, events: [] });
    assert.equal(capacityAt(result, 'log-agent', 3600).ready, 2);
    assert.ok(eventsAbout(result, 'log-agent').some((e) => e.at === 300 && e.reason.includes('DaemonSet pods tolerate an unreachable node: not evicted, not replaced')), eventsAbout(result, 'log-agent').map((e) => `${e.at} ${e.reason}`).join('\n'));
  });
});

describe('CoreDNS pods that were not serving when the cluster was read', () => {
  const dnsTemplate = { metadata: { labels: { 'k8s-app': 'kube-dns' } }, spec: { containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1' }] } };
  const coredns = [
    object({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'coredns', namespace: 'kube-system' }, spec: { replicas: 2, selector: { matchLabels: { 'k8s-app': 'kube-dns' } }, template: dnsTemplate } }),
    object({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'coredns-1', namespace: 'kube-system', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'coredns', controller: true }] }, spec: { replicas: 2, selector: { matchLabels: { 'k8s-app': 'kube-dns' } }, template: dnsTemplate } }),
  ];
  const dnsPod = (name: string, nodeName: string, { ready = 'True', phase = 'Running', deleted = false } = {}) =>
    object({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'coredns-1', controller: true }], ...(deleted ? { deletionTimestamp: '2026-03-01T10:00:00Z' } : {}) },
      spec: { nodeName, containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1' }] },
      status: { phase, conditions: [{ type: 'Ready', status: ready }] },
    });
  const nodes = [node('cp-1'), node('worker-1'), node('worker-2'), node('worker-3')];
  const watch: Scenario = { fail: { kind: 'none' }, duration: 3600, events: [] };
  const dnsStates = (result: ReturnType<typeof simulate>) => result.components.find((c) => c.name === 'dns')!.states;

  it('are no replicas when they have ended or are being deleted: the kube-dns Service sends them nothing', () => {
    const { topology, result } = run([...nodes, ...coredns, dnsPod('coredns-a', 'worker-1'), dnsPod('coredns-b', 'worker-2'), dnsPod('coredns-old', 'worker-3', { deleted: true }), dnsPod('coredns-crashed', 'worker-3', { phase: 'Failed', ready: 'False' })], watch);
    assert.deepEqual(topology.coreDnsNodes, ['worker-1', 'worker-2']);
    assert.deepEqual(dnsStates(result), [{ at: 0, state: 'ok' }]);
  });

  it('not Ready, is out of the kube-dns Service from the start and says which pod, until a replacement serves', () => {
    const cluster = [...nodes, ...coredns, dnsPod('coredns-a', 'worker-1'), dnsPod('coredns-b', 'worker-2', { ready: 'False' })];
    const { result } = run(cluster, watch);
    assert.deepEqual(dnsStates(result), [{ at: 0, state: 'degraded' }], 'nothing replaces a pod that only fails its readiness checks');
    assert.match(eventsAbout(result, 'dns')[0].reason, /^1 of 2 CoreDNS replicas not Ready when the cluster was read \(coredns-b\): out of the kube-dns Service until it is replaced; 1 replica keeps answering$/);

    const drained = run(cluster, { ...watch, events: [{ kind: 'drain', node: 'worker-2', at: 60 }] }).result;
    const back = dnsStates(drained).find((s) => s.state === 'ok');
    assert.ok(back && back.at > 60, JSON.stringify(dnsStates(drained)));
    assert.equal(back.at, capacity(drained, 'coredns').find((p) => p.at > 60 && p.ready === 2)!.at, 'DNS is whole again when the workload\'s replacement is ready');
  });
});

describe('a StatefulSet pod not ready when read, where budgets pick its pods out by name', () => {
  it('is the pod of its name that starts down, not the first on its node', () => {
    const web = simWorkload('web', { 'worker-1': 2, 'worker-2': 1 }, {
      kind: 'StatefulSet',
      podNames: { 'worker-1': ['web-0', 'web-1'], 'worker-2': ['web-2'] },
      notServing: [{ pod: 'web-1', node: 'worker-1', why: 'not-ready' }],
    });
    const slots = slotsAtStart(web);
    assert.deepEqual(slots.map((s) => [s.pod, s.alive]), [['web-0', true], ['web-1', false], ['web-2', true]]);
  });
});
