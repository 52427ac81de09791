import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineMover } from '../../server/src/language/line-moves';
import { seeded } from '../fuzz/mutate';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`);
const text = (list: string[]) => list.join('\n');

describe('lineMover', () => {
  const before = lines(12);

  it('leaves every line in place when nothing changed', () => {
    const move = lineMover(text(before), text(before));
    assert.deepEqual(before.map((_, i) => move(i)), before.map((_, i) => i));
  });

  it('moves the lines below an insertion by the lines inserted', () => {
    const after = [...before.slice(0, 3), 'new a', 'new b', ...before.slice(3)];
    const move = lineMover(text(before), text(after));
    assert.deepEqual([move(2), move(3), move(11)], [2, 5, 13]);
  });

  it('two edits far apart: a line between them moves by the first alone, one below by both (it stayed where it was, on another line)', () => {
    const after = ['# one', '# two', ...before.slice(0, 10), `#x${before[10]}`, before[11]];
    const move = lineMover(text(before), text(after));
    assert.equal(move(1), 3);
    assert.equal(move(9), 11);
    assert.equal(move(11), 13);
    for (const line of [0, 5, 9, 11]) assert.equal(after[move(line)], before[line], `line ${line}`);
  });

  it('a changed line stays between the unchanged lines around it', () => {
    const after = [...before.slice(0, 4), 'changed', ...before.slice(5, 8), 'removed two, added none', ...before.slice(10)];
    const move = lineMover(text(before), text(after));
    assert.equal(move(4), 4);
    assert.equal(after[move(5)], before[5]);
    assert.equal(after[move(10)], before[10]);
    assert.ok(move(8) >= move(7) + 1 && move(8) <= move(10) - 1, String(move(8)));
  });

  it('a block of lines changed in place: each changed line keeps its place within the block', () => {
    const after = [...before.slice(0, 4), 'x', 'y', 'z', ...before.slice(7)];
    const move = lineMover(text(before), text(after));
    assert.deepEqual([4, 5, 6].map(move), [4, 5, 6]);
  });

  it('a hundred lines changed at both ends and two inserted near the top: a line between them moves by the two (more changes than a shallow search allows)', () => {
    const many = lines(300);
    const after = many.map((line, i) => (i < 50 || i >= 250 ? `${line} edited` : line));
    after.splice(25, 0, 'inserted 1', 'inserted 2');
    const move = lineMover(text(many), text(after));
    assert.equal(move(100), 102);
    assert.equal(after[move(200)], many[200]);
  });

  it('lines removed at the end: what is left keeps its place, and nothing moves past the text', () => {
    const after = before.slice(0, 6);
    const move = lineMover(text(before), text(after));
    assert.equal(move(5), 5);
    assert.ok(move(9) <= 5);
  });

  it('too many lines changed to match one by one: lines before the first change and after the last still move right', () => {
    const big = lines(5_000);
    const after = big.map((line, i) => (i > 0 && i < 4_999 ? `${line} edited` : line));
    const move = lineMover(text(big), text([...after.slice(0, 1), 'inserted', ...after.slice(1)]));
    assert.equal(move(0), 0);
    assert.equal(move(4_999), 5_000);
  });
});

describe('lineMover on random edits', () => {
  function longestCommon(a: string[], b: string[]): number {
    const row = new Array<number>(b.length + 1).fill(0);
    for (const x of a) {
      let diagonal = 0;
      for (let j = 1; j <= b.length; j++) {
        const kept = row[j];
        row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
        diagonal = kept;
      }
    }
    return row[b.length];
  }

  it('keeps every line in the text and in order, and keeps in place as many lines as the two texts share', () => {
    const next = seeded(7);
    for (let n = 0; n < 300; n++) {
      const before = Array.from({ length: 1 + Math.floor(next() * 30) }, () => `v${Math.floor(next() * 5)}`);
      const after = [...before];
      for (let edits = Math.floor(next() * 6); edits > 0; edits--) {
        const at = Math.floor(next() * (after.length + 1));
        if (next() < 0.5 && after.length > 1) after.splice(Math.min(at, after.length - 1), 1);
        else after.splice(at, 0, `v${Math.floor(next() * 5)}`);
      }
      const move = lineMover(before.join('\n'), after.join('\n'));
      const moved = before.map((_, i) => move(i));
      assert.ok(moved.every((line, i) => line >= 0 && line < after.length && (i === 0 || line >= moved[i - 1])), `${before} → ${after}: ${moved}`);
      assert.ok(moved.filter((line, i) => after[line] === before[i]).length >= longestCommon(before, after), `${before} → ${after}: ${moved}`);
    }
  });
});
