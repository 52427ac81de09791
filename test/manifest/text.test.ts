import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commonPrefixLength, commonSuffixLength, editorLineStartsIn, LineIndex, lineNumberAt, lineStartsIn } from '../../server/src/manifest/text';

/** Every position of every offset, so two indexes can be compared whole. */
const positions = (index: LineIndex) => Array.from({ length: index.text.length + 1 }, (_, offset) => index.position(offset));

describe('LineIndex', () => {
  it('maps offsets to lines and characters and back', () => {
    const index = new LineIndex('a: 1\nbb: 2\n\nc: 3');
    assert.equal(index.lineCount, 4);
    assert.deepEqual(index.position(6), { line: 1, character: 1 });
    assert.equal(index.offset({ line: 3, character: 2 }), 14);
    assert.equal(index.lineText(1), 'bb: 2');
    for (let offset = -1; offset <= index.text.length + 1; offset++) assert.equal(index.lineOf(offset), index.position(offset).line, `offset ${offset}`);
  });

  it('counts lines as editors do: after \\n, \\r\\n, and a \\r alone (a finding below one was placed a line too high)', () => {
    const index = new LineIndex('# notes\rmore notes\r\nkind: A\nname: a\r');
    assert.equal(index.lineCount, 5);
    assert.deepEqual([0, 1, 2, 3, 4].map((line) => index.lineText(line)), ['# notes', 'more notes', 'kind: A', 'name: a', '']);
    assert.deepEqual(index.position(index.text.indexOf('kind')), { line: 2, character: 0 });
    assert.equal(index.offset({ line: 1, character: 0 }), 8);
  });

  it('after changes that bring, take away or join carriage returns, equals the index built from scratch', () => {
    let seed = 11;
    // The high bits: the low ones of this generator repeat within a few steps.
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor(seed / 65_536) % below;
    };
    const pieces = ['\n', '\r', '\r\n', 'x', '', 'a\rb'];
    let text = 'kind: A\r\nname: a\rb: 1\n';
    let index = new LineIndex(text);
    for (let step = 0; step < 600; step++) {
      const start = random(text.length + 1);
      const end = Math.min(text.length, start + random(3));
      const inserted = pieces[random(pieces.length)];
      const next = text.slice(0, start) + inserted + text.slice(end);
      index = LineIndex.afterChange(index, { start, end, text: inserted }, next);
      text = next;
      assert.deepEqual(positions(index), positions(new LineIndex(text)), `step ${step}`);
      assert.equal(index.lineCount, text.split(/\r\n|\r|\n/).length, `step ${step}: ${JSON.stringify(text)}`);
    }
  });

  it('after a change, equals the index of the new text built from scratch', () => {
    const before = 'kind: A\nname: a\n---\nkind: B\nname: b\n---\nkind: C\n';
    const cases: [string, number, number, string][] = [
      ['a letter in the middle document', 20, 36, 'kind: B\nname: bb\n'],
      ['lines added', 20, 36, 'kind: B\nname: b\nx: 1\ny: 2\n'],
      ['lines removed', 20, 36, 'kind: B\n'],
      ['the first document', 0, 16, 'kind: A\n'],
      ['the last document, without its newline', 40, before.length, 'kind: C'],
      ['everything', 0, before.length, 'one\ntwo\n'],
      ['a letter typed inside a line', 22, 22, 'x'],
      ['a line broken in two', 22, 23, '\n'],
    ];
    for (const [what, start, oldEnd, replacement] of cases) {
      const text = before.slice(0, start) + replacement + before.slice(oldEnd);
      const edited = LineIndex.afterChange(new LineIndex(before), { start, end: oldEnd, text: replacement }, text);
      assert.deepEqual(positions(edited), positions(new LineIndex(text)), what);
      assert.equal(edited.lineCount, new LineIndex(text).lineCount, what);
    }
  });
  it('after a chain of changes (typing within one line, then another, lines broken and joined), equals the index built from scratch each time', () => {
    // Typing within a line shares the starts of the index before and moves the lines below: chains of such
    // moves, and changes that end them, must place every offset as a fresh index does.
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    let text = 'kind: A\nname: a\n---\nkind: B\nname: b\n---\nkind: C\nname: c\n';
    let index = new LineIndex(text);
    let cursor = 10;
    for (let step = 0; step < 400; step++) {
      const roll = random(10);
      // Mostly keystrokes at the cursor; now and then it jumps, deletes, breaks a line or joins two.
      if (roll === 0) cursor = random(text.length + 1);
      const start = Math.min(cursor, text.length);
      const end = roll === 1 ? Math.min(text.length, start + 1 + random(3)) : start;
      const inserted = roll === 2 ? '\n' : roll === 1 ? '' : 'xyz'[random(3)];
      index = LineIndex.afterChange(index, { start, end, text: inserted }, text.slice(0, start) + inserted + text.slice(end));
      text = text.slice(0, start) + inserted + text.slice(end);
      cursor = start + inserted.length;
      const fresh = new LineIndex(text);
      assert.deepEqual(positions(index), positions(fresh), `step ${step}`);
      assert.equal(index.lineCount, fresh.lineCount, `step ${step}`);
      for (let line = 0; line < fresh.lineCount; line++) {
        assert.equal(index.lineText(line), fresh.lineText(line), `step ${step}, line ${line}`);
        assert.equal(index.offset({ line, character: 3 }), fresh.offset({ line, character: 3 }), `step ${step}, line ${line}`);
      }
    }
  });
});

