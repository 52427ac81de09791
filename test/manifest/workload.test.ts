import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest, resourceFromObject } from '../../server/src/manifest/parse';
import { containersOf, declaredAnnotations, describeResource, isScalable, isWorkload, podTemplateOf, podTemplatePath, stringMap, valueAt, workloadSelector } from '../../server/src/manifest/workload';

const resource = (object: Record<string, unknown>) => resourceFromObject({ apiVersion: 'apps/v1', metadata: { name: 'w' }, ...object })!;
const template = { metadata: { labels: { app: 'w' }, annotations: { a: 'template' } }, spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'main' }, { name: 'side' }] } };

describe('workload helpers', () => {
  it('knows where each kind keeps its pod template', () => {
    const cases: [string, (string | number)[] | undefined][] = [
      ['Deployment', ['spec', 'template']],
      ['StatefulSet', ['spec', 'template']],
      ['DaemonSet', ['spec', 'template']],
      ['ReplicaSet', ['spec', 'template']],
      ['ReplicationController', ['spec', 'template']],
      ['Job', ['spec', 'template']],
      ['CronJob', ['spec', 'jobTemplate', 'spec', 'template']],
      ['Pod', []],
      ['Service', undefined],
    ];
    for (const [kind, path] of cases) assert.deepEqual(podTemplatePath(resource({ kind })), path, kind);
  });

  it('tells workloads and scalable workloads apart', () => {
    assert.equal(isWorkload(resource({ kind: 'Deployment' })), true);
    assert.equal(isWorkload(resource({ kind: 'Service' })), false);
    assert.equal(isWorkload(resourceFromObject({ apiVersion: 'kind.x-k8s.io/v1alpha4', kind: 'Cluster' })!), false);
    assert.equal(isScalable(resource({ kind: 'StatefulSet' })), true);
    assert.equal(isScalable(resource({ kind: 'DaemonSet' })), false);
    assert.equal(isScalable(resource({ kind: 'Job' })), false);
  });

  it('reads the pod template: labels, annotations, spec', () => {
    const t = podTemplateOf(resource({ kind: 'Deployment', spec: { template } }))!;
    assert.deepEqual(t.labels, { app: 'w' });
    assert.deepEqual(t.annotations, { a: 'template' });
    assert.deepEqual(t.path, ['spec', 'template']);
    const cron = podTemplateOf(resource({ kind: 'CronJob', spec: { jobTemplate: { spec: { template } } } }))!;
    assert.deepEqual(cron.labels, { app: 'w' });
    assert.equal(podTemplateOf(resource({ kind: 'Deployment', spec: { template: 'oops' } })), undefined);
    assert.deepEqual(podTemplateOf(resource({ kind: 'Deployment', spec: { template: {} } }))!.spec, {});
  });

  it('lists containers with their paths, init containers first when asked', () => {
    const d = resource({ kind: 'Deployment', spec: { template } });
    assert.deepEqual(containersOf(d).map((c) => [c.name, c.path.join('.'), c.init]), [
      ['main', 'spec.template.spec.containers.0', false],
      ['side', 'spec.template.spec.containers.1', false],
    ]);
    assert.deepEqual(containersOf(d, true).map((c) => c.name), ['init', 'main', 'side']);
    const pod = resourceFromObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [null, { image: 'x' }] } })!;
    assert.deepEqual(containersOf(pod).map((c) => [c.name, c.path.join('.')]), [['#1', 'spec.containers.1']], 'skips non-objects, names the unnamed by index');
  });

  it('reads the workload selector; a ReplicationController map becomes matchLabels', () => {
    assert.deepEqual(workloadSelector(resource({ kind: 'Deployment', spec: { selector: { matchLabels: { app: 'w' } } } })), { matchLabels: { app: 'w' } });
    assert.deepEqual(workloadSelector(resourceFromObject({ apiVersion: 'v1', kind: 'ReplicationController', spec: { selector: { app: 'rc' } } })!), { matchLabels: { app: 'rc' } });
    assert.deepEqual(workloadSelector(resourceFromObject({ apiVersion: 'v1', kind: 'ReplicationController', spec: { template } })!), { matchLabels: { app: 'w' } }, 'defaults to the template labels');
    assert.equal(workloadSelector(resourceFromObject({ apiVersion: 'v1', kind: 'Pod', spec: {} })!), undefined);
  });

  it('merges workload and template annotations, the template winning', () => {
    const d = resource({ kind: 'Deployment', metadata: { name: 'w', annotations: { a: 'workload', b: 'workload' } }, spec: { template } });
    assert.deepEqual(declaredAnnotations(d), { a: 'template', b: 'workload' });
  });

  it('small helpers', () => {
    assert.deepEqual(stringMap({ a: 1, b: true, c: null, d: 'x' }), { a: '1', b: 'true', c: '', d: 'x' }, 'null is the empty string, as the API server decodes it');
    assert.deepEqual(stringMap(['a']), {});
    assert.equal(valueAt({ a: [{ b: 2 }] }, ['a', 0, 'b']), 2);
    assert.equal(valueAt({ a: 'text' }, ['a', 'b']), undefined);
    const file = parseManifest('w.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n');
    assert.equal(describeResource(file.resources[0]), 'Deployment shop/web');
    assert.equal(describeResource(resourceFromObject({ apiVersion: 'v1', kind: 'Pod' })!), 'Pod (unnamed)');
  });
});
