import { recreateDropsAll } from '../../server/src/rules/recreate-drops-all';
import { deployment, documents, hpa } from './manifests';
import { ruleTester, type InvalidCase } from './rule-tester';

const web = (spec: string) => deployment({ spec });
/** A Deployment of `replicas` whose strategy holds `rollingUpdate` (lines indented by six) and no type unless `type` is given. */
const rolling = (replicas: number, rollingUpdate: string, type?: string) => web(`  replicas: ${replicas}\n  strategy:\n${type ? `    type: ${type}\n` : ''}    rollingUpdate:\n${rollingUpdate}`);
const rwoDeployment = (strategy: string) => deployment({ spec: `  replicas: 2\n  strategy:\n    type: ${strategy}\n`, podSpec: '      volumes:\n        - name: uploads\n          persistentVolumeClaim:\n            claimName: uploads\n' });
const rolledOnePodAtATime = rwoDeployment('RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1');

/** rwoDeployment with `strategy` beside its claim of `accessMode`: the fix starts a new pod beside the old ones, unsafe when that pod cannot mount the claim. */
const withClaim = (name: string, accessMode: string, strategy: string, at: string): InvalidCase => ({
  name,
  code: rwoDeployment(strategy),
  files: { 'claim.yaml': `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  accessModes: [${accessMode}]\n  resources: {requests: {storage: 1Gi}}\n` },
  findings: [{ at }],
  ...(accessMode === 'ReadWriteOnce' ? { output: null, unsafeOutput: rolledOnePodAtATime } : { output: rolledOnePodAtATime }),
});

