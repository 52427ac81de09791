import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBytes, parseQuantity } from '../../server/src/manifest/quantity';

describe('parseQuantity', () => {
  const cases: [unknown, number | undefined][] = [
    ['500Mi', 500 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['100m', 0.1],
    ['2', 2],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['1k', 1000],
    ['1M', 1e6],
    ['1e3', 1000],
    ['1E3', 1000],
    ['5n', 5e-9],
    ['+1', 1],
    [' 256Mi ', 256 * 2 ** 20],
    [4, 4],
    [0.25, 0.25],
    ['1mi', undefined],
    ['1 Gi', undefined],
    ['Gi', undefined],
    ['', undefined],
    ['abc', undefined],
    [null, undefined],
    [Infinity, undefined],
    [{}, undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input) ?? String(input)} → ${expected}`, () => {
      const value = parseQuantity(input);
      if (expected === undefined) assert.equal(value, undefined);
      else assert.ok(value !== undefined && Math.abs(value - expected) <= Math.abs(expected) * 1e-12, `${value} ≈ ${expected}`);
    });
  }
});

describe('formatBytes', () => {
  const cases: [number, string][] = [
    [536870912, '512Mi'],
    [2 ** 30, '1Gi'],
    [1.5 * 2 ** 30, '1536Mi'],
    [1.25 * 2 ** 20 + 1, '1.3Mi'],
    [100, '100'],
  ];
  for (const [bytes, text] of cases) it(`${bytes} → ${text}`, () => assert.equal(formatBytes(bytes), text));
});
