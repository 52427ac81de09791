import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceFromObject } from '../../server/src/manifest/parse';
import { holdsReplicas, isScaledObject, pausedReplicaCount, pausedScaledObject, refusedScaledObject, scaledObjectBounds, scaledObjectScales } from '../../server/src/manifest/scaled-object';

const scaledObject = (spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  resourceFromObject({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'worker', ...(annotations ? { annotations } : {}) }, spec: { scaleTargetRef: { name: 'worker' }, ...spec } })!;
const workload = (kind: string, apiVersion = 'apps/v1') => resourceFromObject({ apiVersion, kind, metadata: { name: 'worker' }, spec: {} })!;

describe('KEDA ScaledObject', () => {
  it('is the keda.sh kind, not another group\'s ScaledObject', () => {
    assert.equal(isScaledObject(scaledObject({})), true);
    assert.equal(isScaledObject(resourceFromObject({ apiVersion: 'example.com/v1', kind: 'ScaledObject', metadata: { name: 'worker' } })!), false);
  });

  it('scales to zero by default, up to 100', () => {
    assert.deepEqual(scaledObjectBounds(scaledObject({})), { min: 0, max: 100, activeMin: 0 });
    assert.deepEqual(scaledObjectBounds(scaledObject({ minReplicaCount: 3, maxReplicaCount: 10 })), { min: 3, max: 10, activeMin: 3 });
  });

  it('runs its idleReplicaCount while its triggers are idle: that is its floor, minReplicaCount the floor while it scales', () => {
    assert.deepEqual(scaledObjectBounds(scaledObject({ idleReplicaCount: 0, minReplicaCount: 1, maxReplicaCount: 10 })), { min: 0, max: 10, activeMin: 1 });
  });

  it('takes an empty kind or apiVersion in its scaleTargetRef for KEDA\'s defaults, as a missing one', () => {
    const empty = scaledObject({ scaleTargetRef: { name: 'worker', kind: '', apiVersion: '' } });
    assert.equal(scaledObjectScales(empty, workload('Deployment')), true);
  });

  it('names a Deployment of apps/v1 when its scaleTargetRef says only the name', () => {
    assert.equal(scaledObjectScales(scaledObject({}), workload('Deployment')), true);
    assert.equal(scaledObjectScales(scaledObject({}), workload('StatefulSet')), false);
    assert.equal(scaledObjectScales(scaledObject({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'worker' } }), workload('StatefulSet')), true);
    assert.equal(scaledObjectScales(scaledObject({ scaleTargetRef: { kind: 'DaemonSet', name: 'worker' } }), workload('DaemonSet')), false, 'a DaemonSet has no scale');
  });

  it('is paused by paused-replicas, whatever its value, and by paused unless that reads as false', () => {
    const paused = (annotations: Record<string, string>) => pausedScaledObject(scaledObject({}, annotations));
    assert.equal(paused({ 'autoscaling.keda.sh/paused-replicas': '0' }), true);
    assert.equal(paused({ 'autoscaling.keda.sh/paused': 'true' }), true);
    assert.equal(paused({ 'autoscaling.keda.sh/paused': 'yes' }), true, 'not a boolean: KEDA pauses');
    assert.equal(paused({ 'autoscaling.keda.sh/paused': 'false' }), false);
    assert.equal(paused({}), false);
    assert.equal(scaledObjectScales(scaledObject({}, { 'autoscaling.keda.sh/paused': 'true' }), workload('Deployment')), false);
  });

  it('holds its target at the count paused-replicas gives, read as KEDA reads it (a 32-bit integer, signed or not)', () => {
    const held = (value: string) => pausedReplicaCount(scaledObject({}, { 'autoscaling.keda.sh/paused-replicas': value }));
    assert.deepEqual(['0', '2', '+2', '007', '2147483647'].map(held), [0, 2, 2, 7, 2147483647]);
    assert.equal(pausedReplicaCount(scaledObject({})), undefined, 'not paused');
    assert.equal(pausedReplicaCount(scaledObject({}, { 'autoscaling.keda.sh/paused': 'true' })), undefined, 'paused at whatever count it runs');
  });

  it('holds no count by a paused-replicas KEDA cannot read or scale to: it makes no HPA then, and scales nothing', () => {
    const held = (value: string) => pausedReplicaCount(scaledObject({}, { 'autoscaling.keda.sh/paused-replicas': value }));
    assert.deepEqual(['', 'two', '2.5', ' 2', '0x2', '-1', '2147483648'].map(held), Array(7).fill(undefined));
  });

  it('holds only the workload it would scale, and only when KEDA does not refuse it', () => {
    const annotations = { 'autoscaling.keda.sh/paused-replicas': '2' };
    assert.equal(holdsReplicas(scaledObject({}, annotations), workload('Deployment')), true);
    assert.equal(holdsReplicas(scaledObject({}, annotations), workload('StatefulSet')), false);
    assert.equal(holdsReplicas(scaledObject({ minReplicaCount: 5, maxReplicaCount: 3 }, annotations), workload('Deployment')), false);
    assert.equal(holdsReplicas(scaledObject({}, { 'autoscaling.keda.sh/paused-replicas': 'two' }), workload('Deployment')), false);
  });

  it('is refused when its floor (at least 1 once written) is above its maximum, or its idle count not below the floor', () => {
    assert.equal(refusedScaledObject(scaledObject({ minReplicaCount: 5, maxReplicaCount: 3 })), true);
    assert.equal(refusedScaledObject(scaledObject({ minReplicaCount: 0, maxReplicaCount: 0 })), true);
    assert.equal(refusedScaledObject(scaledObject({ minReplicaCount: 3, idleReplicaCount: 3 })), true);
    assert.equal(refusedScaledObject(scaledObject({ minReplicaCount: 3, idleReplicaCount: 0 })), false);
    assert.equal(refusedScaledObject(scaledObject({ maxReplicaCount: 3 })), false);
    assert.equal(scaledObjectScales(scaledObject({ minReplicaCount: 5, maxReplicaCount: 3 }), workload('Deployment')), false);
  });
});
