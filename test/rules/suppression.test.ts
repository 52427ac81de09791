import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest } from '../../server/src/manifest/parse';
import { ignoreCommentIds, ignoredByAnnotation, ignoredByComment, parseRuleList } from '../../server/src/rules/suppression';

describe('ignore comments', () => {
  const cases: [string, string[]][] = [
    ['# kube-resilience-ignore single-replica', ['single-replica']],
    ['  #kube-resilience-ignore single-replica -- a batch console', ['single-replica']],
    ['# kube-resilience-ignore a, b c -- because', ['a', 'b', 'c']],
    ['# kube-resilience-ignore a --no space needed', ['a']],
    // Written with a colon, as a key would be: it did nothing, without a word.
    ['# kube-resilience-ignore: memory-unbounded', ['memory-unbounded']],
    ['# kube-resilience-ignore', []],
    ['# kube-resilience-ignored a', []],
    ['replicas: 1 # kube-resilience-ignore a', []],
    ['# see kube-resilience-ignore a', []],
  ];
  for (const [line, ids] of cases) it(JSON.stringify(line), () => assert.deepEqual(ignoreCommentIds(line).map((i) => i.id), ids));

  it('gives each id its column, for diagnostics on unknown ids', () => {
    const line = '  # kube-resilience-ignore pdb-missing, single-replica';
    assert.deepEqual(ignoreCommentIds(line).map((i) => line.slice(i.column, i.column + i.id.length)), ['pdb-missing', 'single-replica']);
  });

  it('applies to the line below only', () => {
    const file = parseManifest('c.yaml', 'a: 1\n# kube-resilience-ignore x\nb: 2\nc: 3\n');
    assert.deepEqual(ignoredByComment(file, 2), ['x']);
    assert.deepEqual(ignoredByComment(file, 3), []);
    assert.deepEqual(ignoredByComment(file, 0), []);
    const crlf = parseManifest('c.yaml', 'a: 1\r\n# kube-resilience-ignore x -- why\r\nb: 2\r\n');
    assert.deepEqual(ignoredByComment(crlf, 2), ['x']);
  });

  it('comments stacked right above a line all apply to it (a second "Ignore … here" adds its own below the first); a line between ends them', () => {
    const file = parseManifest('c.yaml', 'a: 1\n# kube-resilience-ignore x -- one\n# kube-resilience-ignore y -- two\nb: 2\n');
    assert.deepEqual(ignoredByComment(file, 3), ['y', 'x']);
    const apart = parseManifest('c.yaml', '# kube-resilience-ignore x\n# a note\n# kube-resilience-ignore y\nb: 2\n');
    assert.deepEqual(ignoredByComment(apart, 3), ['y']);
  });

  it('a `#` line inside a value over lines (a block scalar, a quoted string) is its text, not a comment: it ignores nothing', () => {
    const block = parseManifest('c.yaml', 'a: |\n  text\n  # kube-resilience-ignore x\nb: 2\n');
    assert.deepEqual(ignoredByComment(block, 3), []);
    const quoted = parseManifest('c.yaml', 'a: [sh, "sleep 1\n  # kube-resilience-ignore x\n  && run"]\nb: 2\n');
    assert.deepEqual(ignoredByComment(quoted, 2), []);
  });
});

describe('ignore annotation', () => {
  const resource = (text: string) => parseManifest('a.yaml', text).resources[0];
  it('reads the resource annotation and the pod template one', () => {
    assert.deepEqual(ignoredByAnnotation(resource('apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  annotations:\n    kube-resilience/ignore: " a , b,,"\n')), ['a', 'b']);
    assert.deepEqual(
      ignoredByAnnotation(resource('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    metadata:\n      annotations: {kube-resilience/ignore: c}\n')),
      ['c'],
    );
    assert.deepEqual(ignoredByAnnotation(resource('apiVersion: v1\nkind: Service\nmetadata:\n  annotations:\n    kube-resilience/ignore: 5\n')), []);
    assert.deepEqual(ignoredByAnnotation(undefined), []);
  });

  it('parseRuleList splits on commas and drops blanks', () => {
    assert.deepEqual(parseRuleList('a,, b ,c'), ['a', 'b', 'c']);
    assert.deepEqual(parseRuleList(''), []);
  });
});
