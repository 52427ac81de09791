import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentsPast } from '../../server/src/render/render-bounds';

describe('documentsPast', () => {
  const stream = (n: number, lead = '---\n') => Array.from({ length: n }, (_, i) => `${lead}kind: ConfigMap\nmetadata:\n  name: c${i}\n`).join('');
  it('counts documents by their --- lines, as helm (each led by one) and kustomize (between them) print them', () => {
    assert.equal(documentsPast(stream(3), 3), false);
    assert.equal(documentsPast(stream(4), 3), true);
    assert.equal(documentsPast(stream(3, '').split('kind').join('---\nkind').replace(/^---\n/, ''), 3), false);
  });
  it('a --- inside a block scalar is indented, so not counted', () => {
    assert.equal(documentsPast('kind: ConfigMap\ndata:\n  a: |\n    ---\n    ---\n', 1), false);
  });
});
