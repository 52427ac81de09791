import { pdbNoBudget } from '../../server/src/rules/pdb-no-budget';
import { pdb } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(pdbNoBudget, {
  valid: [
    { name: 'maxUnavailable', code: pdb('  maxUnavailable: 1\n') },
    { name: 'minAvailable as a percentage', code: pdb('  minAvailable: 50%\n') },
    { name: 'maxUnavailable 0 (pdb-blocks-eviction covers it)', code: pdb('  maxUnavailable: 0\n') },
    { name: 'policy/v1beta1 defaulted the budget to minAvailable 1', code: pdb('').replace('policy/v1', 'policy/v1beta1') },
  ],
  invalid: [
    {
      name: 'only a selector; the budget goes first in spec, after the comment that stays',
      code: pdb('  # protects the web tier\n'),
      findings: [{ at: 'spec', line: 5, message: 'PodDisruptionBudget web-pdb sets neither minAvailable nor maxUnavailable: it allows every selected pod to be evicted at once, so a node drain can take them all down together.' }],
      output: pdb('  # protects the web tier\n  maxUnavailable: 1\n'),
    },
    {
      name: 'a flow-style spec',
      code: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb, namespace: shop}\nspec: {selector: {matchLabels: {app: web}}}\n',
      findings: [{ at: 'spec', message: /^PodDisruptionBudget shop\/web-pdb sets neither/ }],
      output: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb, namespace: shop}\nspec: {selector: {matchLabels: {app: web}}, "maxUnavailable": 1}\n',
    },
  ],
});
