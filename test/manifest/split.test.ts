import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combinedChange, sliceOfChunks, splitAfterChange, splitDocuments, splitDocumentsAfterEdit } from '../../server/src/manifest/split';
import type { TextChange } from '../../server/src/manifest/text';

const texts = (text: string) => splitDocuments(text).map((c) => c.text);

describe('splitDocuments', () => {
  const cases: { name: string; text: string; chunks: string[] }[] = [
    { name: 'one document without markers', text: 'a: 1\n', chunks: ['a: 1\n'] },
    { name: 'the --- line stays with the document it opens', text: 'a: 1\n---\nb: 2\n', chunks: ['a: 1\n', '---\nb: 2\n'] },
    { name: 'a leading --- opens the first document', text: '---\na: 1\n---\nb: 2\n', chunks: ['---\na: 1\n', '---\nb: 2\n'] },
    { name: 'comments before the first --- are a chunk of their own', text: '# header\n# more\n---\na: 1\n', chunks: ['# header\n# more\n', '---\na: 1\n'] },
    { name: '--- with a comment or content after it is a marker', text: 'a: 1\n--- # second\nb: 2\n--- {c: 3}\n', chunks: ['a: 1\n', '--- # second\nb: 2\n', '--- {c: 3}\n'] },
    { name: '... closes the document it ends', text: 'a: 1\n...\n---\nb: 2\n', chunks: ['a: 1\n...\n', '---\nb: 2\n'] },
    { name: 'markers only at column 0: an indented --- is block-scalar content', text: 'a: |\n  ---\n  x\n---\nb: 1\n', chunks: ['a: |\n  ---\n  x\n', '---\nb: 1\n'] },
    { name: '--- or ... followed by a tab is a marker', text: 'a: 1\n...\t# end\n---\t\nb: 2\n---\t{c: 3}\n', chunks: ['a: 1\n...\t# end\n', '---\t\nb: 2\n', '---\t{c: 3}\n'] },
    { name: '---- and ---x are not markers', text: 'a: 1\n----\nb: ---x\n---x\n', chunks: ['a: 1\n----\nb: ---x\n---x\n'] },
    { name: 'CRLF line ends', text: 'a: 1\r\n---\r\nb: 2\r\n', chunks: ['a: 1\r\n', '---\r\nb: 2\r\n'] },
    { name: 'a marker on the last line without a newline', text: 'a: 1\n---', chunks: ['a: 1\n', '---'] },
    { name: 'the empty text is one empty chunk', text: '', chunks: [''] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(texts(c.text), c.chunks));
  }

  it('gives each chunk its offset in the file, and the chunks rebuild the text', () => {
    const text = '# c\n---\na: 1\n...\n---\r\nb: 2\n';
    const chunks = splitDocuments(text);
    for (const chunk of chunks) assert.equal(text.slice(chunk.offset, chunk.offset + chunk.text.length), chunk.text);
    assert.equal(chunks.map((c) => c.text).join(''), text);
  });
});

const LINES = ['---', '...', '--- # next', '... # end', '---x', '...more', 'a: 1', 'b: |', '  ---', '', '- item', '# ---', '---\r', 'c: 3\r'];
const INSERTS = ['\n', '-', '.', 'x', '---\n', '...\n', '\n---', ' ', '\r\n'];
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
}

