import { pdbUnhealthyPodsBlock } from '../../server/src/rules/pdb-unhealthy-pods-block';
import { pdb } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(pdbUnhealthyPodsBlock, {
  valid: [
    { name: 'AlwaysAllow', code: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n') },
    { name: 'policy/v1beta1 has no such field to set (and its clusters predate it)', code: pdb('  maxUnavailable: 1\n').replace('policy/v1', 'policy/v1beta1') },
  ],
  invalid: [
    {
      name: 'unset: the field is added at the end of spec',
      code: pdb("  minAvailable: '50%'\n"),
      findings: [{ at: 'kind: PodDisruptionBudget', severity: 'info', message: 'PodDisruptionBudget web-pdb: a node drain can hang on its pods that are not ready. Its budget is minAvailable 50%, and it has no unhealthyPodEvictionPolicy (IfHealthyBudget): a pod that runs but is not ready may be evicted only while enough other pods are healthy to meet the budget, so when a bad rollout or an outage leaves fewer healthy than that, a node drain hangs on the very pods that serve nothing.' }],
      output: pdb("  minAvailable: '50%'\n") + '  unhealthyPodEvictionPolicy: AlwaysAllow\n',
    },
    {
      name: 'IfHealthyBudget written out is replaced in place',
      code: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: IfHealthyBudget # the default\n'),
      findings: [{ at: 'unhealthyPodEvictionPolicy', message: /^PodDisruptionBudget web-pdb: a node drain can hang on its pods that are not ready\. Its budget is maxUnavailable 1, and it has unhealthyPodEvictionPolicy IfHealthyBudget:/ }],
      output: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow # the default\n'),
    },
    {
      name: 'a value the API server does not take (alwaysallow): the PDB is never created, said so; AlwaysAllow written in its place',
      code: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: alwaysallow\n'),
      findings: [{ at: 'alwaysallow', message: 'PodDisruptionBudget web-pdb: unhealthyPodEvictionPolicy "alwaysallow" is rejected by the API server, so the PDB is never created: it takes IfHealthyBudget or AlwaysAllow, spelt so. Applying this one fails, and the pods it was written for have no budget.' }],
      output: pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n'),
    },
  ],
});
