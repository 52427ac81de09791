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
  it('the items of a List count as documents (one List of 45,000 Deployments passed as one document, and was analysed for hours)', () => {
    const list = (n: number, indent = '') => `---\napiVersion: v1\nkind: List\nitems:\n${Array.from({ length: n }, (_, i) => `${indent}- apiVersion: apps/v1\n${indent}  kind: Deployment\n${indent}  metadata:\n${indent}    name: d${i}\n`).join('')}`;
    assert.equal(documentsPast(list(2), 3), false, 'the List and its 2 items');
    assert.equal(documentsPast(list(3), 3), true);
    assert.equal(documentsPast(list(3, '  '), 3), true, 'items indented below items:');
    assert.equal(documentsPast(`${stream(1)}${list(1)}`, 3), false);
    const rbac = '---\nkind: RoleBinding\nsubjects:\n- kind: ServiceAccount\n  name: a\n- kind: ServiceAccount\n  name: b\n- kind: User\n  name: c\n';
    assert.equal(documentsPast(rbac, 2), false, 'no List: the items of other lists are no documents');
  });
  it('a --- inside a block scalar is indented, so not counted', () => {
    assert.equal(documentsPast('kind: ConfigMap\ndata:\n  a: |\n    ---\n    ---\n', 1), false);
  });
});
