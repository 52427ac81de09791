import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeSelector, isEmptySelector, mapSelectorMatches, parseSelectorText, requiredLabel, selectorFault, selectorMatches, type LabelSelector } from '../../server/src/manifest/selector';

const pod = { app: 'web', tier: 'front', track: 'stable' };

describe('selectorMatches (metav1.LabelSelector)', () => {
  const cases: [string, LabelSelector | null | undefined, boolean][] = [
    ['matchLabels all present', { matchLabels: { app: 'web', tier: 'front' } }, true],
    ['matchLabels one differs', { matchLabels: { app: 'web', tier: 'back' } }, false],
    ['matchLabels key missing', { matchLabels: { zone: 'a' } }, false],
    ['In with the value', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] }, true],
    ['In without the value', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] }, false],
    ['In on a missing key', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, false],
    ['NotIn with another value', { matchExpressions: [{ key: 'track', operator: 'NotIn', values: ['canary'] }] }, true],
    ['NotIn with the value', { matchExpressions: [{ key: 'track', operator: 'NotIn', values: ['stable'] }] }, false],
    ['NotIn on a missing key holds', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, true],
    ['Exists', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, true],
    ['Exists on a missing key', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, false],
    ['DoesNotExist on a missing key', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, true],
    ['DoesNotExist on a present key', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, false],
    ['an unknown operator selects nothing', { matchExpressions: [{ key: 'app', operator: 'Like', values: ['w'] }] }, false],
    ['labels and expressions must all hold', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'track', operator: 'In', values: ['canary'] }] }, false],
    ['the empty selector selects everything', {}, true],
    ['empty matchLabels and matchExpressions select everything', { matchLabels: {}, matchExpressions: [] }, true],
    ['a null selector selects nothing', null, false],
    ['a missing selector selects nothing', undefined, false],
  ];
  for (const [name, selector, expected] of cases) it(name, () => assert.equal(selectorMatches(selector, pod), expected));

  it('selects nothing with what the API server rejects, and says what: a value that is no string ("cannot unmarshal number into … of type string"), an unknown operator, values missing or in excess', () => {
    const faults: [LabelSelector, string][] = [
      [{ matchLabels: { version: 2 as unknown as string } }, 'matchLabels version: 2 is no string (quote it)'],
      [{ matchLabels: { enabled: true as unknown as string } }, 'matchLabels enabled: true is no string (quote it)'],
      [{ matchExpressions: [{ key: 'app', operator: 'in', values: ['web'] }] }, 'the operator of app is "in", not one of In, NotIn, Exists, DoesNotExist'],
      [{ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, 'app In has no values'],
      [{ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] }, 'app Exists has values, which it must not'],
      [{ matchExpressions: [{ key: 'app', operator: 'NotIn' }] }, 'app NotIn has no values'],
      [{ matchExpressions: [{ key: 'app', operator: 'DoesNotExist', values: ['db'] }] }, 'app DoesNotExist has values, which it must not'],
      [{ matchExpressions: [{ key: 'app', operator: 'In', values: [1 as unknown as string] }] }, 'the values of app are no list of strings'],
    ];
    for (const [selector, fault] of faults) {
      assert.equal(selectorFault(selector), fault);
      assert.equal(selectorMatches(selector, { version: '2', enabled: 'true', app: 'web' }), false, fault);
    }
    assert.equal(selectorFault({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }, { key: 'app', operator: 'NotIn', values: ['db'] }] }), undefined);
    // A null value the API server reads as an empty string: taken, and matched as one.
    const emptyValue = { matchLabels: { app: null as unknown as string } };
    assert.deepEqual([selectorFault(emptyValue), selectorMatches(emptyValue, { app: '' }), selectorMatches(emptyValue, { app: 'web' })], [undefined, true, false]);
    // Read the same way where the selector is described and indexed (they said and filed `app=null`).
    assert.deepEqual([describeSelector(emptyValue), requiredLabel(emptyValue)], ['app=', ['app', '']]);
  });

  it('isEmptySelector tells everything apart from nothing', () => {
    assert.equal(isEmptySelector({}), true);
    assert.equal(isEmptySelector(null), false);
    assert.equal(isEmptySelector({ matchLabels: { a: 'b' } }), false);
  });

  it('describes selectors for messages', () => {
    assert.equal(describeSelector({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db', 'cache'] }, { key: 'x', operator: 'Exists' }, { key: 'y', operator: 'DoesNotExist' }] }), 'app=web,tier notin (db,cache),x,!y');
    assert.equal(describeSelector({}), '(everything)');
    assert.equal(describeSelector(null), '(none)');
  });
});

describe('mapSelectorMatches (Service spec.selector)', () => {
  const cases: [string, Record<string, string> | null | undefined, boolean][] = [
    ['every entry matches', { app: 'web' }, true],
    ['an entry differs', { app: 'web', tier: 'back' }, false],
    ['an empty map selects no pods (a Service with manual Endpoints)', {}, false],
    ['no selector selects no pods', undefined, false],
    ['null selects no pods', null, false],
  ];
  for (const [name, selector, expected] of cases) it(name, () => assert.equal(mapSelectorMatches(selector, pod), expected));
});

describe('parseSelectorText: a selector written as text, as kubectl and kustomize take it', () => {
  const labels = { app: 'web', tier: 'front' };
  const matches = (text: string) => {
    const selector = parseSelectorText(text);
    return !!selector && selectorMatches(selector, labels);
  };

  it('equality, sets and existence', () => {
    const cases: [string, boolean][] = [
      ['app=web', true],
      ['app==web,tier=front', true],
      ['app!=web', false],
      ['app!=cart', true],
      ['missing!=x', true],
      ['app in (web, shop)', true],
      ['app notin (web)', false],
      ['missing notin (web)', true],
      ['tier', true],
      ['!tier', false],
      ['!missing', true],
      ['app=web,tier in (back)', false],
      ['app = = web', false],
    ];
    for (const [text, selects] of cases) assert.equal(matches(text), selects, text);
  });

  it('cannot read what is no selector', () => {
    assert.equal(parseSelectorText('app = = web'), undefined);
    assert.equal(parseSelectorText('app in web'), undefined);
  });

  it('reads back what describeSelector writes', () => {
    const selector: LabelSelector = { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }, { key: 'legacy', operator: 'DoesNotExist' }] };
    assert.deepEqual(parseSelectorText(describeSelector(selector)), selector);
  });
});
