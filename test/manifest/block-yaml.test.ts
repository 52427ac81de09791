import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readBlockYaml } from '../../server/src/manifest/block-yaml';
import { splitDocuments } from '../../server/src/manifest/split';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { generateManifests } from '../../bench/generate';
import { CORPUS, mutate, pick, seeded } from '../fuzz/mutate';
import { mismatchOf, packageRead } from './package-read';

const RENDERED = join('..', 'shared', 'corpus-rendered');

/** Why our read of `text` is not the package's, if it is not; undefined when we leave the text to the package. */
const mismatch = (text: string) => mismatchOf(readBlockYaml, text);

/** Each text is read, and read as the package reads it. */
function readsAsThePackage(texts: string[]): void {
  for (const text of texts) {
    assert.ok(readBlockYaml(text), `it reads ${JSON.stringify(text)}`);
    assert.equal(mismatch(text), undefined, JSON.stringify(text));
  }
}

function documentsOf(paths: string[]): string[] {
  return paths.flatMap((path) => splitDocuments(readFileSync(path, 'utf8')).map((chunk) => chunk.text));
}

const realDocuments = (): string[] => [
  ...(existsSync(CORPUS) ? documentsOf(findManifestFiles(CORPUS)) : []),
  ...(existsSync(RENDERED) ? documentsOf(findManifestFiles(RENDERED)) : []),
  ...splitDocuments(generateManifests(2000)).map((chunk) => chunk.text),
];

