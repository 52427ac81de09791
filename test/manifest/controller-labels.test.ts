import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksForControllerLabel, podLabelSets, podNamesSelected, podsSelected, withoutClusterSetLabels, withoutControllerLabels } from '../../server/src/manifest/controller-labels';
import { fromObject } from '../cluster-fixtures';

const statefulSet = fromObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 3, template: { metadata: { labels: { app: 'db' } } } } });

describe('the labels controllers give their pods', () => {
  it("a StatefulSet's pods carry their names and indexes: those the selector names that it runs, and one it does not name", () => {
    const selector = { matchExpressions: [{ key: 'statefulset.kubernetes.io/pod-name', operator: 'In', values: ['db-2', 'db-7', 'db-01', 'web-0'] }] };
    assert.deepEqual(
      podLabelSets(statefulSet, { app: 'db' }, 3, [selector]).map((labels) => [labels['statefulset.kubernetes.io/pod-name'], labels['apps.kubernetes.io/pod-index']]),
      [['db-2', '2'], ['db-0', '0']],
    );
    assert.deepEqual(podLabelSets(statefulSet, { app: 'db' }, 0, [selector]), [], 'a StatefulSet of no replica runs no pod');
  });

  it('a StatefulSet whose ordinals start at 1 runs db-1 to db-3: its pod-index labels count from there too, and db-0 is none of its pods', () => {
    const fromOne = fromObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 3, ordinals: { start: 1 }, template: { metadata: { labels: { app: 'db' } } } } });
    const byName = { matchExpressions: [{ key: 'statefulset.kubernetes.io/pod-name', operator: 'In', values: ['db-0', 'db-3', 'db-4'] }] };
    const byIndex = { matchLabels: { 'apps.kubernetes.io/pod-index': '0' } };
    assert.deepEqual(
      podLabelSets(fromOne, { app: 'db' }, 3, [byName, byIndex]).map((labels) => [labels['statefulset.kubernetes.io/pod-name'], labels['apps.kubernetes.io/pod-index']]),
      [['db-3', '3'], ['db-1', '1']],
    );
  });

  it("a selector picking pods of a StatefulSet out by name or index selects those it runs, one each; one by its template's labels selects all", () => {
    const selected = (selector: object, replicas = 3) => podsSelected(statefulSet, { app: 'db' }, replicas, selector);
    assert.equal(selected({ matchLabels: { 'statefulset.kubernetes.io/pod-name': 'db-0' } }), 1);
    assert.equal(selected({ matchLabels: { app: 'db', 'apps.kubernetes.io/pod-index': '1' } }), 1);
    assert.equal(selected({ matchExpressions: [{ key: 'apps.kubernetes.io/pod-index', operator: 'In', values: ['1', '2', '7'] }] }), 2, 'it runs no db-7');
    assert.equal(selected({ matchExpressions: [{ key: 'statefulset.kubernetes.io/pod-name', operator: 'NotIn', values: ['db-0'] }] }), 2);
    assert.equal(selected({ matchExpressions: [{ key: 'statefulset.kubernetes.io/pod-name', operator: 'NotIn', values: ['db-0'] }] }, 10), 9);
    assert.equal(selected({ matchLabels: { app: 'db' } }), 3);
    assert.equal(selected({ matchLabels: { app: 'web' } }), 0);
    const fromOne = fromObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 3, ordinals: { start: 1 } } });
    assert.equal(podsSelected(fromOne, { app: 'db' }, 3, { matchLabels: { 'statefulset.kubernetes.io/pod-name': 'db-0' } }), 0);
  });

  it("the pods a selector selects are named as their StatefulSet names them, from its first ordinal; other workloads' pods have no name to give", () => {
    const named = (workload: typeof statefulSet, selector: object, replicas = 3) => podNamesSelected(workload, { app: 'db' }, replicas, selector);
    assert.deepEqual(named(statefulSet, { matchLabels: { 'statefulset.kubernetes.io/pod-name': 'db-0' } }), ['db-0']);
    assert.deepEqual(named(statefulSet, { matchExpressions: [{ key: 'statefulset.kubernetes.io/pod-name', operator: 'NotIn', values: ['db-0'] }] }, 4), ['db-1', 'db-2', 'db-3']);
    assert.deepEqual(named(statefulSet, { matchLabels: { app: 'web' } }), []);
    const fromOne = fromObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 3, ordinals: { start: 1 } } });
    assert.deepEqual(named(fromOne, { matchLabels: { app: 'db' } }), ['db-1', 'db-2', 'db-3']);
    const deployment = fromObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'db' }, spec: { replicas: 3 } });
    assert.deepEqual(named(deployment, { matchLabels: { app: 'db' } }), []);
  });

  it('a StatefulSet of 2 billion replicas (or 1e20): the pods a selector picks out by name are named without naming every other pod', () => {
    const byName = { matchLabels: { 'statefulset.kubernetes.io/pod-name': 'db-1' } };
    const started = Date.now();
    assert.deepEqual(podNamesSelected(statefulSet, { app: 'db' }, 2_000_000_000, byName), ['db-1']);
    assert.deepEqual(podNamesSelected(statefulSet, { app: 'db' }, 1e20, byName), ['db-1']);
    assert.deepEqual(podNamesSelected(statefulSet, { app: 'db' }, 2_000_000_000, { matchExpressions: [{ key: 'apps.kubernetes.io/pod-index', operator: 'In', values: ['7', '3'] }] }), ['db-3', 'db-7'], 'in the order of their ordinals');
    assert.ok(Date.now() - started < 1000);
  });

  it('what a selector asks of the labels controllers give pods is left out of what it asks of templates', () => {
    assert.deepEqual(withoutControllerLabels({ matchLabels: { 'apps.kubernetes.io/pod-index': '1', app: 'db' }, matchExpressions: [{ key: 'job-name', operator: 'Exists' }] }), { matchLabels: { app: 'db' }, matchExpressions: [] });
  });

  it('what only the cluster knows (a pod-template-hash) is left out of what a selector asks; the rest stays', () => {
    assert.deepEqual(withoutClusterSetLabels({ matchLabels: { app: 'web', 'pod-template-hash': 'abc' }, matchExpressions: [{ key: 'controller-revision-hash', operator: 'Exists' }] }), { matchLabels: { app: 'web' }, matchExpressions: [] });
    assert.equal(asksForControllerLabel({ matchLabels: { 'batch.kubernetes.io/job-name': 'migrate' } }), true);
    assert.equal(asksForControllerLabel({ matchLabels: { app: 'web' } }), false);
  });
});
