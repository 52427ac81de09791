import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../server/src/fixes/edit';

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