describe('readBlockYaml', () => {
  it('reads every real document it accepts as the yaml package composes it, and accepts most of them', () => {
    const documents = realDocuments();
    let accepted = 0;
    let valid = 0;
    for (const text of documents) {
      if (packageRead(text)) valid++;
      if (readBlockYaml(text)) accepted++;
      const found = mismatch(text);
      assert.equal(found, undefined, `${found}\n${text.slice(0, 400)}`);
    }
    assert.ok(accepted >= valid * 0.9, `it reads ${accepted} of the ${valid} valid documents: most manifests must not need the package`);
  });

  it('reads the generated manifests without the package', () => {
    const documents = splitDocuments(generateManifests(500)).map((chunk) => chunk.text).filter((text) => text.trim() !== '---');
    assert.deepEqual(documents.filter((text) => !readBlockYaml(text)), []);
  });

  it('gives scalars the values Kubernetes gives them, as the package reading does (see plain-scalar.test.ts)', () => {
    let accepted = 0;
    const scalars = ['~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'yes', 'off', '0o17', '0o19', '017', '0x1F', '0x1g', '1e3', '-1E-3', '.5', '1.', '1.50', '+12', '-0', '1_000', '.inf', '-.Inf', '.NaN', '.nan.', '12:30', '1.2.3', '0.', '+.5e+2', 'e3', '-', '--', 'x:y', 'a #b', 'a#b'];
    for (const scalar of scalars) {
      for (const text of [`k: ${scalar}\n`, `- ${scalar}\n`, `k: [${scalar}]\n`, `${scalar}: v\n`]) {
        if (readBlockYaml(text)) accepted++;
        assert.equal(mismatch(text), undefined, JSON.stringify(text));
      }
    }
    assert.ok(accepted >= 140, `it reads ${accepted} of these texts, nearly all`);
    assert.deepEqual(readBlockYaml('a: 0x1F\nb: 1.50\nc: ~\nd: "1"\ne: yes\nf: 010\ny: on\n')?.value, { a: 31, b: 1.5, c: null, d: '1', e: true, f: 8, true: true });
  });

  it('places comments and blank lines in the ranges the package gives them', () => {
    readsAsThePackage([
      'a: 1 # c\nb:\n  c: x\n  d:\n  - 1\n  - y: 2\n    z: "q"\n  # trailing\ne: [1, {f: g}]\n\n',
      'a:\n  x: 1\n\n  # c\n\n  # d\nb: 2\n# e\n\n',
      'a:\n  b:\n    x: 1\n    # c\n  y: 2\n',
      'a:\n  x: 1\n    # c\nb: 2\n',
      'a:\n  - x: 1\n    # c\n  - 2\n',
      'spec:\n  ports:\n  - containerPort: 9000\n    hostPort: 9000\n  # mounts\n  volumeMounts: []\n',
      'a:\nb: 1\nc:   # x\nd:',
      'l:\n- \n- x\n-\n- {}\n- [ ] # c\n- "q" # c\n- \'it\'\'s\'\n',
      '---\n# c\nk: v   \n',
      'a: |\n  line1\n\n  line2\n\nb: >-\n  x\n  y\n\n  z\nc: 1',
      'a:\n  s: |\n    text\n  # c\nb: 1\n',
    ]);
  });

  it('folds scalars written over several lines as the package does', () => {
    readsAsThePackage([
      'description: Refresh indicates if the latest revision\n  should be used\n\n  --dry-run` or "quoted"\n\n\n  - not an item\nnext: 1\n',
      '- one\n  two\n- three\n',
      "a:\n  description: 'AllowEmpty allows apps have zero live resources\n    (default: false)''s\n\n    end'\n  b: 2\n",
      "k: 'it''s\n  fine' # c\n",
    ]);
  });

  it('leaves to the package what it does not read: anchors, aliases, tags, multi-line scalars, tabs, CR line ends, a BOM, document markers, templates, errors', () => {
    const texts = [
      'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a: one\n  two: x\n', 'a: one\n  # two\n  three\n', 'a: "one\n  two"\n', "a: 'one\ntwo'\n", 'a: [1,\n  2]\n', 'a:\tb\n', 'a: 1\r\nb: 2\r\n',
      '%YAML 1.2\n---\na: 1\n', 'a: |2\n   x\n', 'a: |+\n  x\n\n', '? a\n: b\n', 'a: b: c\n', '- a\nb: c\n', 'a: "unclosed\n', 'a: 1\n b: 2\n',
      'plain scalar\n', '# only a comment\n', '', 'a: 1\n...\n', 'a:\n  # comment\nb: 1\n', '<<: {a: 1}\n', '__proto__: 1\n', 'a: 1\nb: 2\na: 3\n', 'k: {x: 1, x: 2}\n', '1: a\n"1": b\n', 'constructor: x\n',
      `deep: ${'['.repeat(20000)}${']'.repeat(20000)}\n`,
      '\ufeffa: 1\n', 'a: *x\n', '[a]: 1\n', 'a: 1\n---\nb: 2\n', 'k: {{ .Values.x }}\n', '- {{ x }}\n',
    ];
    for (const text of texts) assert.equal(readBlockYaml(text), undefined, JSON.stringify(text));
  });

  it('mutated documents: whenever it reads one, it reads it as the package does', () => {
    const random = seeded(13);
    const documents = realDocuments().filter((text) => text.length < 20_000);
    const PIECES = [' ', '  ', '\n', '#', ' #x', ':', ': ', '- ', '"', "'", '[', ']', '{', '}', ',', '|', '>', '|-', '\n  ', '\n    # c\n', '\n# c\n', '\n\n', '~', '"a\\"b"', "'it''s'", '\n- ', '  - a: b\n', '[a, {b: c}]', '\n  a: |\n    x\n\n    y\n'];
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      let text = pick(random, documents);
      if (random() < 0.5) {
        text = mutate(text, random, 1 + Math.floor(random() * 2)).text;
      } else {
        const at = Math.floor(random() * (text.length + 1));
        text = text.slice(0, at) + pick(random, PIECES) + text.slice(at + Math.floor(random() * 3));
      }
      if (readBlockYaml(text)) accepted++;
      const found = mismatch(text);
      assert.equal(found, undefined, `${found}\n${JSON.stringify(text.slice(0, 600))}`);
    }
    assert.ok(accepted > 500, `it read ${accepted} of the mutated documents`);
  });
});
