import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helmErrorPlace, helmErrorWords } from '../../server/src/render/helm-errors';

describe("Helm's render errors, read for their place", () => {
  const cases: [string, string, ReturnType<typeof helmErrorPlace>][] = [
    ['helm 4 execution error', 'Error: mychart/templates/e.yaml:2:15\n  executing "mychart/templates/e.yaml" at <.Values.x.y>:\n    nil pointer evaluating interface {}.y\n\nUse --debug flag to render out invalid YAML\n', { chartPath: 'mychart/templates/e.yaml', line: 1, character: 14 }],
    ['helm 3 execution error', 'Error: template: x/templates/y.yaml:12:3: executing "x/templates/y.yaml" at <.Values.a>: nil pointer', { chartPath: 'x/templates/y.yaml', line: 11, character: 2 }],
    ['required', 'Error: execution error at (mychart/templates/req.yaml:1:6): image.repository is required', { chartPath: 'mychart/templates/req.yaml', line: 0, character: 5 }],
    ['parse error, a line without column', 'Error: parse error at (mychart/templates/p.yaml:1): missing value for if', { chartPath: 'mychart/templates/p.yaml', line: 0, character: undefined }],
    ['a subchart template', 'Error: template: shop/charts/cart/templates/d.yaml:4:7: executing', { chartPath: 'shop/charts/cart/templates/d.yaml', line: 3, character: 6 }],
    ['YAML that does not parse after rendering names the file only', 'Error: YAML parse error on mychart/templates/y.yaml: error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context', { chartPath: 'mychart/templates/y.yaml' }],
    // A values file that does not parse was said on Chart.yaml only: an open values.yaml looked clean.
    ["the chart's values.yaml that does not parse", "Error: cannot load values.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line 311: did not find expected ',' or ']'", { chartPath: 'values.yaml', values: true, line: 310 }],
    ['a --values file that does not parse', 'Error: failed to parse /work/envs/prod.yaml: cannot unmarshal yaml document: error converting YAML to JSON: yaml: line 2: did not find expected key', { chartPath: '/work/envs/prod.yaml', values: true, line: 1 }],
    ['no place at all', 'Error: Chart.yaml file is missing', undefined],
  ];
  for (const [name, stderr, expected] of cases) it(name, () => assert.deepEqual(helmErrorPlace(helmErrorWords(stderr)), expected));

  it("values its schema refuses: the first key of the chart's own, as a values key (it was placed on Chart.yaml)", () => {
    const stderr = "Error: values don't meet the specifications of the schema(s) in the following chart(s):\nshop:\n- at '/image/tag': got number, want string\n- at '/replicaCount': got string, want integer\n";
    assert.deepEqual(helmErrorPlace(helmErrorWords(stderr), 'shop'), { chartPath: 'values.yaml', values: true, valuesKey: ['image', 'tag'] });
    assert.deepEqual(helmErrorPlace(helmErrorWords(stderr.replace("'/image/tag'", "'/a~1b/c~0d'")), 'shop')?.valuesKey, ['a/b', 'c~d'], 'a JSON pointer, unescaped');
    assert.equal(helmErrorPlace(helmErrorWords(stderr), 'other'), undefined, "a subchart's schema: its keys are not the top chart's");
  });

  it("keeps Helm's words on one line, without its --debug advice", () => {
    assert.equal(
      helmErrorWords('Error: mychart/templates/e.yaml:2:15\n  executing "mychart/templates/e.yaml" at <.Values.x.y>:\n    nil pointer evaluating interface {}.y\n\nUse --debug flag to render out invalid YAML\n'),
      'mychart/templates/e.yaml:2:15 executing "mychart/templates/e.yaml" at <.Values.x.y>: nil pointer evaluating interface {}.y',
    );
  });

  it('leaves out the notices Helm 4 logs before its error (a symbolic link found), which hid the error', () => {
    assert.equal(
      helmErrorWords('level=INFO msg="found symbolic link in path. Contents of linked file included and used" path=/c/templates/z.yaml\nError: cannot load irregular file /c/templates/z.yaml as it has file mode type bits set\n'),
      'cannot load irregular file /c/templates/z.yaml as it has file mode type bits set',
    );
  });

  it('keeps the start (where) and the end (why) of a message of a template that includes itself, 64 KB long', () => {
    const stderr = `Error: template: rec/templates/a.yaml:1:3: executing "rec/templates/a.yaml" at <include "loop" .>: ${'error calling include: template: rec/templates/_h.tpl:1:4: executing "loop" at <include "loop" .>: '.repeat(600)}exceeded max template depth (100000)\n`;
    const words = helmErrorWords(stderr);
    assert.ok(words.length < 1000, `${words.length} characters`);
    assert.match(words, /^template: rec\/templates\/a\.yaml:1:3: executing /);
    assert.match(words, / … \([\d,]+ characters in all\) … .*exceeded max template depth \(100000\)$/);
    assert.deepEqual(helmErrorPlace(words), { chartPath: 'rec/templates/a.yaml', line: 0, character: 2 });
  });
});
