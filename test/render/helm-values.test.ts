import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { valuesKeyLine, valuesSourceFor } from '../../server/src/render/helm-values';

const text = `# shared defaults
defaults: &defaults
  replicas: 1

api:
  <<: *defaults
  image: api:1
web:
  replicas: 1   # explicitly one
`;
const source = { path: '/chart/values.yaml', text, prefix: [] };

describe('a values key in a values file', () => {
  it('is on the line that writes it', () => {
    assert.equal(valuesKeyLine(source, ['web', 'replicas']), 8);
  });

  it('taken from a merge key, is on the line of the deepest key on its way the file writes, never on a comment', () => {
    assert.equal(valuesKeyLine(source, ['api', 'replicas']), 4);
    assert.equal(valuesKeyLine(source, ['worker', 'replicas']), undefined);
  });

  it('comes from the last file of the chain that sets it, else the chart\'s own values.yaml', () => {
    const prod = { path: '/chart/values-prod.yaml', text: 'web:\n  replicas: 3\n', prefix: [] };
    assert.equal(valuesSourceFor([source, prod], ['web', 'replicas']), prod);
    assert.equal(valuesSourceFor([source, prod], ['api', 'image']), source);
  });
});