describe('splitDocumentsAfterEdit', () => {

  it('gives what splitting the whole new text gives, after random edits of markers, lines and newlines', () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    for (let round = 0; round < 2000; round++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 14) }, () => pick(LINES));
      const before = lines.join('\n') + (next() < 0.7 ? '\n' : '');
      const start = Math.floor(next() * (before.length + 1));
      const end = Math.min(before.length, start + Math.floor(next() * 12));
      const inserted = Array.from({ length: Math.floor(next() * 3) }, () => pick(INSERTS)).join('');
      const after = before.slice(0, start) + inserted + before.slice(end);
      const split = splitDocumentsAfterEdit(splitDocuments(before), before, after);
      assert.deepEqual(split.chunks, splitDocuments(after), `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
      const previous = splitDocuments(before);
      for (let i = 0; i < split.head; i++) assert.equal(split.chunks[i].text, previous[i].text);
      for (let k = 1; k <= split.tail; k++) assert.equal(split.chunks[split.chunks.length - k].text, previous[previous.length - k].text);
    }
  });

  it('finds what is unchanged in texts longer than the slices it compares at once', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `---\nkind: ConfigMap\nmetadata: {name: c${i}}\ndata: {k: "${'v'.repeat(i % 50)}"}\n`).join('');
    for (const at of [5, 70_000, 65_536, text.length / 2, text.length - 3]) {
      for (const inserted of ['x', '\n---\n', '']) {
        const after = text.slice(0, at) + inserted + text.slice(at + (inserted ? 0 : 1));
        assert.deepEqual(splitDocumentsAfterEdit(splitDocuments(text), text, after).chunks, splitDocuments(after), `at ${at}, ${JSON.stringify(inserted)}`);
      }
    }
  });

  it('keeps the documents before and after a keystroke in the middle one', () => {
    const docs = ['a: 1\n', '---\nb: 2\n', '---\nc: 3\n'];
    const split = splitDocumentsAfterEdit(splitDocuments(docs.join('')), docs.join(''), docs.join('').replace('b: 2', 'b: 22'));
    assert.deepEqual([split.head, split.tail, split.chunks.length], [1, 1, 3]);
  });
});

describe('splitAfterChange', () => {
  it('gives what splitting the whole new text gives, from the chunks and the change alone', () => {
    const next = random(11);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    for (let round = 0; round < 3000; round++) {
      const before = Array.from({ length: 1 + Math.floor(next() * 14) }, () => pick(LINES)).join('\n') + (next() < 0.7 ? '\n' : '');
      const start = Math.floor(next() * (before.length + 1));
      const change = { start, end: Math.min(before.length, start + Math.floor(next() * 12)), text: Array.from({ length: Math.floor(next() * 3) }, () => pick(INSERTS)).join('') };
      const after = before.slice(0, change.start) + change.text + before.slice(change.end);
      const previous = splitDocuments(before);
      const split = splitAfterChange(previous, change);
      if (!split) {
        assert.equal(after, '', 'only a text left empty is left to the whole text');
        continue;
      }
      assert.deepEqual(split.chunks, splitDocuments(after), `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
      for (let i = 0; i < split.head; i++) assert.equal(split.chunks[i].text, previous[i].text);
      for (let k = 1; k <= split.tail; k++) assert.equal(split.chunks[split.chunks.length - k].text, previous[previous.length - k].text);
    }
  });

  it('splits again only the chunks around the change', () => {
    const chunks = splitDocuments(['a: 1\n', '---\nb: 2\n', '---\nc: 3\n', '---\nd: 4\n', '---\ne: 5\n'].join(''));
    const at = chunks[2].offset + 5;
    const split = splitAfterChange(chunks, { start: at, end: at, text: '3' })!;
    assert.deepEqual([split.head, split.tail], [1, 1], 'the changed chunk and one on each side');
  });

  it('gives chunks of its own, never those it was given (they may be the previous file\'s documents)', () => {
    const chunks = splitDocuments(['a: 1\n', '---\nb: 2\n', '---\nc: 3\n', '---\nd: 4\n', '---\ne: 5\n'].join(''));
    const at = chunks[2].offset + 5;
    const split = splitAfterChange(chunks, { start: at, end: at, text: '3' })!;
    assert.deepEqual(split.chunks[0], chunks[0]);
    assert.ok(split.chunks.every((chunk) => !chunks.includes(chunk)));
  });
});

describe('combinedChange and sliceOfChunks', () => {
  it('one change does what several made one after another do', () => {
    const next = random(5);
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, i) => `---\nk${i}: ${'v'.repeat(Math.floor(next() * 6))}\n`).join('');
      const chunks = splitDocuments(text);
      let current = text;
      const changes: TextChange[] = [];
      for (let k = 0; k < 1 + Math.floor(next() * 4); k++) {
        const start = Math.floor(next() * (current.length + 1));
        const change = { start, end: Math.min(current.length, start + Math.floor(next() * 5)), text: 'xy\n'.slice(0, Math.floor(next() * 4)) };
        current = current.slice(0, change.start) + change.text + current.slice(change.end);
        changes.push(change);
      }
      const combined = combinedChange(chunks, changes);
      assert.equal(text.slice(0, combined.start) + combined.text + text.slice(combined.end), current, JSON.stringify({ text, changes }));
      const from = Math.floor(next() * text.length);
      const to = from + Math.floor(next() * (text.length - from + 1));
      assert.equal(sliceOfChunks(chunks, from, to), text.slice(from, to));
    }
  });
});
