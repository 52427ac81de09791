import { pdbBlocksEviction } from '../../server/src/rules/pdb-blocks-eviction';
import { barePod, deployment, documents, hpa, pdb, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

const web = (replicas: number) => deployment({ spec: `  replicas: ${replicas}\n` });
const daemonSet = deployment({ kind: 'DaemonSet' });
const cronJob = 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: web\nspec:\n  schedule: "@hourly"\n  jobTemplate:\n    spec:\n      template:\n        metadata:\n          labels:\n            app: web\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: web\n              image: example/web:1\n';
const db = deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n' });
/** A budget for the pods of db the selector lines pick out by the labels its controller gives them. */
const picking = (budget: string, name: string, selector: string) => pdb(budget, { name, selector });
const byName = (pod: string) => `    matchLabels:\n      statefulset.kubernetes.io/pod-name: ${pod}\n`;
const byIndex = (index: string) => `    matchLabels:\n      app: db\n      apps.kubernetes.io/pod-index: "${index}"\n`;
const allButDbZero = '    matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [db-0]}\n';

ruleTester(pdbBlocksEviction, {
  valid: [
    {
      name: 'maxUnavailable 1 over a Deployment of 3 and a bare pod: the bare pod counts for none, the Deployment for 3, and one may go',
      code: documents(web(3), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  labels:\n    app: web\nspec:\n  containers:\n    - name: debug\n      image: busybox:1.36\n', pdb('  maxUnavailable: 1\n')),
    },
    { name: 'a whole-number minAvailable on a DaemonSet is counted against its pods, not its controller', code: documents(daemonSet, pdb('  minAvailable: 2\n')) },
    { name: 'maxUnavailable 1', code: documents(web(3), pdb('  maxUnavailable: 1\n')) },
    { name: 'maxUnavailable 0 over a Deployment scaled to zero: no pod for a drain to wait on', code: documents(web(0), pdb('  maxUnavailable: 0\n')) },
    { name: 'both fields written: the API rejects the PDB (pdb-no-budget says so), so no budget of it blocks', code: documents(web(3), pdb('  minAvailable: 3\n  maxUnavailable: 0\n')) },
    { name: 'minAvailable 2 of 3 leaves one eviction', code: documents(web(3), pdb('  minAvailable: 2\n')) },
    { name: 'minAvailable 010 is 8 to Kubernetes (octal, as YAML 1.1 reads it): two of 10 may go', code: documents(web(10), pdb('  minAvailable: 010\n')) },
    { name: 'minAvailable 50% of 3 rounds up to 2, one eviction left', code: documents(web(3), pdb('  minAvailable: 50%\n')) },
    { name: 'maxUnavailable 10% of 3 rounds up to 1', code: documents(web(3), pdb('  maxUnavailable: "10%"\n')) },
    { name: 'a budget of one pod that selects nothing known (pdb-selects-nothing covers it)', code: pdb('  minAvailable: 1\n') },
    { name: 'no budget at all is pdb-no-budget\'s, in policy/v1beta1 too (no version defaults one)', code: documents(web(1), pdb('').replace('policy/v1', 'policy/v1beta1')) },
    { name: 'a workload scaled to zero has nothing to evict', code: documents(web(0), pdb('  minAvailable: 1\n')) },
    {
      name: 'maxUnavailable 0 over a Deployment scaled to zero under an HPA of minReplicas 3: the HPA leaves a target at zero alone, so no pod comes up with load',
      code: documents(web(0), pdb('  maxUnavailable: 0\n')),
      files: { 'hpa.yaml': hpa({ min: 3 }) },
    },
    {
      name: 'maxUnavailable 0 over a Deployment KEDA\'s paused-replicas holds at 0: paused, no pod comes up with load',
      code: documents(web(2), pdb('  maxUnavailable: 0\n')),
      files: { 'keda.yaml': scaledObject({ spec: '  maxReplicaCount: 20\n', annotations: '    autoscaling.keda.sh/paused-replicas: "0"\n' }) },
    },
    {
      name: 'HPA floor of 4 above minAvailable 3',
      code: documents(web(3), pdb('  minAvailable: 3\n')),
      files: { 'hpa.yaml': hpa({ min: 4 }) },
    },
    {
      name: 'a workload of the same labels in another namespace',
      code: documents(deployment({ namespace: 'shop', spec: '  replicas: 1\n' }), pdb('  minAvailable: 1\n')),
    },
    { name: 'a DaemonSet with minAvailable 1: its size is the node count, unknown here', code: documents(daemonSet, pdb('  minAvailable: 1\n')) },
    { name: 'minAvailable 1 over every pod of a StatefulSet of 3 but db-0: one of its two may go', code: documents(db, picking('  minAvailable: 1\n', 'db-rest', allButDbZero)) },
    { name: 'maxUnavailable 2 over every pod but db-0: counted against all 3, it wants 1 healthy of the 2, and one may go', code: documents(db, picking('  maxUnavailable: 2\n', 'db-rest', allButDbZero)) },
    { name: 'minAvailable 0 over db-0', code: documents(db, picking('  minAvailable: 0\n', 'db-0', byName('db-0'))) },
  ],
  invalid: [
    {
      name: 'a budget of none over a workload KEDA keeps at zero while idle: its pods come up with load, and drains then block on them',
      code: documents(web(2).replace('  replicas: 2\n', ''), pdb('  maxUnavailable: 0\n')),
      files: { 'keda.yaml': scaledObject({ spec: '  maxReplicaCount: 20\n' }) },
      findings: [{ at: 'maxUnavailable' }],
      output: null,
    },
    {
      name: 'minAvailable 90% of 3 rounds up to 3',
      code: documents(web(3), pdb('  minAvailable: 90% # keep most of them\n')),
      findings: [{ at: 'minAvailable', line: 24, message: 'PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on this Deployment. Deployment web: 3 replicas, PDB minAvailable 90% rounds up to 3: a drain waits until a pod is deleted by hand, and the autoscaler cannot remove its nodes.' }],
      output: documents(web(3), pdb('  maxUnavailable: 1 # keep most of them\n')),
    },
    {
      name: 'replicas 010 are 8 to Kubernetes, all of which minAvailable 8 keeps',
      code: documents(web(8).replace('replicas: 8', 'replicas: 010'), pdb('  minAvailable: 8\n')),
      findings: [{ at: 'minAvailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on this Deployment\. Deployment web: 8 replicas, PDB minAvailable 8:/ }],
      output: documents(web(8).replace('replicas: 8', 'replicas: 010'), pdb('  maxUnavailable: 1\n')),
    },
    {
      name: 'minAvailable equal to the replicas',
      code: documents(web(2), pdb('  minAvailable: 2\n')),
      findings: [{ at: 'minAvailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on this Deployment\. Deployment web: 2 replicas, PDB minAvailable 2:/ }],
      output: documents(web(2), pdb('  maxUnavailable: 1\n')),
    },
    {
      name: 'maxUnavailable 0 blocks whatever the count',
      code: documents(web(5), pdb('  maxUnavailable: 0\n')),
      findings: [{ at: 'maxUnavailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on this Deployment\. Deployment web: 5 replicas, PDB maxUnavailable 0:/ }],
      output: null,
      unsafeOutput: documents(web(5), pdb('  maxUnavailable: 1\n')),
    },
    {
      name: 'maxUnavailable "0%"',
      code: documents(web(4), pdb('  maxUnavailable: "0%"\n')),
      findings: [{ at: 'maxUnavailable', message: /allows 0 evictions: .* PDB maxUnavailable 0% of 4 is 0:/ }],
      output: null,
      unsafeOutput: documents(web(4), pdb('  maxUnavailable: 1\n')),
    },
    {
      name: 'minAvailable 100% on a DaemonSet, whose size the disruption controller cannot read: no fix to a maxUnavailable, which blocks as well',
      code: documents(daemonSet, pdb('  minAvailable: 100%\n')),
      findings: [{ at: 'minAvailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on the pods of DaemonSet web\. The disruption controller counts minAvailable 100% against the pods' controllers, and a DaemonSet has no scale it can read/, related: ['manifest.yaml: kind: DaemonSet'] }],
      output: null,
    },
    {
      name: 'maxUnavailable 1 on a DaemonSet: the count against its controller fails, so no disruption is allowed',
      code: documents(daemonSet, pdb('  maxUnavailable: 1\n')),
      findings: [{ at: 'maxUnavailable', message: "PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on the pods of DaemonSet web. The disruption controller counts maxUnavailable 1 against the pods' controllers, and a DaemonSet has no scale it can read, so the count fails: it then allows no disruption at all. A whole-number minAvailable is counted against the pods themselves." }],
      output: null,
    },
    {
      name: 'a percentage over a CronJob\'s pods: their controller is the Job, which has no scale',
      code: documents(cronJob, pdb('  minAvailable: "50%"\n')),
      findings: [{ at: 'minAvailable', message: /and a Job \(what a CronJob's pods belong to\) has no scale it can read, so the count fails/ }],
      output: null,
    },
    {
      name: 'maxUnavailable 1 on bare pods, which no controller scales: they count for none, so no disruption is allowed',
      code: documents(barePod('web'), pdb('  maxUnavailable: 1\n')),
      findings: [{ at: 'maxUnavailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on the pods of Pod web\. .* and a bare pod, which no controller scales, counts for none: it then allows no disruption at all\./ }],
      output: documents(barePod('web'), pdb('  minAvailable: 0\n')),
    },
    {
      name: 'maxUnavailable 1 on two bare pods: the fix counts them as the disruption controller does, with a whole-number minAvailable one below',
      code: documents(barePod('a'), barePod('b'), pdb('  maxUnavailable: 1 # one at a time\n')),
      findings: [{ at: 'maxUnavailable', message: /every node drain blocks on the pods of Pod a\. .* a bare pod, which no controller scales, counts for none/ }],
      output: documents(barePod('a'), barePod('b'), pdb('  minAvailable: 1 # one at a time\n')),
    },
    {
      name: 'minAvailable 2 of two bare pods: maxUnavailable 1 would block as well, so the fix keeps a whole-number minAvailable',
      code: documents(barePod('a'), barePod('b'), pdb('  minAvailable: 2\n')),
      findings: [{ at: 'minAvailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on these pods\. 2 pods of Pod a, Pod b, PDB minAvailable 2:/ }],
      output: documents(barePod('a'), barePod('b'), pdb('  minAvailable: 1\n')),
    },
    {
      name: 'maxUnavailable 0 on bare pods: written as none, so its fix is unsafe',
      code: documents(barePod('a'), barePod('b'), barePod('c'), pdb('  maxUnavailable: 0\n')),
      findings: [{ at: 'maxUnavailable', message: /counts maxUnavailable 0 against the pods' controllers, and a bare pod/ }],
      output: null,
      unsafeOutput: documents(barePod('a'), barePod('b'), barePod('c'), pdb('  minAvailable: 2\n')),
    },
    {
      name: 'the HPA floor is the replica count, and the PDB sits in its own file',
      code: pdb('  minAvailable: 2\n'),
      files: { 'web.yaml': web(5), 'hpa.yaml': hpa({ min: 2 }) },
      findings: [{ at: 'minAvailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on this Deployment\. Deployment web: HPA minReplicas 2, PDB minAvailable 2:/, related: ['web.yaml: replicas', 'hpa.yaml: minReplicas'] }],
      output: pdb('  maxUnavailable: 1\n'),
    },
    {
      name: 'matchExpressions select two workloads whose pods all must stay',
      code: documents(
        web(2),
        deployment({ name: 'api', spec: '  replicas: 2\n' }),
        pdb('  minAvailable: 4\n', { selector: '    matchExpressions:\n      - key: app\n        operator: In\n        values: [web, api]\n' }),
      ),
      findings: [{ at: 'minAvailable', message: /^PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on these pods\. 4 pods of Deployment web, Deployment api, PDB minAvailable 4:/ }],
    },
    {
      name: 'a budget of none blocks whatever it selects: reported with none of its pods in view',
      code: pdb('  maxUnavailable: 0\n'),
      findings: [{ at: 'maxUnavailable', message: 'PodDisruptionBudget web-pdb allows 0 evictions: every node drain blocks on the pods it selects. It has maxUnavailable 0, whatever pods it selects: a drain waits on each of them until it is deleted by hand, and the autoscaler cannot remove their nodes.' }],
      output: null,
      unsafeOutput: pdb('  maxUnavailable: 1\n'),
    },
    {
      name: 'a budget per pod of a StatefulSet, by its name and by its index: each selects 1 pod of 3, and neither lets it go (the percentage is counted against all 3)',
      code: documents(db, picking('  minAvailable: 1\n', 'db-0', byName('db-0')), picking('  minAvailable: "50%"\n', 'db-1', byIndex('1'))),
      findings: [
        {
          at: 'minAvailable',
          message: 'PodDisruptionBudget db-0 allows 0 evictions: every node drain blocks on this StatefulSet. StatefulSet db: 1 pod of 3 replicas, PDB minAvailable 1: a drain waits until a pod is deleted by hand, and the autoscaler cannot remove its nodes.',
          related: ['manifest.yaml: replicas'],
        },
        {
          at: 'minAvailable',
          message: 'PodDisruptionBudget db-1 allows 0 evictions: every node drain blocks on this StatefulSet. StatefulSet db: 1 pod of 3 replicas, PDB minAvailable 50% rounds up to 2: a drain waits until a pod is deleted by hand, and the autoscaler cannot remove its nodes. The disruption controller counts minAvailable 50% against all 3 pods of StatefulSet db, not the 1 this PDB selects.',
        },
      ],
      output: null,
      unsafeOutput: documents(db, picking('  minAvailable: 0\n', 'db-0', byName('db-0')), picking('  minAvailable: 0\n', 'db-1', byIndex('1'))),
    },
    {
      name: 'maxUnavailable 1 over every pod of a StatefulSet of 3 but db-0: counted against all 3, it wants 2 healthy of the 2 it selects',
      code: documents(db, picking('  maxUnavailable: 1\n', 'db-rest', allButDbZero)),
      findings: [{ at: 'maxUnavailable', message: /^PodDisruptionBudget db-rest allows 0 evictions: .* StatefulSet db: 2 pods of 3 replicas, PDB maxUnavailable 1: .* The disruption controller counts maxUnavailable 1 against all 3 pods of StatefulSet db, not the 2 this PDB selects\.$/ }],
      output: null,
      unsafeOutput: documents(db, picking('  minAvailable: 1\n', 'db-rest', allButDbZero)),
    },
    { name: 'minAvailable 100% with nothing in view', code: pdb('  minAvailable: "100%"\n'), findings: [{ at: 'minAvailable', message: /allows 0 evictions: every node drain blocks on the pods it selects\. It has minAvailable 100%, whatever pods it selects/ }] },
  ],
});
