import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatIntOrPercent, parseIntOrPercent, scaleIntOrPercent } from '../../server/src/manifest/int-or-percent';

describe('parseIntOrPercent', () => {
  const cases: [unknown, ReturnType<typeof parseIntOrPercent>][] = [
    [2, { kind: 'int', value: 2 }],
    [0, { kind: 'int', value: 0 }],
    ['3', undefined],
    ['25%', { kind: 'percent', value: 25 }],
    [' 50% ', undefined],
    [1.5, undefined],
    ['1.5', undefined],
    ['25 %', undefined],
    ['-1', undefined],
    ['%', undefined],
    [null, undefined],
    [true, undefined],
  ];
  for (const [input, expected] of cases) it(`${JSON.stringify(input)}`, () => assert.deepEqual(parseIntOrPercent(input), expected));
});

describe('scaleIntOrPercent', () => {
  const percent = (value: number) => ({ kind: 'percent' as const, value });
  const cases: [string, ReturnType<typeof percent> | { kind: 'int'; value: number }, number, boolean, number][] = [
    ['an int is itself whatever the total', { kind: 'int', value: 2 }, 10, true, 2],
    ['25% of 4, exact', percent(25), 4, true, 1],
    ['50% of 3 rounds up for a PDB (the disruption controller)', percent(50), 3, true, 2],
    ['50% of 3 rounds down when asked', percent(50), 3, false, 1],
    ['10% of 1 rounds up to 1', percent(10), 1, true, 1],
    ['10% of 1 rounds down to 0 (maxUnavailable of a rollout)', percent(10), 1, false, 0],
    ['100% of 7', percent(100), 7, true, 7],
    ['0% of 5', percent(0), 5, true, 0],
  ];
  for (const [name, value, total, roundUp, expected] of cases) it(name, () => assert.equal(scaleIntOrPercent(value, total, roundUp), expected));

  it('formats as written', () => {
    assert.equal(formatIntOrPercent({ kind: 'percent', value: 25 }), '25%');
    assert.equal(formatIntOrPercent({ kind: 'int', value: 1 }), '1');
  });
});
