import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits, composeEdits, composeRounds, type TextEdit } from '../../server/src/fixes/edit';

describe('applyEdits', () => {
  it('applies edits given in any order, each against the original offsets', () => {
    const text = 'replicas: 1\nimage: a\n';
    const edits = [
      { start: 19, end: 20, text: 'b' },
      { start: 10, end: 11, text: '3' },
      { start: 0, end: 0, text: '# tuned\n' },
    ];
    assert.equal(applyEdits(text, edits), '# tuned\nreplicas: 3\nimage: b\n');
  });

  it('keeps insertions at one offset in the order given, as an editor applies them', () => {
    assert.equal(applyEdits('ab', [{ start: 1, end: 1, text: 'X' }, { start: 1, end: 1, text: 'Y' }]), 'aXYb');
  });

  it('puts an insertion before a replacement that starts where it is', () => {
    assert.equal(applyEdits('abc', [{ start: 1, end: 2, text: 'B' }, { start: 1, end: 1, text: '>' }]), 'a>Bc');
  });

  it('refuses overlapping edits', () => {
    assert.throws(() => applyEdits('abcdef', [{ start: 1, end: 4, text: '' }, { start: 3, end: 5, text: '' }]), /overlapping edits/);
  });

  it('applies one edit in each of thousands of places in one pass', () => {
    const text = 'x\n'.repeat(5000);
    const edits = Array.from({ length: 5000 }, (_, i) => ({ start: i * 2, end: i * 2 + 1, text: String(i % 10) }));
    const fixed = applyEdits(text, edits);
    assert.equal(fixed.split('\n')[4321], '1');
    assert.equal(fixed.length, text.length);
  });
});

/** A seeded generator, so that a failure names the case that fails. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

/**
 * Edits of `text` that do not overlap: insertions, deletions and replacements, some touching another,
 * some inserting where another inserts.
 */
function randomEdits(next: () => number, text: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let at = 0;
  while (at <= text.length && edits.length < 6) {
    const start = at + Math.floor(next() * 3);
    if (start > text.length) break;
    const end = Math.min(text.length, start + Math.floor(next() * 3));
    edits.push({ start, end, text: ['', 'x', 'yz', '\n', 'new: 1\n'][Math.floor(next() * 5)] });
    at = end;
  }
  // In any order, as fixes give them: applyEdits orders them by place, keeping insertions at one offset as given.
  return edits.sort(() => next() - 0.5);
}

describe('composeEdits', () => {
  it('gives edits of the first text that make what two rounds of edits make of it', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const text0 = 'abcdefghij\nklmnop'.slice(0, 4 + Math.floor(next() * 14));
      const first = randomEdits(next, text0);
      const text1 = applyEdits(text0, first);
      const then = randomEdits(next, text1);
      const composed = composeEdits(first, text1, then);
      assert.equal(applyEdits(text0, composed), applyEdits(text1, then), `seed ${seed}`);
    }
  });

  it('keeps apart the edits that do not touch, and joins an edit to the text another wrote', () => {
    const text0 = 'replicas: 1\nimage: a\n';
    const first = [{ start: 10, end: 11, text: '2' }, { start: 21, end: 21, text: 'probe: x\n' }];
    const text1 = applyEdits(text0, first);
    const then = [{ start: 0, end: 0, text: '# fixed\n' }, { start: text1.indexOf('x\n'), end: text1.indexOf('x\n') + 1, text: 'y' }];
    assert.deepEqual(composeEdits(first, text1, then), [
      { start: 0, end: 0, text: '# fixed\n' },
      { start: 10, end: 11, text: '2' },
      { start: 21, end: 21, text: 'probe: y\n' },
    ]);
  });
});

describe('composeRounds', () => {
  it('leaves out what a later round wrote back as it was', () => {
    const text0 = 'replicas: 1\nimage: a\n';
    const first = [{ start: 10, end: 11, text: '2' }, { start: 21, end: 21, text: 'probe: x\n' }];
    const text1 = applyEdits(text0, first);
    const then = [{ start: 10, end: 11, text: '1' }];
    assert.deepEqual(composeRounds([{ text: text0, edits: first }, { text: text1, edits: then }]), [{ start: 21, end: 21, text: 'probe: x\n' }]);
  });

  it('gives no edit for no round', () => {
    assert.deepEqual(composeRounds([]), []);
  });
});
