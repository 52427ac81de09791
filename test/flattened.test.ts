import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flattened } from '../server/src/flattened';

describe('flattened', () => {
  it('gives the lists the items hold one after another, in order, as flatMap does', () => {
    const documents = [{ resources: ['a', 'b'] }, { resources: [] }, { resources: ['c'] }, { resources: ['d', 'e', 'f'] }];
    assert.deepEqual(flattened(documents, (d) => d.resources), ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual(flattened(documents, (d) => d.resources), documents.flatMap((d) => d.resources));
  });

  it('gives a new empty list for no items, and a new list each time (callers sort it in place)', () => {
    assert.deepEqual(flattened([], (d: { resources: string[] }) => d.resources), []);
    const held = ['x'];
    const all = flattened([{ resources: held }], (d) => d.resources);
    all.push('y');
    assert.deepEqual(held, ['x']);
  });
});
