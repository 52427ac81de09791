import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reshapesUnits } from '../../server/src/language/units';

const change = (uri: string, kind: 'created' | 'changed' | 'deleted') => ({ uri, created: kind === 'created', deleted: kind === 'deleted' });

describe('reshapesUnits', () => {
  it('a Chart.yaml or a kustomization changed, or a manifest created or deleted, can make or unmake units', () => {
    assert.ok(reshapesUnits(change('file:///w/chart/Chart.yaml', 'changed')));
    for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) assert.ok(reshapesUnits(change(`file:///w/base/${name}`, 'changed')), name);
    assert.ok(reshapesUnits(change('file:///w/chart/templates/pdb.yaml', 'created')));
    assert.ok(reshapesUnits(change('file:///w/base/service.json', 'deleted')));
  });

  it('other files do not (the whole chart folder is watched; each created one divided the workspace again)', () => {
    assert.ok(!reshapesUnits(change('file:///w/chart/templates/.deployment.yaml.swp', 'created')));
    assert.ok(!reshapesUnits(change('file:///w/chart/charts/redis-1.2.3.tgz', 'created')));
    assert.ok(!reshapesUnits(change('file:///w/chart/files/app.conf', 'deleted')));
    assert.ok(!reshapesUnits(change('file:///w/chart/templates/deployment.yaml', 'changed')), 'a manifest changed in place renders again, it divides nothing');
    assert.ok(!reshapesUnits(change('file:///w/chart/Chart.yaml.orig', 'created')));
  });
});
