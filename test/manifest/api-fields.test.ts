import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldMissingFrom } from '../../server/src/manifest/api-fields';

describe('fields an API version lacks', () => {
  it('unhealthyPodEvictionPolicy exists in policy/v1 only', () => {
    assert.match(fieldMissingFrom({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget' }, ['spec', 'unhealthyPodEvictionPolicy']) ?? '', /policy\/v1/);
    assert.equal(fieldMissingFrom({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' }, ['spec', 'unhealthyPodEvictionPolicy']), undefined);
    assert.equal(fieldMissingFrom({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget' }, ['spec', 'maxUnavailable']), undefined);
  });

  it('autoscaling/v1 has no behavior or metrics, and a path below the field counts too', () => {
    assert.ok(fieldMissingFrom({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, ['spec', 'behavior', 'scaleDown']));
    assert.ok(fieldMissingFrom({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, ['spec', 'metrics']));
    assert.equal(fieldMissingFrom({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' }, ['spec', 'behavior']), undefined);
    assert.equal(fieldMissingFrom({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, ['spec', 'minReplicas']), undefined);
  });
});
