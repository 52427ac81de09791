import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseYamlDocument, parseYamlValue } from '../../server/src/manifest/yaml-value';

describe('parseYamlValue', () => {
  it('gives what the yaml package\'s parse gives', () => {
    for (const text of ['', 'a: 1\nb: [x, {c: d}]\n', 'base: &b {x: 1}\nuse: *b\n', '- 1\n- two\n', '"text"\n']) assert.deepEqual(parseYamlValue(text), parse(text), JSON.stringify(text));
  });

  it('throws for broken YAML and for a key written twice in one mapping, however deep', () => {
    assert.throws(() => parseYamlValue('a: [1\n'));
    assert.throws(() => parseYamlValue('users:\n  - name: u\n    user:\n      token: a\n      token: b\n'), /Map keys must be unique at line 5, column 7$/);
    assert.deepEqual(parseYamlValue('a:\n  token: a\nb:\n  token: b\n'), { a: { token: 'a' }, b: { token: 'b' } }, 'the same key in two mappings is no duplicate');
  });

  it('reads a mapping of many keys, whose every key the package compared with every other', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n');
    assert.equal(Object.keys(parseYamlValue(text) as object).length, 20_000);
    // What makes it take a fifth of a second, not seconds: the package's own check is not asked for (no test may time it).
    assert.equal(parseYamlDocument(text).options.uniqueKeys, false, "the package's check of keys is off");
  });

  it('expands aliases only as far as it is told', () => {
    const bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n';
    assert.throws(() => parseYamlValue(bomb, { maxAliasCount: 5 }), /alias/i);
  });
});
