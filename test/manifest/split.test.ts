import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitDocuments } from '../../server/src/manifest/split';

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
