import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slimObject } from '../../server/src/cluster/slim';

const env = [{ name: 'PASSWORD', value: 'hunter2' }];

describe('what a live object keeps once slimmed (and so what a snapshot can hold)', () => {
  it('leaves out what nests deeper than any Kubernetes object (8,000 levels overflowed the stack, and the read lost the whole type)', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 8_000; i++) deep = { next: deep };
    const slim = slimObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep', namespace: 'x' }, data: { a: 'b' }, deep });
    assert.deepEqual(slim.data, { a: 'b' });
    let levels = 0;
    for (let node = slim.deep; node && typeof node === 'object'; node = node.next) levels++;
    assert.ok(levels > 50 && levels < 200, `${levels} levels kept`);
  });

  it('keeps a key named __proto__ as a field, as JSON.parse does, not as the prototype (a node\'s spec.__proto__ cordoned it)', () => {
    const node = slimObject(JSON.parse('{"kind":"Node","metadata":{"name":"w"},"spec":{"__proto__":{"unschedulable":true}}}'));
    assert.equal(node.spec.unschedulable, undefined);
    assert.equal(Object.getPrototypeOf(node.spec), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(node.spec, '__proto__')?.value, { unschedulable: true });
    assert.equal(JSON.stringify(node.spec), '{"__proto__":{"unschedulable":true}}');
  });

  it('drops env and envFrom from containers, init containers and ephemeral containers', () => {
    const pod = slimObject({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'a', env, envFrom: [{ secretRef: { name: 'db' } }] }],
        initContainers: [{ name: 'b', env }],
        ephemeralContainers: [{ name: 'debug', env }],
      },
    });
    assert.doesNotMatch(JSON.stringify(pod), /hunter2|PASSWORD|secretRef/);
    assert.deepEqual(pod.spec.ephemeralContainers, [{ name: 'debug' }]);
  });

  it('drops env from the pod templates of workloads and CronJobs', () => {
    const deployment = slimObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'a', env }] } } } });
    const cronJob = slimObject({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { jobTemplate: { spec: { template: { spec: { initContainers: [{ name: 'a', env }] } } } } } });
    assert.doesNotMatch(JSON.stringify([deployment, cronJob]), /hunter2/);
  });

  it('keeps Kubernetes\' own annotations and the advisor\'s, on the object and its pod template, and no others', () => {
    const annotations = {
      'kube-resilience/sessions': 'in-memory',
      'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true',
      'kubernetes.io/config.mirror': 'abc',
      'kubectl.kubernetes.io/last-applied-configuration': '{"env":"hunter2"}',
      'vault.hashicorp.com/agent-inject-token': 'hunter2',
      'description': 'hunter2',
    };
    const kept = ['kube-resilience/sessions', 'cluster-autoscaler.kubernetes.io/safe-to-evict', 'kubernetes.io/config.mirror'];
    const deployment = slimObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', annotations }, spec: { template: { metadata: { annotations }, spec: { containers: [] } } } });
    assert.deepEqual(Object.keys(deployment.metadata.annotations), kept);
    assert.deepEqual(Object.keys(deployment.spec.template.metadata.annotations), kept);
  });

  it('wherever they sit: annotations of a CronJob\'s job template and of a StatefulSet\'s volume claim templates, env of containers in a kind it does not know', () => {
    const secret = { 'vault.example.com/token': 'hunter2' };
    const cronJob = slimObject({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { jobTemplate: { metadata: { annotations: secret }, spec: { template: { spec: { containers: [] } } } } } });
    const statefulSet = slimObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { template: { spec: { containers: [] } }, volumeClaimTemplates: [{ metadata: { name: 'data', annotations: secret } }] } });
    const custom = slimObject({ apiVersion: 'example.com/v1', kind: 'Runner', metadata: { name: 'r' }, spec: { pod: { containers: [{ name: 'a', env }] } } });
    assert.doesNotMatch(JSON.stringify([cronJob, statefulSet, custom]), /hunter2/);
    assert.deepEqual(statefulSet.spec.volumeClaimTemplates, [{ metadata: { name: 'data', annotations: {} } }]);
  });

  it('keeps of a KEDA ScaledObject what it scales, between which counts, and its pauses: not its triggers, other annotations nor status', () => {
    const scaledObject = slimObject({
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'worker', namespace: 'shop', annotations: { 'autoscaling.keda.sh/paused-replicas': '2', 'autoscaling.keda.sh/paused': 'true', 'vault.example.com/token': 'hunter2' } },
      spec: {
        scaleTargetRef: { name: 'worker' },
        minReplicaCount: 1,
        maxReplicaCount: 20,
        idleReplicaCount: 0,
        pollingInterval: 30,
        fallback: { failureThreshold: 3, replicas: 6 },
        triggers: [{ type: 'postgresql', metadata: { connectionString: 'postgres://app:hunter2@db/app' }, authenticationRef: { name: 'db-auth' } }],
      },
      status: { pausedReplicaCount: 2, externalMetricNames: ['s0-postgresql'] },
    });
    assert.deepEqual(scaledObject, {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'worker', namespace: 'shop', annotations: { 'autoscaling.keda.sh/paused-replicas': '2', 'autoscaling.keda.sh/paused': 'true' } },
      spec: { scaleTargetRef: { name: 'worker' }, minReplicaCount: 1, maxReplicaCount: 20, idleReplicaCount: 0 },
    });
  });
});
