import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namesListed, namesUpTo, plural, sentenceList, withArticle } from '../server/src/words';

describe('plural', () => {
  it('says one in the singular, any other count in the plural', () => {
    assert.deepEqual([plural(1, 'pod'), plural(0, 'pod'), plural(2, 'fix', 'fixes')], ['1 pod', '0 pods', '2 fixes']);
  });
});

describe('namesUpTo', () => {
  it('keeps every name up to the most shown, and past it the first ones and how many more', () => {
    assert.deepEqual(namesUpTo(['a', 'b'], 2), ['a', 'b']);
    assert.deepEqual(namesUpTo(['a', 'b', 'c', 'd'], 2), ['a', 'b', '2 more']);
    assert.deepEqual(namesUpTo([], 2), []);
  });
});

describe('sentenceList and namesListed', () => {
  it('join items the way a sentence does', () => {
    assert.equal(sentenceList([]), '');
    assert.equal(sentenceList(['a']), 'a');
    assert.equal(sentenceList(['a', 'b']), 'a and b');
    assert.equal(sentenceList(['a', 'b', 'c']), 'a, b and c');
  });

  it('name at most so many, then say how many more', () => {
    assert.equal(namesListed(['a', 'b', 'c'], 3), 'a, b and c');
    assert.equal(namesListed(['a', 'b', 'c', 'd', 'e'], 3), 'a, b, c and 2 more');
  });
});

describe('withArticle', () => {
  it('an before a vowel, a before the rest: "an EndpointSlice list" (it said "a EndpointSlice")', () => {
    assert.deepEqual(['EndpointSlice', 'Node', 'HorizontalPodAutoscaler', 'Ingress'].map(withArticle), ['an EndpointSlice', 'a Node', 'a HorizontalPodAutoscaler', 'an Ingress']);
  });
});