describe('lineStartsIn', () => {
  it('gives where every line starts, past the size its array starts with', () => {
    for (const text of ['', 'a', '\n', 'a\nb\n', Array.from({ length: 3000 }, (_, i) => 'x'.repeat(i % 7)).join('\n')]) {
      const expected = [0];
      for (let i = 0; i < text.length; i++) if (text[i] === '\n') expected.push(i + 1);
      assert.deepEqual(Array.from(lineStartsIn(text)), expected);
    }
  });
});

describe('editorLineStartsIn', () => {
  it('gives where every line starts after any line break, and is lineStartsIn without a \\r alone', () => {
    for (const text of ['', '\r', '\r\n', 'a\rb\r\nc\nd\r\r\n', '\r\r', 'a\n\rb', Array.from({ length: 3000 }, (_, i) => 'x'.repeat(i % 7)).join('\r')]) {
      const expected = [0];
      for (let i = 0; i < text.length; i++) if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) expected.push(i + 1);
      assert.deepEqual(Array.from(editorLineStartsIn(text)), expected, JSON.stringify(text.slice(0, 40)));
    }
    const crlf = 'a\r\nb\r\n';
    assert.deepEqual(editorLineStartsIn(crlf), lineStartsIn(crlf));
  });
});

describe('lineNumberAt', () => {
  it('counts the lines before an offset as an editor does, a \\r alone among them (a Chart.yaml problem was placed a line too high)', () => {
    // The line breaks wholly before the offset: inside a `\r\n`, its `\r` alone is none.
    const editorLine = (text: string, offset: number) => text.slice(0, offset).split(/\r\n|\r|\n/).length - 1 - (text[offset - 1] === '\r' && text[offset] === '\n' ? 1 : 0);
    for (const text of ['a\rb\r\nc\nd', '\r\r\n\n', 'no break', '# note\rmore\r\ndependencies:\n']) {
      for (let offset = 0; offset <= text.length; offset++) assert.equal(lineNumberAt(text, offset), editorLine(text, offset), `${JSON.stringify(text)} at ${offset}`);
    }
    assert.equal(lineNumberAt('# note\rmore\r\ndependencies:\n', 14), 2, 'dependencies: on the third line');
  });
});

describe('commonPrefixLength and commonSuffixLength', () => {
  it('count the characters two texts share at each end, across the long slices they compare first', () => {
    const long = 'a'.repeat(70_000) + 'b'.repeat(70_000);
    for (const at of [0, 1, 15, 16, 4095, 65_536, 70_000, long.length - 1]) {
      const edited = `${long.slice(0, at)}X${long.slice(at + 1)}`;
      assert.equal(commonPrefixLength(long, edited), at, `prefix, edit at ${at}`);
      assert.equal(commonSuffixLength(long, edited, long.length), long.length - at - 1, `suffix, edit at ${at}`);
    }
    assert.equal(commonPrefixLength('abc', 'abc'), 3);
    assert.equal(commonPrefixLength('abc', 'abcdef'), 3);
    assert.equal(commonSuffixLength('xbc', 'abc', 2), 2, 'never more than the limit');
  });
});
