import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quotedDigits, shownValue, writtenNotInteger } from '../../server/src/manifest/integer-field';

describe('integer fields as the API server decodes them', () => {
  it('takes whole numbers, and unset or null as unset', () => {
    for (const value of [0, 3, -1, undefined, null]) assert.equal(writtenNotInteger(value), false, String(value));
  });

  it('refuses digits in quotes, fractions, infinities and anything else', () => {
    for (const value of ['3', 2.5, Infinity, Number.NaN, true, {}, []]) assert.equal(writtenNotInteger(value), true, String(value));
  });

  it('reads the number that digits in quotes stand for, and nothing else', () => {
    assert.equal(quotedDigits('30'), 30);
    assert.equal(quotedDigits('3.5'), undefined);
    assert.equal(quotedDigits(30), undefined);
  });

  it('shows a refused value as it reads: strings in quotes, an infinite number as one (JSON would say null)', () => {
    assert.equal(shownValue('30'), '"30"');
    assert.equal(shownValue(2.5), '2.5');
    assert.equal(shownValue(Infinity), 'Infinity');
    assert.equal(shownValue(-Infinity), '-Infinity');
    assert.equal(shownValue(Number.NaN), 'NaN');
  });
});
