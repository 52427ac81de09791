import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { targetSelects } from '../../server/src/render/kustomize-setters';

describe("a kustomization's target, as kustomize selects", () => {
  const web = { kind: 'Deployment', name: 'web', namespace: 'shop', labels: { app: 'web', tier: 'front' }, annotations: { team: 'a' } };

  it('by kind, name and namespace, each an anchored regular expression', () => {
    assert.ok(targetSelects({ kind: 'Deployment', name: 'web' }, web));
    assert.ok(targetSelects({ name: 'w.*' }, web));
    assert.ok(!targetSelects({ name: 'we' }, web), 'anchored: not a prefix');
    assert.ok(!targetSelects({ kind: 'StatefulSet' }, web));
    assert.ok(!targetSelects({ namespace: 'prod' }, web));
    assert.ok(targetSelects({ name: '[' }, { ...web, name: '[' }), 'a pattern that is no regular expression is a name');
    assert.ok(!targetSelects(undefined, web), 'no target selects nothing by itself');
  });

  it('by label and annotation selectors written as text', () => {
    assert.ok(targetSelects({ labelSelector: 'app=web,tier in (front)' }, web));
    assert.ok(!targetSelects({ labelSelector: 'app!=web' }, web));
    assert.ok(!targetSelects({ labelSelector: 'app = = web' }, web), 'one that cannot be read selects nothing');
    assert.ok(targetSelects({ annotationSelector: 'team=a' }, web));
    assert.ok(!targetSelects({ labelSelector: 7 }, web), 'a selector that is no string selects nothing');
  });
});
