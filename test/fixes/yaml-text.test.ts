import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { yamlLines, yamlScalar, yamlText } from '../../server/src/fixes/yaml-text';
import { parseManifest } from '../../server/src/manifest/parse';
import { kubectlReads } from '../manifest/kubectl-reads';
import { renderTools } from '../render/render-tools';

/** Strings YAML would read as something else written plain: words and numbers of YAML 1.1, indicators, a `'` or `"` among them. */
const NEEDING_QUOTES = ['yes', 'on', 'Off', 'y', '010', '0o17', '0X1F', 'null', '~', '', ' x', 'a: b', 'x #y', '#x', '*x', '&x', '!x', '- x', '%x', '@x', '`x', '|x', '>x', '"x"', "'yes'", "it's: x", `it's "x": y`, `'a' "b"`, `#it's "x"`];
/** Strings written plain, a `'` inside them, and over lines. */
const PLAIN = ["it's", "on's", "it's 'on'", 'web', "it's\nyes"];

/** A ConfigMap whose data holds `data`, as yamlText writes it. */
const configMap = (data: Record<string, string>, singleQuote: boolean) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: quoted\ndata:\n${yamlText(data, { singleQuote, lineWidth: 0 }).replace(/^(?=.)/gm, '  ')}`;
const keyed = (values: string[]) => Object.fromEntries(values.map((value, i) => [`k${i}`, value]));

describe('yamlText', () => {
  it('quotes a string Kubernetes would read as another value, in the quotes asked for', () => {
    for (const value of ['yes', 'on', '010', '0o17', '0X1F', 'null', '~']) {
      assert.equal(yamlText({ v: value }, { singleQuote: true }), `v: '${value}'\n`);
      assert.equal(yamlText({ v: value }, { singleQuote: false }), `v: "${value}"\n`);
    }
    assert.equal(yamlText({ yes: 1 }, { singleQuote: true }), "'yes': 1\n", 'keys too');
  });

  it("writes a `'` in single quotes doubled", () => {
    assert.equal(yamlText({ v: `it's "x": y` }, { singleQuote: true }), `v: 'it''s "x": y'\n`);
    assert.equal(yamlText({ v: `'a' "b"` }, { singleQuote: true }), `v: '''a'' "b"'\n`);
  });

  it('writes every string so that it is read back as that string, in either quotes', () => {
    const data = keyed([...NEEDING_QUOTES, ...PLAIN]);
    for (const singleQuote of [true, false]) {
      const read = parseManifest('file:///quoted.yaml', configMap(data, singleQuote)).documents[0].parsed.value as { data: unknown };
      assert.deepEqual(read.data, data, singleQuote ? 'single quotes' : 'double quotes');
    }
  });

  const { kubectl, skip } = renderTools();
  it('as kubectl reads it back', { skip }, () => {
    const data = keyed([...NEEDING_QUOTES, ...PLAIN]);
    for (const singleQuote of [true, false]) assert.deepEqual(kubectlReads(configMap(data, singleQuote), kubectl).data, data, singleQuote ? 'single quotes' : 'double quotes');
  });

  it('yamlScalar writes a scalar on its line; yamlLines moves every line to the column', () => {
    assert.deepEqual([yamlScalar('yes'), yamlScalar('web'), yamlScalar(3)], ['"yes"', 'web', '3']);
    assert.deepEqual(yamlLines({ a: { b: 'on' } }, 4), ['    a:', '      b: "on"']);
  });
});
