import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatSeconds } from '../../server/src/cluster/duration';

it('says a time in seconds, to a tenth, and under a tenth of a second in milliseconds ("within 0.0s" said nothing)', () => {
  assert.deepEqual([60_000, 1_500, 300, 99, 0.1].map(formatSeconds), ['60s', '1.5s', '0.3s', '99ms', '1ms']);
});
