import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { listRuleDocs, ruleDocPath } from '../../client/src/commands/rule-docs';
import { RULES } from '../../server/src/rules/index';

const DOCS = resolve('docs/rules');

describe('Show Rule Documentation: the shipped pages', () => {
  it('lists one page per rule with what it finds, for the quick pick', () => {
    const entries = listRuleDocs(DOCS);
    const ids = RULES.map((r) => r.meta.id);
    assert.ok(entries.length >= 5, 'pages are listed');
    for (const entry of entries) assert.ok(ids.includes(entry.id), `${entry.id} is a rule`);
    const readiness = entries.find((e) => e.id === 'probe-readiness-missing')!;
    assert.equal(readiness.finds, 'A serving container has no readiness probe.');
  });

  it('resolves a rule id to its page, and nothing else', () => {
    assert.equal(ruleDocPath(DOCS, 'pdb-missing'), join(DOCS, 'pdb-missing.md'));
    assert.equal(ruleDocPath(DOCS, 'no-such-rule'), undefined);
    assert.equal(ruleDocPath(DOCS, '../rules'), undefined);
    assert.equal(ruleDocPath(DOCS, 42), undefined);
  });

  it('an installation without docs lists nothing instead of failing', () => {
    assert.deepEqual(listRuleDocs(resolve('no-such-folder')), []);
  });
});
