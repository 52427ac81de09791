import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { fixFile } from '../../server/src/fixes/apply';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { mutate, seeded, seedFiles } from '../fuzz/mutate';
import { recordRow } from '../fuzz/reliability-rows';

const SEED = Number(process.env.KR_FUZZ_SEED ?? 9);
const CASES = 400;
/** Bounded in time as well as in count, so a slow machine runs fewer cases instead of timing out. */
const BUDGET_MS = 15_000;

const yamlErrors = (text: string) => parseAllDocuments(text, { uniqueKeys: false }).reduce((n, d) => n + d.errors.length, 0);

describe(`fuzz: mutated manifests through the engine and its fixes (seed ${SEED})`, () => {
  it('never throws; fixes stop, never break what parsed, and a second pass changes nothing', () => {
    const random = seeded(SEED);
    const seeds = seedFiles(60);
    const started = Date.now();
    let cases = 0;
    let fixedFiles = 0;
    let fixes = 0;
    for (; cases < CASES && Date.now() - started < BUDGET_MS; cases++) {
      const seed = seeds[cases % seeds.length];
      const { text, mutations } = mutate(seed.text, random, 1 + Math.floor(random() * 3));
      const label = `case ${cases} (${seed.name}: ${mutations.join(', ')})`;
      const uri = `file:///fuzz/${cases}.yaml`;
      const inventory = new Inventory();
      const file = parseManifest(uri, text);
      inventory.setFile(file);
      analyzeFile(file, inventory, {});
      const once = fixFile(uri, text, inventory, {});
      assert.ok(once.applied.length < 50, `${label}: ${once.applied.length} fixes applied`);
      if (once.text === text) continue;
      fixedFiles++;
      fixes += once.applied.length;
      if (yamlErrors(text) === 0) assert.equal(yamlErrors(once.text), 0, `${label}: the fixed text no longer parses`);
      const twice = fixFile(uri, once.text, inventory, {});
      assert.deepEqual(twice.applied, [], `${label}: a second pass still applies fixes`);
    }
    assert.ok(cases >= 20, `only ${cases} cases ran`);
    recordRow({
      faultClass: 'mutated manifests: engine and fixes',
      tried: `${seeds[0].from === 'corpus' ? 'corpus' : 'built-in'} files with 1–3 of 14 mutations (lines deleted, duplicated, swapped, re-indented; values emptied or replaced; truncation; NUL and control bytes; stray ---; 300-deep nesting; alias fan-out; 200 KB lines; kinds swapped), seed ${SEED}`,
      cases,
      result: `no exception; ${fixedFiles} files got ${fixes} fixes, all converged (a second pass applies nothing) and none broke a file that parsed`,
    });
  });
});
