import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration, parseEvent, parseFailure, ScenarioError, validateScenario, parseDrainList } from '../../server/src/simulate/parse-scenario';
import { cluster, workload } from './fixtures';
import type { Scenario } from '../../server/src/simulate/types';
import { withControlPlanes } from '../../server/src/simulate/what-if';

describe('parseDuration', () => {
  const cases: [string, number][] = [['90s', 90], ['10m', 600], ['2h', 7200], ['1h30m', 5400], ['1d', 86400], ['1.5h', 5400], ['0', 0], ['20m5s', 1205]];
  for (const [text, seconds] of cases) it(`reads ${text} as ${seconds} s`, () => assert.equal(parseDuration(text), seconds));
  for (const text of ['', '10', '2x', 'h', '-5m', '1h 30m', '10mm']) {
    it(`refuses "${text}"`, () => assert.throws(() => parseDuration(text), (e: Error) => e instanceof ScenarioError && /is not a duration/.test(e.message)));
  }
});

describe('parseFailure', () => {
  it('reads each control-plane part and node lists', () => {
    assert.deepEqual(parseFailure('apiserver'), { kind: 'apiserver' });
    assert.deepEqual(parseFailure('etcd'), { kind: 'etcd' });
    assert.deepEqual(parseFailure('controller-manager'), { kind: 'controller-manager' });
    assert.deepEqual(parseFailure('nodes:cp-1,cp-2'), { kind: 'nodes', nodes: ['cp-1', 'cp-2'] });
    assert.deepEqual(parseFailure('nodes:cp-1,cp-1'), { kind: 'nodes', nodes: ['cp-1'] }, 'a node named twice fails once');
  });
  it('drains a node named twice in --drain once', () => {
    assert.deepEqual(parseDrainList('worker-a1,worker-a1'), [{ kind: 'drain', node: 'worker-a1', at: 0 }]);
  });
  it('refuses anything else', () => {
    assert.throws(() => parseFailure('nodes:'), ScenarioError);
    assert.throws(() => parseFailure('kubelet'), /--fail takes/);
  });
});

describe('parseEvent', () => {
  it('reads every kind', () => {
    assert.deepEqual(parseEvent('node-reboot:worker-2@10m'), { kind: 'node-reboot', node: 'worker-2', at: 600 });
    assert.deepEqual(parseEvent('node-lost:worker-2@1h'), { kind: 'node-lost', node: 'worker-2', at: 3600 });
    assert.deepEqual(parseEvent('pod-crash:shop/api:permanent@15m'), { kind: 'pod-crash', namespace: 'shop', workload: 'api', mode: 'permanent', at: 900 });
    assert.deepEqual(parseEvent('traffic-surge:shop/web:3@5m'), { kind: 'traffic-surge', namespace: 'shop', workload: 'web', factor: 3, at: 300 });
    assert.deepEqual(parseEvent('coredns-restart@20m'), { kind: 'coredns-restart', at: 1200 });
    assert.deepEqual(parseEvent('kube-proxy-restart:worker-1@5m'), { kind: 'kube-proxy-restart', node: 'worker-1', at: 300 });
  });
  it('says what is wrong', () => {
    assert.throws(() => parseEvent('node-reboot@10m'), /no node named/);
    assert.throws(() => parseEvent('pod-crash:api:permanent@1m'), /"api" is not NAMESPACE\/WORKLOAD/);
    assert.throws(() => parseEvent('pod-crash:shop/api:soon@1m'), /restartable\|permanent/);
    assert.throws(() => parseEvent('traffic-surge:shop/web:0@1m'), /factor above 1, at most 1000/);
    assert.throws(() => parseEvent('traffic-surge:shop/web:1@1m'), /factor above 1/, 'no surge: it did nothing');
    assert.throws(() => parseEvent(`traffic-surge:shop/web:${'9'.repeat(400)}@1m`), /at most 1000/, 'it said ×Infinity');
    assert.throws(() => parseEvent(`node-reboot:worker-1@${'9'.repeat(400)}s`), /is longer than any simulation: it covers at most 168 h/, 'it said "not never"');
    assert.throws(() => parseDuration('999999999999999999999d'), /"999999999999999999999d" is longer than any simulation: it covers at most 168 h$/, 'it said "not 2.4e+22 h 24 m 16 s"');
    assert.throws(() => parseDuration('169h'), /"169h" is longer than any simulation: it covers at most 168 h/);
    assert.throws(() => parseDuration('0.4s'), /"0\.4s" is less than a second, the simulator's smallest step/, 'it said "not 0 s"');
    assert.equal(parseDuration('0.5s'), 1);
    assert.equal(parseDuration('168h'), 168 * 3600);
    assert.throws(() => parseEvent('coredns-restart:now@1m'), /takes no arguments/);
    assert.throws(() => parseEvent('node-reboot:worker-1@later'), /is not a duration/);
  });
});

describe('validateScenario', () => {
  const topology = cluster();
  const workloads = [workload('api', { 'worker-1': 2 })];
  it('accepts known nodes and workloads', () => {
    validateScenario({ fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: 60, events: [parseEvent('pod-crash:shop/api:restartable@1m')] }, topology, workloads);
  });
  it('names what it does not know', () => {
    assert.throws(() => validateScenario({ fail: { kind: 'nodes', nodes: ['cp-9'] }, duration: 60, events: [] }, topology, workloads), /unknown node "cp-9" \(nodes: cp-1, worker-1, worker-2, worker-3\)/);
    assert.throws(() => validateScenario({ fail: { kind: 'apiserver' }, duration: 60, events: [parseEvent('pod-crash:shop/web:permanent@1m')] }, topology, workloads), /unknown workload "shop\/web" \(workloads: shop\/api\)/);
    assert.throws(() => validateScenario({ fail: { kind: 'apiserver' }, duration: 60, controlPlanes: 0, events: [] }, topology, workloads), /from 1 to 9/);
  });
  it('says a node the what-if left out is not in it (not that the cluster has none of that name)', () => {
    const three = withControlPlanes(topology, 3);
    const scenario: Scenario = { fail: { kind: 'nodes', nodes: [three.nodes[1].name] }, duration: 60, controlPlanes: 1, events: [] };
    assert.throws(() => validateScenario(scenario, withControlPlanes(three, 1), workloads, three), new RegExp(`node "${three.nodes[1].name}" is not in the what-if: --control-planes 1 keeps cp-1$`));
  });
});
