import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterFinding } from '../../server/src/protocol';
import { groupBySource, groupClusterFindings } from '../../client/src/cluster/findings-groups';

const controlPlane: ClusterFinding = { ruleId: 'control-plane-single', severity: 'warning', headline: 'one control plane', details: '', resource: { kind: 'Node', name: 'cp-1', namespace: '' }, source: 'cluster' };
const dns: ClusterFinding = { ruleId: 'dns-single-point', severity: 'error', headline: 'DNS on one node', details: '', resource: { kind: 'Deployment', name: 'coredns', namespace: 'kube-system' }, source: 'cluster' };
const probe: ClusterFinding = { ruleId: 'probe-liveness-equals-readiness', severity: 'warning', headline: 'same probe', details: '', resource: { kind: 'Pod', name: 'billing-x', namespace: 'legacy' }, source: 'workload' };
const clusterWide: ClusterFinding = { ruleId: 'etcd-even-members', severity: 'info', headline: 'two etcd members', details: '', resource: null, source: 'cluster' };

describe('Cluster Findings view groups', () => {
  it('groups by resource, worst group first, and names findings about no resource "Cluster"', () => {
    const groups = groupClusterFindings([clusterWide, controlPlane, dns, probe]);
    assert.deepEqual(
      groups.map((g) => [g.label, g.findings.map((f) => f.ruleId)]),
      [
        ['Deployment kube-system/coredns', ['dns-single-point']],
        ['Node cp-1', ['control-plane-single']],
        ['Pod legacy/billing-x', ['probe-liveness-equals-readiness']],
        ['Cluster', ['etcd-even-members']],
      ],
    );
  });

  it('says the same finding on the same resource once (one per container would repeat it)', () => {
    const groups = groupClusterFindings([probe, { ...probe }, { ...probe, headline: 'other probe' }]);
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0].findings.map((f) => f.headline), ['same probe', 'other probe']);
  });

  it('shows an unnamed resource as such', () => {
    assert.equal(groupClusterFindings([{ ...dns, resource: { kind: 'Deployment', name: null, namespace: 'x' } }])[0].label, 'Deployment x/(unnamed)');
  });

  it('puts the cluster\'s own findings first and the live workloads apart, leaving out an empty source', () => {
    assert.deepEqual(
      groupBySource([probe, controlPlane, dns]).map((s) => [s.label, s.groups.map((g) => g.label)]),
      [
        ['Cluster', ['Deployment kube-system/coredns', 'Node cp-1']],
        ['Live workloads', ['Pod legacy/billing-x']],
      ],
    );
    assert.deepEqual(groupBySource([controlPlane]).map((s) => s.label), ['Cluster']);
  });
});
