import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../server/src/fixes/edit';
import { editValuesKey, valuesKeyLine, valuesSourceFor } from '../../server/src/render/helm-values';

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

describe('a values key written into an empty values file', () => {
  it('is written as Kubernetes reads it back: a string that would be a boolean or a number is quoted', () => {
    const empty = { path: '/chart/values.yaml', text: '# nothing set yet\n', prefix: ['sub'] };
    const edits = editValuesKey(empty, ['mode'], 'on')!;
    assert.equal(applyEdits(empty.text, edits), '# nothing set yet\nsub:\n  mode: "on"\n');
    assert.equal(applyEdits(empty.text, editValuesKey(empty, ['build'], '0o17')!), '# nothing set yet\nsub:\n  build: "0o17"\n');
  });
});
