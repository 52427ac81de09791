import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest, parseWithPackage } from '../../server/src/manifest/parse';
import { plainValue } from '../../server/src/manifest/plain-scalar';
import { seeded } from '../fuzz/mutate';
import { renderTools } from '../render/render-tools';
import { kubectlReads } from './kubectl-reads';

const configMap = (entries: string[]) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scalars\ndata:\n${entries.map((entry) => `  ${entry}\n`).join('')}`;

/** Scalars made of what numbers, booleans and nulls are written with, in every order. */
function scalars(count: number): string[] {
  const random = seeded(13);
  const parts = ['0', '1', '7', '8', '9', 'x', 'X', 'o', 'O', 'b', 'B', 'f', 'F', '_', '.', 'e', 'E', '+', '-', 'y', 'n', 'N', 'on', 'off', 'yes', 'no', 'inf', 'nan', 'true', ':', '0x', '0o', '0b'];
  const made = new Set<string>();
  while (made.size < count) {
    const length = 1 + Math.floor(random() * 4);
    const scalar = Array.from({ length }, () => parts[Math.floor(random() * parts.length)]).join('');
    // A lone dash opens a sequence entry, and a colon at the end makes a key.
    if (!/^-[-+.]*$/.test(scalar) && !scalar.endsWith(':')) made.add(scalar);
  }
  return [...made];
}

const KNOWN = ['9', '010', '-010', '0O10', '0o10', '08', '1_000', '0x_1F', '0_10', 'yes', 'Y', 'N', 'on', 'Off', 'tRUE', 'yEs', '~', 'null', '.5e1', '+.5', '1.', '1e3', '0e5', '0xFFFFFFFFFFFFFFFF', '0x1FFFFFFFFFFFFFFFF', '99999999999999999999', '-0b101', '+0x1F', '0X1F', '0B101', '1:30', '2024-01-01', '.', '._5', '1__0', '1.5_0', '-0', '0x', 'web', '1.5e400', '.5e400', '-1e999'];

describe('plain scalars as Kubernetes reads them', () => {
  it('reads booleans, octal, binary and underscored numbers the YAML 1.1 way, and leaves times and dates as strings', () => {
    const read = Object.fromEntries(KNOWN.map((s) => [s, plainValue(s)]));
    assert.deepEqual(read, {
      '9': 9, '010': 8, '-010': -8, '0O10': 8, '0o10': 8, '08': 8, '1_000': 1000, '0x_1F': 31, '0_10': 8,
      yes: true, Y: true, N: false, on: true, Off: false, tRUE: 'tRUE', yEs: 'yEs', '~': null, null: null,
      '.5e1': 5, '+.5': 0.5, '1.': 1, '1e3': 1000, '0e5': 0, '0xFFFFFFFFFFFFFFFF': 2 ** 64, '0x1FFFFFFFFFFFFFFFF': '0x1FFFFFFFFFFFFFFFF',
      '99999999999999999999': 1e20, '-0b101': -5, '+0x1F': 31, '0X1F': 31, '0B101': 5, '1:30': '1:30', '2024-01-01': '2024-01-01',
      '.': '.', '._5': '._5', '1__0': 10, '1.5_0': 1.5, '-0': 0, '0x': '0x', web: 'web', '1.5e400': '1.5e400', '.5e400': '.5e400', '-1e999': '-1e999',
    });
  });

  const { kubectl, skip } = renderTools();
  it('agrees with kubectl on every value and key, read by the block reader and by the yaml package (a differential test)', { skip }, () => {
    const all = [...KNOWN, ...scalars(600)];
    const values = configMap(all.map((s, i) => `k${i}: ${s}`));
    const expected = kubectlReads(values, kubectl).data as Record<string, unknown>;
    const byReader = parseManifest('file:///values.yaml', values).documents[0].parsed.value as { data: Record<string, unknown> };
    // In flow style the block reader leaves the document to the yaml package.
    const flow = configMap([`{${all.map((s, i) => `k${i}: ${s}`).join(', ')}}`]).replace('data:\n  {', 'data: {');
    const byPackage = parseWithPackage(flow).value as { data: Record<string, unknown> };
    for (const [i, scalar] of all.entries()) {
      assert.deepEqual(byReader.data[`k${i}`], expected[`k${i}`], `${scalar} (block reader)`);
      assert.deepEqual(byPackage.data[`k${i}`], expected[`k${i}`], `${scalar} (yaml package)`);
    }
    // As keys: those kubectl can name a property by (not null, NaN, infinite or past a signed 64-bit integer), once each.
    const named = new Map<string, string>();
    for (const s of all) {
      const key = plainValue(s);
      if (key !== null && !(typeof key === 'number' && !(Math.abs(key) < 2 ** 63)) && !named.has(String(key))) named.set(String(key), s);
    }
    const keys = configMap([...named.values()].map((s) => `${s}: v`));
    const expectedKeys = Object.keys(kubectlReads(keys, kubectl).data as object).sort();
    assert.deepEqual(Object.keys((parseManifest('file:///keys.yaml', keys).documents[0].parsed.value as { data: object }).data).sort(), expectedKeys);
  });
});
