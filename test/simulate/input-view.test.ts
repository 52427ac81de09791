import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulationInputOf } from '../../server/src/simulate/input-view';
import { validateSimulationInput } from '../../server/src/simulate/messages';
import { cluster, workload } from './fixtures';

describe('simulation input: the cluster as the page draws it', () => {
  const topology = cluster({ controlPlanes: 3, workers: 2, coreDns: ['worker-1', 'cp-2'] });
  const workloads = [workload('web', { 'worker-1': 2, 'worker-2': 1 }), workload('api', { 'worker-2': 1 }, { placementSource: 'assumed' })];
  const input = simulationInputOf({ topology, workloads }, { source: 'snapshot', name: 'prod.json' });

  it('lists control-plane nodes first, each with its stacked etcd member', () => {
    assert.deepEqual(input.nodes.map((n) => [n.name, n.role, n.etcdMember]), [
      ['cp-1', 'control-plane', true],
      ['cp-2', 'control-plane', true],
      ['cp-3', 'control-plane', true],
      ['worker-1', 'worker', false],
      ['worker-2', 'worker', false],
    ]);
  });

  it('marks where CoreDNS runs and puts each replica on its node', () => {
    assert.deepEqual(input.nodes.filter((n) => n.dns).map((n) => n.name), ['cp-2', 'worker-1']);
    assert.deepEqual(input.nodes.find((n) => n.name === 'worker-1')!.pods.map((p) => p.name), ['web-1', 'web-2']);
    assert.deepEqual(input.nodes.find((n) => n.name === 'worker-2')!.pods.map((p) => `${p.namespace}/${p.workload}`), ['shop/web', 'shop/api']);
    assert.deepEqual(input.workloads.map((w) => [w.name, w.replicas, w.placement]), [['web', 3, 'observed'], ['api', 1, 'assumed']]);
  });

  it('says when etcd runs outside the nodes, and the message validates', () => {
    const external = simulationInputOf({ topology: { ...topology, etcd: { mode: 'external', members: 5 } }, workloads }, { source: 'live', name: 'prod' });
    assert.ok(external.nodes.every((n) => !n.etcdMember));
    assert.match(external.notes[0], /etcd runs outside the cluster's nodes: 5 members/);
    assert.ok(validateSimulationInput(external).ok);
    assert.deepEqual(input.cluster, { source: 'snapshot', name: 'prod.json' });
  });
});
