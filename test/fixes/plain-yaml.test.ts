import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { plainBlockYaml } from '../../server/src/fixes/plain-yaml';
import type { YamlStyle } from '../../server/src/fixes/style';
import { writeOptions } from '../../server/src/fixes/yaml-edit';
import { seeded } from '../fuzz/mutate';

const STYLES: YamlStyle[] = [2, 4].flatMap((indent) => [true, false].flatMap((indentSeq) => [true, false].map((singleQuote) => ({ indent, indentSeq, singleQuote, newline: '\n' }))));
const packageYaml = (value: unknown, style: YamlStyle) => stringify(value, writeOptions(style));

const WORDS = ['app', 'svc-1', 'kubernetes.io/hostname', 'ScheduleAnyway', 'y', 'No', 'on', 'OFF', 'null', 'true', '', '1', '0x1', 'a b', 'a: b', '-x', '_x', 'x#y', 'é', 'Yes', 'NULL', 'key.with.dots', '256Mi', '100m', '10s', '5E', '2002-12-14', '/healthz', '/x y', '1_000', '0b1', '1:20'];

function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth > 3 || pick < 0.4) {
    const scalars = [...WORDS, 0, 1, -3, 2.5, 1e21, -0, true, false, null, Number.MAX_SAFE_INTEGER + 2];
    return scalars[Math.floor(random() * scalars.length)];
  }
  const size = Math.floor(random() * 4);
  if (pick < 0.7) return Array.from({ length: size }, () => randomValue(random, depth + 1));
  return Object.fromEntries(Array.from({ length: size }, () => [WORDS[Math.floor(random() * WORDS.length)], randomValue(random, depth + 1)]));
}

describe('plainBlockYaml', () => {
  it('writes what fixes write exactly as the yaml package does with the fixes\' options, in every style', () => {
    const probe = { startupProbe: { httpGet: { path: '/healthz', port: 8080 }, failureThreshold: 30, periodSeconds: 10 } };
    const spread = { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }] };
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web-pdb', labels: {} }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } };
    for (const style of STYLES) {
      for (const value of [probe, spread, pdb, 'web', 3, true, null, [], {}, ['a', { b: [] }]]) {
        assert.equal(plainBlockYaml(value, style), packageYaml(value, style), `${JSON.stringify(value)} ${JSON.stringify(style)}`);
      }
    }
  });

  it('leaves to the package what needs quoting or its number rules', () => {
    for (const value of ['yes', 'on', '1', 'a b', '', '2002-12-14', '1:20', 2.5, -0, 1e21, { 'a: b': 1 }, [[1]]]) assert.equal(plainBlockYaml(value, STYLES[0]), undefined, JSON.stringify(value));
  });

  it('random values: whenever it writes one, it writes what the package writes', () => {
    const random = seeded(7);
    let written = 0;
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(random, 0);
      const style = STYLES[i % STYLES.length];
      const ours = plainBlockYaml(value, style);
      if (ours === undefined) continue;
      written++;
      assert.equal(ours, packageYaml(value, style), JSON.stringify(value));
    }
    assert.ok(written > 500, `it wrote ${written} of the values`);
  });
});
