import { recreateDropsAll } from '../../server/src/rules/recreate-drops-all';
import { deployment, documents, hpa } from './manifests';
import { ruleTester } from './rule-tester';

const web = (spec: string) => deployment({ spec });
const rwoDeployment = (strategy: string) => deployment({ spec: `  replicas: 2\n  strategy:\n    type: ${strategy}\n`, podSpec: '      volumes:\n        - name: uploads\n          persistentVolumeClaim:\n            claimName: uploads\n' });

ruleTester(recreateDropsAll, {
  valid: [
    { name: 'RollingUpdate', code: web('  replicas: 3\n  strategy:\n    type: RollingUpdate\n') },
    { name: 'no strategy: RollingUpdate by default', code: web('  replicas: 3\n') },
    { name: 'Recreate with one replica (single-replica covers it)', code: web('  replicas: 1\n  strategy:\n    type: Recreate\n') },
    { name: 'Recreate with an HPA floor of 1', code: web('  strategy:\n    type: Recreate\n'), files: { 'hpa.yaml': hpa({ min: 1 }) } },
    { name: 'a StatefulSet has no Recreate', code: deployment({ kind: 'StatefulSet', spec: '  replicas: 3\n  updateStrategy:\n    type: OnDelete\n' }) },
  ],
  invalid: [
    {
      name: 'three replicas, Recreate with a comment',
      code: web('  replicas: 3\n  strategy:\n    type: Recreate # we always did it this way\n'),
      findings: [{ at: 'type: Recreate', line: 8, severity: 'info', message: 'Deployment web: every rollout stops all 3 pods at once, an outage per deploy. It runs 3 replicas with strategy Recreate, which stops them all before starting new ones, so each deploy is down until the new pods are ready.' }],
      output: web('  replicas: 3\n  strategy:\n    type: RollingUpdate # we always did it this way\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      name: 'a rollingUpdate written already keeps its comments and keys: only what is missing or other is set (it was written again whole)',
      code: web('  replicas: 3\n  strategy:\n    type: Recreate\n    rollingUpdate: # tuned for the canary rollout\n      # never below capacity\n      maxUnavailable: 0\n'),
      findings: [{ at: 'type: Recreate', message: /^Deployment web: every rollout stops all 3 pods at once/ }],
      output: web('  replicas: 3\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: # tuned for the canary rollout\n      # never below capacity\n      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      name: 'the HPA floor counts; a flow-style strategy stays flow',
      code: documents(web('  strategy: {type: Recreate}\n'), hpa({ min: 2 })),
      findings: [{ at: 'type: Recreate', message: /^Deployment web: every rollout stops both pods at once, an outage per deploy\. It runs at least 2 replicas \(HPA minReplicas 2\) with strategy Recreate/ }],
      output: documents(web('  strategy: {type: "RollingUpdate", "rollingUpdate": {"maxUnavailable":0,"maxSurge":1}}\n'), hpa({ min: 2 })),
    },
    {
      name: 'Recreate on a ReadWriteOnce claim: the surge pod could not mount it, so the fix is unsafe',
      code: rwoDeployment('Recreate'),
      files: { 'claim.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n' },
      findings: [{ at: 'type: Recreate' }],
      output: null,
      unsafeOutput: rwoDeployment('RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1'),
    },
    {
      name: 'a ReadWriteMany claim is shared: the fix stays safe',
      code: rwoDeployment('Recreate'),
      files: { 'claim.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  accessModes: [ReadWriteMany]\n' },
      findings: [{ at: 'type: Recreate' }],
      output: rwoDeployment('RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1'),
    },
  ],
});
