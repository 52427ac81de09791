import { pdbUnhealthyPodsBlock } from '../../server/src/rules/pdb-unhealthy-pods-block';
import { pdb } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(pdbUnhealthyPodsBlock, {
  valid: [{ name: 'AlwaysAllow', code: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n') }],
  invalid: [
    {
      name: 'unset: the field is added at the end of spec',
      code: pdb("  minAvailable: '50%'\n"),
      findings: [{ at: 'kind: PodDisruptionBudget', severity: 'info', message: 'PodDisruptionBudget web-pdb has no unhealthyPodEvictionPolicy (IfHealthyBudget): crash-looping or unready pods count against the budget and cannot be evicted while it is spent, so a node drain can hang on pods that serve nothing.' }],
      output: pdb("  minAvailable: '50%'\n") + '  unhealthyPodEvictionPolicy: AlwaysAllow\n',
    },
    {
      name: 'IfHealthyBudget written out is replaced in place',
      code: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: IfHealthyBudget # the default\n'),
      findings: [{ at: 'unhealthyPodEvictionPolicy', message: /has unhealthyPodEvictionPolicy IfHealthyBudget:/ }],
      output: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow # the default\n'),
    },
  ],
});
