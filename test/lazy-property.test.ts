import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LazyProperty } from '../server/src/lazy-property';

describe('LazyProperty', () => {
  const fixes = new LazyProperty<string[]>('fixes', true);
  const read = (target: object) => (target as { fixes: string[] }).fixes;

  it('gives every object the same getter and setter, whatever function each reads from', () => {
    const a = fixes.define({ id: 'a' }, () => ['a']);
    const b = fixes.define({ id: 'b' }, () => ['b']);
    const [da, db] = [Object.getOwnPropertyDescriptor(a, 'fixes')!, Object.getOwnPropertyDescriptor(b, 'fixes')!];
    assert.equal(da.get, db.get);
    assert.equal(da.set, db.set);
    assert.deepEqual([read(a), read(b)], [['a'], ['b']]);
  });

  it('computes once, when first read, what defineOnce is given', () => {
    let calls = 0;
    const finding = fixes.defineOnce({}, () => [`computed ${++calls}`]) as { fixes: string[] };
    assert.equal(calls, 0);
    assert.deepEqual(finding.fixes, ['computed 1']);
    assert.deepEqual(finding.fixes, ['computed 1']);
    assert.equal(calls, 1);
  });

  it('is enumerable as asked: a spread or JSON reads it like a plain property', () => {
    const finding = fixes.define({ id: 'x' }, () => ['x']);
    assert.deepEqual({ ...finding }, { id: 'x', fixes: ['x'] });
    assert.equal(JSON.stringify(finding), '{"id":"x","fixes":["x"]}');
    const hidden = new LazyProperty<number>('hidden', false).define({ id: 'y' }, () => 1);
    assert.equal(JSON.stringify(hidden), '{"id":"y"}');
  });

  it('a value set replaces what it reads, and defining it again replaces the function', () => {
    const finding = fixes.define({}, () => ['first']) as { fixes: string[] };
    fixes.define(finding, () => ['second']);
    assert.deepEqual(finding.fixes, ['second']);
    finding.fixes = ['set'];
    assert.deepEqual(finding.fixes, ['set']);
  });

  it('asks its function for a part by name, and gives the whole value where there is no function to ask', () => {
    const parted = new LazyProperty<string[], 'own'>('fixes', true);
    const asked: (string | undefined)[] = [];
    const lazy = parted.define({}, (part) => (asked.push(part), part === 'own' ? ['own'] : ['own', 'ignore']));
    assert.deepEqual(parted.readPart(lazy, 'own'), ['own']);
    assert.deepEqual((lazy as { fixes: string[] }).fixes, ['own', 'ignore']);
    assert.deepEqual(asked, ['own', undefined]);
    assert.deepEqual(parted.readerOf(lazy, [])('own'), ['own'], 'its reader passes the part on');
    assert.deepEqual(parted.readPart({ fixes: ['plain'] }, 'own'), ['plain']);
  });

  it('tells what gives the value now, without reading it: the function, a plain value or getter, or the fallback', () => {
    let reads = 0;
    const lazy = fixes.define({}, () => [`read ${++reads}`]);
    const reader = fixes.readerOf(lazy, []);
    assert.equal(reads, 0);
    assert.deepEqual(reader(), ['read 1']);
    assert.deepEqual(fixes.readerOf({ fixes: ['plain'] }, [])(), ['plain']);
    assert.deepEqual(fixes.readerOf(Object.defineProperty({}, 'fixes', { get: () => ['a getter of its own'] }), [])(), ['a getter of its own']);
    assert.deepEqual(fixes.readerOf({}, ['fallback'])(), ['fallback']);
  });
});
