import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { styleOf } from '../../server/src/fixes/style';
import { parseManifest, type ManifestFile } from '../../server/src/manifest/parse';

const config = (name: string, quote: string, indent = '  ') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n${indent}name: ${name}\ndata:\n${indent}a: ${quote}x${quote}\n`;

describe('styleOf', () => {
  it('writes as the file does: its indent, its sequences under their key or not, its quotes, its line ends', () => {
    const sequences = 'apiVersion: v1\nkind: Pod\nmetadata:\n    name: p\nspec:\n    containers:\n    - name: a\n      image: "b"\n';
    assert.deepEqual(styleOf(parseManifest('file:///s.yaml', sequences)), { indent: 4, indentSeq: false, singleQuote: false, newline: '\n' });
    const crlf = config('c', "'").replace(/\n/g, '\r\n');
    assert.deepEqual(styleOf(parseManifest('file:///c.yaml', crlf)), { indent: 2, indentSeq: true, singleQuote: true, newline: '\r\n' });
  });

  it('writes the line ends most of its lines have (one CRLF header made every inserted line CRLF)', () => {
    const lf = config('c', "'");
    assert.equal(styleOf(parseManifest('file:///h.yaml', `# generated on Windows\r\n${lf}`)).newline, '\n');
    assert.equal(styleOf(parseManifest('file:///w.yaml', `# generated on Linux\n${lf.replace(/\n/g, '\r\n')}`)).newline, '\r\n');
  });

  it("reads the file's start from its documents, never the whole text: a large file is edited in pieces", () => {
    // 100,000 characters of single quotes, then 400,000 of double quotes.
    const single = config('s', "'");
    const double = config('d', '"');
    const text = `${single}---\n`.repeat(Math.ceil(100_000 / single.length)) + `${double}---\n`.repeat(Math.ceil(400_000 / double.length));
    const parsed = parseManifest('file:///big.yaml', text);
    const file: ManifestFile = Object.create(parsed, { text: { get: () => assert.fail('the whole text was read') } });
    assert.equal(styleOf(file).singleQuote, true, 'the quotes of its start');
    assert.equal(styleOf(parseManifest('file:///big2.yaml', text.slice(text.indexOf(double)))).singleQuote, false);
  });
});
