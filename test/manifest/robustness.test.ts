import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateManifests } from '../../bench/generate';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import type { Finding } from '../../server/src/rules/types';

/** Parses and analyses with every registered rule; a hang fails the test through its timeout, not a timing assertion. */
function analyse(uri: string, text: string): { findings: Finding[]; resources: number; errors: string[] } {
  const inventory = new Inventory();
  const file = parseManifest(uri, text);
  inventory.setFile(file);
  const findings = analyzeFile(file, inventory);
  assert.deepEqual(findings.filter((f) => f.message.startsWith('Internal error')).map((f) => f.message), [], 'no rule trips over it');
  return { findings, resources: file.resources.length, errors: file.documents.flatMap((d) => (d.parsed.error ? [d.parsed.error.message] : [])) };
}

const HANG_GUARD = { timeout: 120_000 };

describe('bad and big input: a clear result, never a crash or a hang', () => {
  it('a 35,000-line multi-document file', HANG_GUARD, () => {
    const text = generateManifests(35_000);
    const { findings, resources, errors } = analyse('big.yaml', text);
    assert.ok(text.split('\n').length >= 35_000);
    assert.deepEqual(errors, []);
    assert.ok(resources > 1500, `${resources} resources`);
    assert.ok(findings.some((f) => f.ruleId === 'single-replica'), 'the one-replica workloads are found');
  });

  it('binary garbage is not a manifest: no resources, no findings', HANG_GUARD, () => {
    const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + (i >> 3)) % 256));
    for (const text of [bytes.toString('latin1'), bytes.toString('utf8')]) {
      const { findings, resources } = analyse('garbage.yaml', text);
      assert.equal(resources, 0);
      assert.deepEqual(findings, []);
    }
  });

  for (const [name, text] of [
    ['an empty file', ''],
    ['a file of only comments', '# nothing here yet\n# apiVersion: v1\n'],
    ['only document markers', '---\n---\n...\n'],
    ['only whitespace and CRLF', '\r\n  \r\n\t\r\n'],
  ] as const) {
    it(`${name}: no resources, no findings`, () => {
      assert.deepEqual(analyse('empty.yaml', text), { findings: [], resources: 0, errors: [] });
    });
  }

  it('a 10 MB single-line JSON manifest', HANG_GUARD, () => {
    const data = Object.fromEntries(Array.from({ length: 250_000 }, (_, i) => [`key-${i}`, `value-${i}-padding-padding`]));
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge' }, data });
    assert.ok(text.length > 10_000_000 && !text.includes('\n'));
    const { resources, errors } = analyse('huge.json', text);
    assert.deepEqual(errors, []);
    assert.equal(resources, 1);
  });

  it('one JSON document over 16 MB is not read in one piece (the 157 MB one ran the server out of memory): one clear invalid-yaml finding', HANG_GUARD, () => {
    const item = (i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c-${i}` }, data: { padding: 'x'.repeat(1_000) } });
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: 17_000 }, (_, i) => item(i)) });
    assert.ok(text.length > 16 * 2 ** 20);
    const { resources, errors } = analyse('dump.json', text);
    assert.equal(resources, 0);
    assert.deepEqual(errors, ['one document of 17.7 MB in JSON, or in YAML beyond plain block style (flow collections over lines, anchors, tags), is more than the 16.0 MB read in one piece: not analysed (split it into documents)']);
  });

  it('one block YAML document over 16 MB that only the package reads (an anchor) is refused as such, not called JSON', HANG_GUARD, () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &n big\n  annotations:\n${Array.from({ length: 400_000 }, (_, i) => `    a${i}: "${'x'.repeat(30)}"\n`).join('')}`;
    assert.ok(text.length > 16 * 2 ** 20);
    assert.match(analyse('big.yaml', text).errors[0], /^one document of \d+\.\d MB in JSON, or in YAML beyond plain block style \(flow collections over lines, anchors, tags\), is more than/);
  });

  it('a 10 MB single-line scalar', HANG_GUARD, () => {
    assert.deepEqual(analyse('line.yaml', 'x'.repeat(10_000_000)), { findings: [], resources: 0, errors: [] });
  });

  it('deeply nested flow collections get one clear invalid-yaml finding', HANG_GUARD, () => {
    for (const [open, close] of [['[', ']'], ['{a: ', '}']]) {
      const { findings, errors } = analyse('deep.yaml', `apiVersion: v1\nkind: ConfigMap\ndata: ${open.repeat(20_000)}1${close.repeat(20_000)}\n`);
      assert.deepEqual(errors, ['it nests collections more than 256 deep: not read']);
      assert.deepEqual(findings.map((f) => f.ruleId), ['invalid-yaml']);
    }
  });

  it('duplicate keys get one invalid-yaml finding on the second key', () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  replicas: 3\n';
    const { findings } = analyse('dup.yaml', text);
    assert.deepEqual(findings.map((f) => [f.ruleId, f.range!.start.line, f.range!.start.character]), [['invalid-yaml', 6, 2]]);
    assert.match(findings[0].message, /the key "replicas" appears twice/);
  });

  it('a mapping of 100,000 keys is checked for duplicates in linear time', HANG_GUARD, () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `  k${i}: v`);
    const { errors } = analyse('wide.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wide}\ndata:\n${keys.join('\n')}\n  k5: again\n`);
    assert.deepEqual(errors, ['the key "k5" appears twice in one mapping. Which one Kubernetes keeps depends on the tool; remove one.']);
  });
});
