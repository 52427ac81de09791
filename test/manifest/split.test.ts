import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitDocuments, splitDocumentsAfterEdit } from '../../server/src/manifest/split';

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

describe('splitDocumentsAfterEdit', () => {
  const LINES = ['---', '...', '--- # next', '... # end', '---x', '...more', 'a: 1', 'b: |', '  ---', '', '- item', '# ---', '---\r', 'c: 3\r'];
  function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
  }

  it('gives what splitting the whole new text gives, after random edits of markers, lines and newlines', () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    for (let round = 0; round < 2000; round++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 14) }, () => pick(LINES));
      const before = lines.join('\n') + (next() < 0.7 ? '\n' : '');
      const start = Math.floor(next() * (before.length + 1));
      const end = Math.min(before.length, start + Math.floor(next() * 12));
      const inserted = Array.from({ length: Math.floor(next() * 3) }, () => pick(['\n', '-', '.', 'x', '---\n', '...\n', '\n---', ' ', '\r\n'])).join('');
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
