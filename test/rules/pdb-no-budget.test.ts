import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixFile } from '../../server/src/fixes/apply';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { pdbNoBudget } from '../../server/src/rules/pdb-no-budget';
import { barePod, deployment, documents, pdb } from './manifests';
import { ruleTester } from './rule-tester';

const daemonSet = deployment({ kind: 'DaemonSet' });

ruleTester(pdbNoBudget, {
  valid: [
    { name: 'maxUnavailable', code: pdb('  maxUnavailable: 1\n') },
    { name: 'minAvailable as a percentage', code: pdb('  minAvailable: 50%\n') },
    { name: 'a quoted percentage is a valid string budget', code: pdb('  maxUnavailable: "25%"\n') },
    { name: 'maxUnavailable 0 (pdb-blocks-eviction covers it)', code: pdb('  maxUnavailable: 0\n') },
  ],
  invalid: [
    {
      name: 'only a selector; the budget goes first in spec, after the comment that stays',
      code: pdb('  # protects the web tier\n'),
      findings: [{ at: 'spec', line: 5, message: 'PodDisruptionBudget web-pdb states no budget, so it allows no eviction: node drains block. It sets neither minAvailable nor maxUnavailable: the disruption controller then expects 0 pods and allows no eviction (disruptionsAllowed 0, in policy/v1 and v1beta1 alike), so every node drain blocks on every pod it selects and the autoscaler cannot remove their nodes.' }],
      output: pdb('  # protects the web tier\n  maxUnavailable: 1\n'),
    },
    {
      name: 'over two bare pods, which the disruption controller counts only against a whole-number minAvailable: one below their count',
      code: documents(barePod('a'), barePod('b'), pdb('')),
      findings: [{ at: 'spec', message: /blocks on the pods of Pod a, Pod b and the autoscaler/ }],
      output: documents(barePod('a'), barePod('b'), pdb('  minAvailable: 1\n')),
    },
    {
      name: 'over one pod of a StatefulSet by its name: minAvailable one below the pods it selects (maxUnavailable 1 is counted against all 3 replicas, and would block)',
      code: documents(deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n' }), pdb('', { name: 'db-0', selector: '    matchLabels:\n      statefulset.kubernetes.io/pod-name: db-0\n' })),
      findings: [{ at: 'spec', message: /blocks on the pods of StatefulSet db \(1 pod of 3 replicas\) and the autoscaler/ }],
      output: documents(deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n' }), pdb('  minAvailable: 0\n', { name: 'db-0', selector: '    matchLabels:\n      statefulset.kubernetes.io/pod-name: db-0\n' })),
    },
    {
      name: 'over a DaemonSet, whose pod count is the cluster\'s: no written number lets one go at a time, so no fix',
      code: documents(daemonSet, pdb('')),
      findings: [{ at: 'spec', message: /blocks on the pods of DaemonSet web/ }],
      output: null,
    },
    {
      name: 'a whole number written as a string (a Helm `| quote`): rejected by the API server; written as a number',
      code: pdb('  minAvailable: "2" # from values\n'),
      findings: [{ at: '"2"', message: /^PodDisruptionBudget web-pdb: minAvailable "2" is rejected by the API server, so the PDB is never created\. A budget is a whole number from 0, or a string that is a percentage up to 100%/ }],
      output: pdb('  minAvailable: 2 # from values\n'),
    },
    {
      name: 'a fraction: rejected too, with no fix to guess',
      code: pdb('  maxUnavailable: 1.5\n'),
      findings: [{ at: '1.5', message: /maxUnavailable 1\.5 is rejected by the API server/ }],
      output: null,
    },
    {
      name: 'a percentage over 100% or a negative number: rejected too (the PDB is never created), with no fix to guess',
      code: documents(pdb('  minAvailable: "101%"\n'), pdb('  maxUnavailable: -1\n', { name: 'negative' })),
      findings: [
        { at: '"101%"', message: 'PodDisruptionBudget web-pdb: minAvailable "101%" is rejected by the API server, so the PDB is never created. A budget is a whole number from 0, or a string that is a percentage up to 100% ("50%"); applying this one fails, and the pods it was written for have no budget: a drain may evict them all at once.' },
        { at: '-1', message: /^PodDisruptionBudget negative: maxUnavailable -1 is rejected by the API server/ },
      ],
      output: null,
    },
    {
      name: 'both budgets: rejected by the API server; which to keep is the author\'s to say',
      code: pdb('  minAvailable: 1\n  maxUnavailable: 1\n'),
      findings: [{ at: 'maxUnavailable', message: /^PodDisruptionBudget web-pdb sets both minAvailable 1 and maxUnavailable 1: the API server rejects it, so the PDB is never created\./ }],
      output: null,
    },
    {
      name: 'a flow-style spec',
      code: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb, namespace: shop}\nspec: {selector: {matchLabels: {app: web}}}\n',
      findings: [{ at: 'spec', message: /^PodDisruptionBudget shop\/web-pdb states no budget, so it allows no eviction: node drains block\. It sets neither/ }],
      output: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb, namespace: shop}\nspec: {selector: {matchLabels: {app: web}}, "maxUnavailable": 1}\n',
    },
    {
      name: 'policy/v1beta1 defaults no budget either: the same block, naming the pods it holds',
      code: documents(deployment({ spec: '  replicas: 3\n' }), pdb('').replace('policy/v1', 'policy/v1beta1')),
      findings: [{ at: 'spec', line: 23, message: /allows no eviction \(disruptionsAllowed 0, in policy\/v1 and v1beta1 alike\), so every node drain blocks on the pods of Deployment web \(3 replicas\)/ }],
      output: documents(deployment({ spec: '  replicas: 3\n' }), pdb('  maxUnavailable: 1\n').replace('policy/v1', 'policy/v1beta1')),
    },
  ],
});

describe('pdb-no-budget fixed with every rule on', () => {
  it('leaves no budget another rule finds blocking: bare pods get a whole-number minAvailable, a DaemonSet no fix', () => {
    const text = documents(barePod('a'), barePod('b'), pdb(''), daemonSet.replaceAll('web', 'agent'), pdb('', { name: 'agent-pdb', selector: '    matchLabels:\n      app: agent\n' }));
    const inventory = new Inventory();
    const fixed = fixFile('file:///test/pdbs.yaml', text, inventory).text;
    const left = analyzeFile(parseManifest('file:///test/pdbs.yaml', fixed), inventory).filter((f) => f.ruleId.startsWith('pdb-'));
    assert.deepEqual(left.map((f) => `${f.ruleId} ${f.resource?.name}`), ['pdb-no-budget agent-pdb']);
  });
});
