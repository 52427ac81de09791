import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setOwnField } from '../server/src/own-field';

it('sets a field as the object\'s own, `__proto__` too, whose assignment would set the prototype instead', () => {
  const record: Record<string, unknown> = {};
  setOwnField(record, '__proto__', { polluted: true });
  setOwnField(record, 'name', 'web');
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.equal((record as { polluted?: boolean }).polluted, undefined);
  assert.deepEqual(Object.entries(record), [['__proto__', { polluted: true }], ['name', 'web']]);
});
