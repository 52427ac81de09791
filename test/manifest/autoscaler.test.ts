import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autoscalerBounds, describeAutoscaler, describeFloor, scaleTargetRefOf } from '../../server/src/manifest/autoscaler';
import { resourceFromObject } from '../../server/src/manifest/parse';

const hpa = (spec: Record<string, unknown>) => resourceFromObject({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec })!;
const scaledObject = (spec: Record<string, unknown>) => resourceFromObject({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'worker' }, spec: { scaleTargetRef: { name: 'worker' }, ...spec } })!;

describe('an autoscaler, HPA or ScaledObject', () => {
  it('bounds: an HPA\'s minReplicas (default 1) and maxReplicas; a ScaledObject\'s minReplicaCount (default 0) and maxReplicaCount (default 100)', () => {
    assert.deepEqual(autoscalerBounds(hpa({ maxReplicas: 5 })), { min: 1, max: 5, activeMin: 1, minField: 'minReplicas', maxField: 'maxReplicas' });
    assert.deepEqual(autoscalerBounds(hpa({ minReplicas: 2 })), { min: 2, max: undefined, activeMin: 2, minField: 'minReplicas', maxField: 'maxReplicas' });
    assert.deepEqual(autoscalerBounds(scaledObject({})), { min: 0, max: 100, activeMin: 0, minField: 'minReplicaCount', maxField: 'maxReplicaCount' });
    assert.deepEqual(autoscalerBounds(scaledObject({ minReplicaCount: 3, maxReplicaCount: 10 })), { min: 3, max: 10, activeMin: 3, minField: 'minReplicaCount', maxField: 'maxReplicaCount' });
    assert.deepEqual(autoscalerBounds(scaledObject({ idleReplicaCount: 0, minReplicaCount: 2 })), { min: 0, max: 100, activeMin: 2, minField: 'minReplicaCount', maxField: 'maxReplicaCount' }, 'idle, it runs its idleReplicaCount');
  });

  it('a ScaledObject is said as KEDA\'s, not as an HPA', () => {
    assert.equal(describeAutoscaler(hpa({})), 'HorizontalPodAutoscaler web');
    assert.equal(describeAutoscaler(scaledObject({})), 'ScaledObject worker (KEDA)');
    assert.equal(describeFloor(hpa({}), 2), 'HPA minReplicas 2');
    assert.equal(describeFloor(scaledObject({}), 3), 'KEDA minReplicaCount 3');
  });

  it('its scaleTargetRef as its controller reads it: a ScaledObject\'s kind defaults to Deployment', () => {
    assert.deepEqual(scaleTargetRefOf(scaledObject({})), { apiVersion: 'apps/v1', kind: 'Deployment', name: 'worker' });
    assert.deepEqual(scaleTargetRefOf(hpa({ scaleTargetRef: { name: 'web' } })), { name: 'web' });
  });
});
