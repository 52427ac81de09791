import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterFinding } from '../../server/src/protocol';
import { groupBySource, groupClusterFindings, noFindingsNote } from '../../client/src/cluster/findings-groups';

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

  it('gives a resource with findings in both sections a group of its own in each, told apart by id (VS Code refuses a tree with one id twice)', () => {
    const dnsProbe: ClusterFinding = { ...dns, ruleId: 'probe-readiness-missing', headline: 'no readiness probe', source: 'workload' };
    const groups = groupBySource([dns, dnsProbe]).flatMap((s) => s.groups);
    assert.deepEqual(groups.map((g) => g.label), ['Deployment kube-system/coredns', 'Deployment kube-system/coredns']);
    assert.equal(new Set(groups.map((g) => g.id)).size, 2);
  });

  it('says the cluster read has no findings only when a cluster was read', () => {
    const read = { source: 'live' as const, name: 'prod', verdict: '', controlPlanes: 3, missing: [] };
    assert.equal(noFindingsNote(read), 'No findings about the cluster itself.');
    assert.equal(noFindingsNote(undefined), 'No cluster read yet.');
    assert.equal(noFindingsNote({ ...read, source: 'none', name: '', controlPlanes: null }), 'No cluster read: manifests are checked on their own.');
    assert.equal(noFindingsNote({ ...read, source: 'none', error: 'connect ECONNREFUSED 127.0.0.1:9\nmore', errorCause: 'connection refused by 127.0.0.1:9' }), 'No cluster read: connection refused by 127.0.0.1:9.');
    assert.equal(noFindingsNote({ ...read, error: 'timed out' }), 'No findings about the cluster itself.', 'a failed read that kept the last view shows what that view found');
  });
});
