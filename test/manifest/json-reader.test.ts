import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readJson } from '../../server/src/manifest/json-reader';
import { FlowMap } from '../../server/src/manifest/package-nodes';
import { parseManifest, parseUncached } from '../../server/src/manifest/parse';
import { splitDocuments } from '../../server/src/manifest/split';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { generateManifests } from '../../bench/generate';
import { CORPUS, pick, seeded } from '../fuzz/mutate';
import { mismatchOf } from './package-read';

const mismatch = (text: string) => mismatchOf(readJson, text);

/** Each text is read, and read as the package reads it. */
function readsAsThePackage(texts: string[]): void {
  for (const text of texts) {
    assert.ok(readJson(text), `it reads ${JSON.stringify(text.slice(0, 200))}`);
    assert.equal(mismatch(text), undefined, JSON.stringify(text.slice(0, 600)));
  }
}

/** The plain values of real manifests: the corpus's documents and generated ones (read once). */
function realValues(): unknown[] {
  const texts = [...(existsSync(CORPUS) ? findManifestFiles(CORPUS).map((path) => readFileSync(path, 'utf8')) : []), generateManifests(1500)];
  values ??= texts.flatMap((text) => splitDocuments(text).map((chunk) => parseUncached(chunk.text).value)).filter((value) => value && typeof value === 'object');
  return values;
}
let values: unknown[] | undefined;

/** JSON as programs write it: kubectl's and JSON.stringify's indentation, and none. */
function written(value: unknown): string[] {
  return [JSON.stringify(value), `${JSON.stringify(value, null, 2)}\n`, JSON.stringify(value, null, 4), `${JSON.stringify(value, null, 1)}\n`];
}

describe('readJson', () => {
  it('reads real manifests written as JSON, however indented, as the yaml package composes them', () => {
    const values = realValues();
    assert.ok(values.length > 300, `${values.length} manifests`);
    // Each manifest in one of the layouts, in turn, and not the largest CRDs (megabytes each): the package takes seconds for them.
    readsAsThePackage(values.map((value, i) => written(value)[i % 4]).filter((text) => text.length < 200_000));
    readsAsThePackage([`${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: values.slice(0, 200) }, null, 2)}\n`]);
  });

  it('reads the JSON manifests of the corpus', () => {
    const files = existsSync(CORPUS) ? findManifestFiles(CORPUS).filter((path) => path.endsWith('.json')) : [];
    readsAsThePackage(files.map((path) => readFileSync(path, 'utf8')));
  });

  it('reads escapes, numbers, empty collections, spaces around punctuation and trailing line ends as the package does', () => {
    readsAsThePackage([
      '{"a": "\\u003c\\u00e9\\ud83d\\ude00 \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t", "b": ["", "x"]}',
      '[0, -0, 1.5, -2.5e-3, 1E+2, 12345678901234567890, 1e400, true, false, null]',
      '{"a": {}, "b": [], "c": { }, "d": [ ], "e": [\n], "f": {\n  }}',
      '{"b" : 1, "c"   :   [1] , "d":{"e":1}  }',
      '{\n  "a": 5\n  ,"b": "s"  \n}  \n',
      '[\n  1\n  , 2 ,\n  "x"\n]',
      '{"a": 1}\n\n\n',
      '{"a": [1\n  ]\n  , "b": 2}',
      `{"${'k'.repeat(2000)}": ["${'v'.repeat(5000)}"]}`,
      '[[[[{"a": [[]]}]]]]',
      `${'['.repeat(256)}${']'.repeat(256)}`,
    ]);
  });

  it('leaves to the package what it does not read: comments, blank lines, tabs, CR line ends, a BOM, a value below its key, duplicate keys, nesting past 256, what is not JSON', () => {
    const texts = [
      '{"a": 1 # c\n}', '{\n  "a": 1,\n\n  "b": 2\n}', '{\t"a": 1}', '{"a": 1}\r\n', '\ufeff{"a": 1}', '{"a":\n  1}', '{"a"\n: 1}', '{"a": 1, "a": 2}',
      '{"__proto__": {}}', '{"<<": {"a": 1}}', '{a: 1}', "{'a': 1}", '{"a": 1,}', '[1, 2,]', '[01]', '[+1]', '[.5]', '[yes]', '[1 2]', '{"a" 1}', '{"a": "x\ny"}',
      '{"a": "\\x41"}', '{"a": "\\u00g1"}', '{"a": "unclosed', '[1', '{"a": 1}}', '{"a": 1} x', ' {"a": 1}', 'a: 1\n', '{{ .Values.x }}', '[\u2028]', `${'['.repeat(257)}${']'.repeat(257)}`, `${'['.repeat(20000)}${']'.repeat(20000)}`,
    ];
    for (const text of texts) assert.equal(readJson(text), undefined, JSON.stringify(text.slice(0, 80)));
  });

  it('mutated JSON: whenever it reads a text, it reads it as the package does', () => {
    const random = seeded(29);
    const documents = realValues()
      .slice(0, 400)
      .flatMap(written)
      .filter((text) => text.length < 20_000);
    const PIECES = [' ', '  ', '\n', '\n  ', '\n\n', ',', ':', ' :', ', ', '[', ']', '{', '}', '"', '\\', '\\u0041', '\\n', '0', '-', '1e5', 'null', '{}', '[]', '[1, {"x": 2}]', '#', ' # c\n', '\t'];
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      let text = pick(random, documents);
      for (let edits = 1 + Math.floor(random() * 2); edits > 0; edits--) {
        const at = Math.floor(random() * (text.length + 1));
        text = text.slice(0, at) + pick(random, PIECES) + text.slice(at + Math.floor(random() * 3));
      }
      if (readJson(text)) accepted++;
      const found = mismatch(text);
      assert.equal(found, undefined, `${found}\n${JSON.stringify(text.slice(0, 600))}`);
    }
    assert.ok(accepted > 250, `it read ${accepted} of the mutated texts`);
  });

  it('is how a JSON document is parsed, within the size the package would read, and a file of it analysed', () => {
    const text = `${JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1 } }, null, 2)}\n`;
    assert.ok(parseUncached(text).root instanceof FlowMap);
    const file = parseManifest('file:///w/web.json', text);
    assert.deepEqual(
      file.resources.map((r) => [r.kind, r.name, r.object.spec.replicas]),
      [['Deployment', 'web', 1]],
    );
  });
});