ruleTester(recreateDropsAll, {
  valid: [
    { name: 'RollingUpdate', code: web('  replicas: 3\n  strategy:\n    type: RollingUpdate\n') },
    { name: 'no strategy: RollingUpdate by default', code: web('  replicas: 3\n') },
    { name: 'Recreate with one replica (single-replica covers it)', code: web('  replicas: 1\n  strategy:\n    type: Recreate\n') },
    { name: 'Recreate with an HPA floor of 1', code: web('  strategy:\n    type: Recreate\n'), files: { 'hpa.yaml': hpa({ min: 1 }) } },
    { name: 'a StatefulSet has no Recreate', code: deployment({ kind: 'StatefulSet', spec: '  replicas: 3\n  updateStrategy:\n    type: OnDelete\n' }) },
    { name: 'maxUnavailable one below the replicas: one pod stays', code: rolling(3, '      maxUnavailable: 2\n') },
    { name: 'maxUnavailable 99% of 3 rounds down to 2', code: rolling(3, '      maxUnavailable: 99%\n') },
    { name: 'maxUnavailable 50% of 2 is 1', code: rolling(2, '      maxUnavailable: 50%\n', 'RollingUpdate') },
    { name: 'maxUnavailable 100% of one replica (single-replica covers it)', code: rolling(1, '      maxUnavailable: 100%\n') },
    { name: 'maxUnavailable 100% under an HPA floor of 1', code: web('  strategy:\n    rollingUpdate:\n      maxUnavailable: 100%\n'), files: { 'hpa.yaml': hpa({ min: 1 }) } },
    { name: 'maxUnavailable "3" in quotes is no percentage: the API server refuses the Deployment', code: rolling(3, '      maxUnavailable: "3"\n') },
    { name: 'maxUnavailable 150% is over 100%: refused', code: rolling(3, '      maxUnavailable: 150%\n') },
    { name: 'a negative maxSurge beside it: refused', code: rolling(3, '      maxUnavailable: 3\n      maxSurge: -1\n') },
    { name: 'a maxSurge "1" in quotes beside it: refused', code: rolling(3, '      maxUnavailable: 3\n      maxSurge: "1"\n') },
    { name: 'maxUnavailable and maxSurge both 0: refused', code: rolling(2, '      maxUnavailable: 0\n      maxSurge: 0%\n') },
    { name: 'a strategy type the API server does not know: refused', code: rolling(3, '      maxUnavailable: 3\n', 'rollingUpdate') },
    { name: 'Recreate with a rollingUpdate (refused) and one replica: nothing this rule would judge', code: web('  replicas: 1\n  strategy:\n    type: Recreate\n    rollingUpdate:\n      maxSurge: 1\n') },
    { name: 'a Helm hook with Recreate and a rollingUpdate', code: web('  replicas: 3\n  strategy:\n    type: Recreate\n    rollingUpdate:\n      maxSurge: 1\n').replace('  name: web\n', '  name: web\n  annotations:\n    helm.sh/hook: pre-install\n') },
    { name: 'a StatefulSet\'s maxUnavailable is no Deployment\'s', code: deployment({ kind: 'StatefulSet', spec: '  replicas: 3\n  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 100%\n' }) },
  ],
  invalid: [
    {
      name: 'three replicas, Recreate with a comment',
      code: web('  replicas: 3\n  strategy:\n    type: Recreate # we always did it this way\n'),
      findings: [{ at: 'type: Recreate', line: 8, severity: 'info', message: 'Deployment web: every rollout stops all 3 pods at once, an outage per deploy. It runs 3 replicas with strategy Recreate, which stops them all before starting new ones, so each deploy is down until the new pods are ready.' }],
      output: web('  replicas: 3\n  strategy:\n    type: RollingUpdate # we always did it this way\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      // It was judged a Recreate outage, and its fix kept the rollingUpdate: a Recreate with one is never created.
      name: 'Recreate with a rollingUpdate: the API server rejects the Deployment, said at rollingUpdate, which the fix removes (the Recreate left is then judged, and its fix is unsafe on this claim)',
      code: rwoDeployment('Recreate # one version at a time\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1'),
      files: { 'claim.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n' },
      findings: [{ at: 'rollingUpdate', line: 9, severity: 'info', message: 'Deployment web: strategy Recreate sets rollingUpdate too, so the API server rejects it (rollingUpdate may not be specified when the type is Recreate). It refuses the whole Deployment, which then runs no pod at all. Recreate rolls nothing: remove rollingUpdate, or set type RollingUpdate to roll by it.' }],
      output: rwoDeployment('Recreate # one version at a time'),
      fixLeaves: [/^Deployment web: every rollout stops both pods at once/],
      unsafeOutput: rwoDeployment('RollingUpdate # one version at a time\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1'),
    },
    {
      name: 'an empty rollingUpdate mapping beside Recreate is set, and refused too; the HPA floor counts, and a flow-style strategy loses the entry (--fix then rolls the Recreate left, as any)',
      code: documents(web('  strategy: {type: Recreate, rollingUpdate: {}}\n'), hpa({ min: 2 })),
      findings: [{ at: 'rollingUpdate', message: /^Deployment web: strategy Recreate sets rollingUpdate too, so the API server rejects it/ }],
      output: documents(web('  strategy: {type: "RollingUpdate", "rollingUpdate": {"maxUnavailable":0,"maxSurge":1}}\n'), hpa({ min: 2 })),
    },
    {
      name: 'a rollingUpdate with no value (null) beside Recreate sets nothing and is taken: the Recreate is judged, and the fix writes the mapping in its place',
      code: web('  replicas: 3\n  strategy:\n    type: Recreate\n    rollingUpdate:\n'),
      findings: [{ at: 'type: Recreate', message: /^Deployment web: every rollout stops all 3 pods at once/ }],
      output: web('  replicas: 3\n  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      name: 'the HPA floor counts; a flow-style strategy stays flow',
      code: documents(web('  strategy: {type: Recreate}\n'), hpa({ min: 2 })),
      findings: [{ at: 'type: Recreate', message: /^Deployment web: every rollout stops both pods at once, an outage per deploy\. It runs at least 2 replicas \(HPA minReplicas 2\) with strategy Recreate/ }],
      output: documents(web('  strategy: {type: "RollingUpdate", "rollingUpdate": {"maxUnavailable":0,"maxSurge":1}}\n'), hpa({ min: 2 })),
    },
    withClaim('Recreate on a ReadWriteOnce claim: the surge pod could not mount it, so the fix is unsafe', 'ReadWriteOnce', 'Recreate', 'type: Recreate'),
    {
      name: 'RollingUpdate with maxUnavailable 100% and a comment: the range is on the value',
      code: rolling(3, '      maxUnavailable: 100% # fast deploys\n', 'RollingUpdate'),
      findings: [{ at: '100%', line: 10, severity: 'info', message: 'Deployment web: every rollout stops all 3 pods at once, an outage per deploy. It runs 3 replicas with RollingUpdate maxUnavailable 100%, which lets the controller stop them all while the new ones start, so each deploy is down until the new pods are ready.' }],
      output: rolling(3, '      maxUnavailable: 0 # fast deploys\n      maxSurge: 1\n', 'RollingUpdate'),
    },
    {
      name: 'maxUnavailable equal to the replicas, with no type written (RollingUpdate by default)',
      code: rolling(3, '      maxUnavailable: 3\n      maxSurge: 2\n'),
      findings: [{ at: '3', message: /^Deployment web: every rollout stops all 3 pods at once, an outage per deploy\. It runs 3 replicas with RollingUpdate maxUnavailable 3,/ }],
      output: rolling(3, '      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      name: 'maxUnavailable above the replicas',
      code: rolling(2, '      maxUnavailable: 5\n'),
      findings: [{ at: '5', message: /^Deployment web: every rollout stops both pods at once, an outage per deploy\. It runs 2 replicas with RollingUpdate maxUnavailable 5,/ }],
      output: rolling(2, '      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      name: 'a maxSurge over 100% is taken (only maxUnavailable is capped); the quoted percentage becomes a number',
      code: rolling(2, '      maxUnavailable: "100%"\n      maxSurge: 200%\n'),
      findings: [{ at: '"100%"' }],
      output: rolling(2, '      maxUnavailable: 0\n      maxSurge: 1\n'),
    },
    {
      name: 'the HPA floor counts: maxUnavailable 2 lets both pods of the floor go; a flow-style strategy stays flow',
      code: documents(web('  strategy: {rollingUpdate: {maxUnavailable: 2}}\n'), hpa({ min: 2 })),
      findings: [{ at: '2', message: /^Deployment web: every rollout stops both pods at once, an outage per deploy\. It runs at least 2 replicas \(HPA minReplicas 2\) with RollingUpdate maxUnavailable 2,/ }],
      output: documents(web('  strategy: {rollingUpdate: {maxUnavailable: 0, "maxSurge": 1}}\n'), hpa({ min: 2 })),
    },
    withClaim('every pod at once and no surge on a ReadWriteOnce claim: a new pod beside the old ones could not mount it, so the fix is unsafe', 'ReadWriteOnce', 'RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 100%\n      maxSurge: 0', '100%'),
    withClaim('a ReadWriteMany claim is shared: the fix stays safe', 'ReadWriteMany', 'Recreate', 'type: Recreate'),
  ],
});
