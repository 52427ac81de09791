import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gpuPoolUntainted } from '../../server/src/rules/gpu-pool-untainted';
import { clusterFindings, cluster, gpuNode, node } from '../cluster-fixtures';

describe('gpu-pool-untainted', () => {
  it('reports a GPU node without a NoSchedule taint, with its GPU count, and belongs to no file', () => {
    const findings = clusterFindings(gpuPoolUntainted, cluster([node('cpu-1'), gpuNode('gpu-1', { gpus: 8, taints: [] }), gpuNode('gpu-2')]));
    assert.deepEqual(
      findings.map((f) => [f.message, f.uri, f.range, f.resource?.name, f.severity]),
      [
        [
          'Node gpu-1 has 8 nvidia.com/gpu and no NoSchedule taint: ordinary pods land on it. They take its CPU and memory from GPU work, and keep the expensive node from scaling down. Taint it, e.g. nvidia.com/gpu=present:NoSchedule.',
          null,
          null,
          'gpu-1',
          'warning',
        ],
      ],
    );
  });

  it('says that PreferNoSchedule does not keep pods off', () => {
    const findings = clusterFindings(gpuPoolUntainted, cluster([gpuNode('gpu-1', { taints: [{ key: 'nvidia.com/gpu', effect: 'PreferNoSchedule' }] })]));
    assert.match(findings[0].message, /ordinary pods land on it\. PreferNoSchedule only steers, it does not keep pods off\./);
  });

  it('accepts NoExecute, ignores nodes without GPUs and GPU capacity of zero', () => {
    const findings = clusterFindings(
      gpuPoolUntainted,
      cluster([gpuNode('gpu-1', { taints: [{ key: 'nvidia.com/gpu', effect: 'NoExecute' }] }), node('cpu-1'), gpuNode('broken', { gpus: 0, taints: [] })]),
    );
    assert.deepEqual(findings, []);
  });
});
