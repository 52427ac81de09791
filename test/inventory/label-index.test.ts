import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { LabelIndex } from '../../server/src/inventory/label-index';
import { parseManifest } from '../../server/src/manifest/parse';
import { mapSelectorMatches, selectorMatches } from '../../server/src/manifest/selector';
import { podTemplateOf } from '../../server/src/manifest/workload';

// Pod labels and selectors of every shape the index files differently: several keys, a number where a
// string is compared, labels that are not a mapping, expressions only, empty, null, malformed.
const podLabels = ['{app: a, tier: web}', '{app: b}', '{app: a, version: 1}', '{version: "1"}', '{}', '"app=a"', '[app, a]', 'null'];
const selectors = [
  '{matchLabels: {app: a}}',
  '{matchLabels: {tier: web, app: a}}',
  '{matchLabels: {version: 1}}',
  '{matchLabels: {app: b}, matchExpressions: [{key: tier, operator: DoesNotExist}]}',
  '{matchExpressions: [{key: app, operator: In, values: [a, b]}]}',
  '{}',
  'null',
  '{matchLabels: [app, a]}',
  '"app=a"',
];
const serviceSelectors = ['{app: a}', '{tier: web, app: a}', '{version: 1}', '{}', '[app]', '"app"'];

const deployment = (i: number, labels: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d${i}}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: ${labels}}\n    spec: {containers: [{name: app, image: nginx}]}\n`;
const pdb = (i: number, selector: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p${i}}\nspec:\n  maxUnavailable: 1\n  selector: ${selector}\n`;
const service = (i: number, selector: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: s${i}}\nspec:\n  selector: ${selector}\n`;

/** Asks the inventory, through its label indexes, what a scan of every item gives, and returns it. */
function assertSameAsScan(podLabels: string[], selectors: string[], serviceSelectors: string[]): Inventory {
    const text = [...podLabels.map((labels, i) => deployment(i, labels)), ...selectors.map((selector, i) => pdb(i, selector)), ...serviceSelectors.map((selector, i) => service(i, selector))].join('---\n');
    const inventory = new Inventory();
    inventory.setFile(parseManifest('file:///w/all.yaml', text));
    const of = (kind: string) => inventory.ofKind(kind);
    const [workloads, pdbs, services] = [of('Deployment'), of('PodDisruptionBudget'), of('Service')];
    const labelsOf = (workload: (typeof workloads)[number]) => podTemplateOf(workload)?.labels;
    for (const workload of workloads) {
      const labels = labelsOf(workload);
      assert.deepEqual(inventory.pdbsSelecting(workload), labels ? pdbs.filter((p) => selectorMatches(p.object.spec.selector, labels)) : [], workload.name!);
      assert.deepEqual(inventory.servicesFronting(workload), labels ? services.filter((s) => mapSelectorMatches(s.object.spec.selector, labels)) : [], workload.name!);
    }
    for (const budget of pdbs) {
      const selected = workloads.filter((w) => selectorMatches(budget.object.spec.selector, labelsOf(w)));
      assert.deepEqual(inventory.workloadsSelectedBy(budget), selected, budget.name!);
      assert.deepEqual(inventory.podCarriersMatching('default', budget.object.spec.selector), selected, budget.name!);
    }
    return inventory;
}

describe('label index', () => {
  it('PDBs, Services and selected workloads found through it are those a scan of the namespace finds, in order', () => {
    const inventory = assertSameAsScan(podLabels, selectors, serviceSelectors);
    const pdbs = inventory.ofKind('PodDisruptionBudget');
    // The shapes above select everything, nothing and some in between, so the comparison says something.
    assert.deepEqual([...new Set(pdbs.map((p) => inventory.workloadsSelectedBy(p).length))].sort(), [0, 1, 2, 3, 8]);
  });

  it('answers the same where every item is filed under labels (no item answers every question)', () => {
    assertSameAsScan(['{app: a, tier: web}', '{app: b}', '{app: a, version: "1"}', '{tier: web}'], ['{matchLabels: {app: a}}', '{matchLabels: {tier: web, app: a}}', '{matchLabels: {tier: web}}'], ['{app: a}', '{tier: web, app: a}', '{app: b}']);
  });

  it('files an item once under a label named twice, and finds it once', () => {
    const index = new LabelIndex(['x', 'y'], (item) => (item === 'x' ? [['app', 'a'], ['app', 'a']] : [['app', 'b']]));
    assert.deepEqual(index.candidates([['app', 'a']]), ['x']);
    assert.deepEqual(index.candidates([['app', 'a'], ['app', 'b']]), ['x', 'y']);
  });
});
