import { pdbMultiple } from '../../server/src/rules/pdb-multiple';
import { deployment, documents, pdb } from './manifests';
import { ruleTester } from './rule-tester';

const web = deployment({ spec: '  replicas: 3\n' });
const db = deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n' });
/** The StatefulSet db of 3 replicas whose ordinals start at 1: its pods are db-1, db-2 and db-3. */
const dbFromOne = deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n  ordinals:\n    start: 1\n' });
/** A budget for one pod of the StatefulSet db, by the name its controller labels it with. */
const forPod = (pod: string) => pdb('  minAvailable: 0\n', { name: `${pod}-pdb`, selector: `    matchLabels:\n      statefulset.kubernetes.io/pod-name: ${pod}\n` });
const migrate = `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  template:
    metadata:
      labels:
        app: migrate
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: migrate:1.0
`;
/** A budget for the pods of the Job named, by the label its controller gives them (`job-name`, or its newer spelling). */
const forJob = (key: string, job: string) => pdb('  maxUnavailable: 0\n', { name: `${job}-job-pdb`, selector: `    matchLabels:\n      ${key}: ${job}\n` });
const byApp = pdb('  maxUnavailable: 1\n', { name: 'migrate-app', selector: '    matchLabels:\n      app: migrate\n' });
const everyPod = (apiVersion: string) => pdb('  maxUnavailable: 1\n', { name: 'every-pod', selector: '    {}\n' }).replace('policy/v1', apiVersion);

ruleTester(pdbMultiple, {
  valid: [
    {
      name: 'a budget for one pod beside one that also asks of a pod-template-hash only the cluster knows: which pods both select is the cluster\'s to say',
      code: documents(db, forPod('db-0'), pdb('  maxUnavailable: 1\n', { name: 'db', selector: '    matchLabels:\n      app: db\n    matchExpressions:\n      - {key: pod-template-hash, operator: DoesNotExist}\n' })),
    },
    { name: 'a budget for each pod of a StatefulSet, by the names its controller gives them: no pod has two', code: documents(db, forPod('db-0'), forPod('db-1'), forPod('db-2')) },
    {
      name: 'a budget for db-0 beside one for every other pod of db: no pod has two',
      code: documents(db, forPod('db-0'), pdb('  maxUnavailable: 1\n', { name: 'db-rest', selector: '    matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [db-0]}\n' })),
    },
    {
      name: 'a budget for every pod of db but db-0 beside one for pods no StatefulSet names (none of db\'s): the template, which carries no pod name, matches both',
      code: documents(
        db,
        pdb('  maxUnavailable: 1\n', { name: 'db-rest', selector: '    matchLabels:\n      app: db\n    matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [db-0]}\n' }),
        pdb('  maxUnavailable: 1\n', { name: 'not-stateful', selector: '    matchLabels:\n      app: db\n    matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: DoesNotExist}\n' }),
      ),
    },
    { name: 'a budget for a pod the StatefulSet does not run beside one for all its pods', code: documents(db, forPod('db-3'), pdb('  maxUnavailable: 1\n', { name: 'db', selector: '    matchLabels:\n      app: db\n' })) },
    { name: 'a budget for db-0 beside one for all the pods of a StatefulSet whose ordinals start at 1: it runs no db-0', code: documents(dbFromOne, forPod('db-0'), pdb('  maxUnavailable: 1\n', { name: 'db', selector: '    matchLabels:\n      app: db\n' })) },
    { name: 'one PDB per workload', code: documents(web, pdb('  maxUnavailable: 1\n'), deployment({ name: 'api' }), pdb('  maxUnavailable: 1\n', { name: 'api-pdb', selector: '    matchLabels:\n      app: api\n' })) },
    { name: 'a second PDB of the same labels in another namespace', code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  maxUnavailable: 1\n', { name: 'other', namespace: 'shop' })) },
    {
      name: 'a second PDB whose expression excludes the pods',
      code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  maxUnavailable: 1\n', { name: 'not-web', selector: '    matchExpressions:\n      - key: app\n        operator: NotIn\n        values: [web]\n' })),
    },
    { name: 'a policy/v1beta1 PDB with an empty selector selects no pod, so no second budget', code: documents(web, pdb('  maxUnavailable: 1\n'), everyPod('policy/v1beta1')) },
    { name: 'one PDB written twice is one object (the second apply updates it), not two budgets', code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  maxUnavailable: 1\n')) },
    {
      name: 'one PDB written once per environment\'s folder: alternatives, never both in one cluster',
      code: pdb('  maxUnavailable: 1\n'),
      files: { 'base/web.yaml': web, 'dev/pdb.yaml': pdb('  maxUnavailable: 2\n') },
    },
    { name: 'a second PDB the API server rejects (both budgets) is never created, so it shares no pod', code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  minAvailable: 1\n  maxUnavailable: 1\n', { name: 'web-both' })) },
    { name: 'nor one whose eviction policy it does not know', code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: alwaysallow\n', { name: 'web-policy' })) },
    {
      name: 'a budget for one pod whose selector the API server rejects (matchExpressions written as a mapping) beside one for all: it selects no pod (it stopped check as "a bug")',
      code: documents(db, pdb('  maxUnavailable: 1\n', { name: 'db-0-pdb', selector: '    matchLabels:\n      statefulset.kubernetes.io/pod-name: db-0\n    matchExpressions: {}\n' }), pdb('  maxUnavailable: 1\n', { name: 'db', selector: '    matchLabels:\n      app: db\n' })),
    },
    { name: 'a budget for the pods of another Job, by the job-name its controller gives them, beside one for the pods of this Job', code: documents(migrate, forJob('batch.kubernetes.io/job-name', 'seed'), byApp) },
  ],
  invalid: [
    {
      name: 'a budget for the pods of a Job by the job-name its controller gives them, beside one by its template labels: its pods have two',
      code: documents(migrate, forJob('job-name', 'migrate'), byApp),
      findings: [
        { at: 'selector', message: /^PodDisruptionBudget migrate-job-pdb shares its pods with another PDB: .* PodDisruptionBudget migrate-job-pdb and PodDisruptionBudget migrate-app both select the pods of Job migrate,/ },
        { at: 'selector', message: /^PodDisruptionBudget migrate-app shares its pods with another PDB: .* PodDisruptionBudget migrate-app and PodDisruptionBudget migrate-job-pdb both select the pods of Job migrate,/ },
      ],
      output: null,
    },
    {
      name: 'a budget for one pod of a StatefulSet beside one for all its pods: that pod has two (the controller\'s pod-name label, which no template shows, was not looked at)',
      code: documents(db, forPod('db-0'), pdb('  maxUnavailable: 1\n', { name: 'db', selector: '    matchLabels:\n      app: db\n' })),
      findings: [
        { at: 'selector', message: /^PodDisruptionBudget db-0-pdb shares its pods with another PDB: every node drain hangs on them\. PodDisruptionBudget db-0-pdb and PodDisruptionBudget db both select the pods of StatefulSet db,/ },
        { at: 'selector', message: /^PodDisruptionBudget db shares its pods with another PDB: .* PodDisruptionBudget db and PodDisruptionBudget db-0-pdb both select the pods of StatefulSet db,/ },
      ],
    },
    {
      name: 'a budget for db-3 beside one for all the pods of a StatefulSet whose ordinals start at 1: db-3 is its third pod, and has two',
      code: documents(dbFromOne, forPod('db-3'), pdb('  maxUnavailable: 1\n', { name: 'db', selector: '    matchLabels:\n      app: db\n' })),
      findings: [
        { at: 'selector', message: /^PodDisruptionBudget db-3-pdb shares its pods with another PDB: every node drain hangs on them\. PodDisruptionBudget db-3-pdb and PodDisruptionBudget db both select the pods of StatefulSet db,/ },
        { at: 'selector', message: /^PodDisruptionBudget db shares its pods with another PDB: .* PodDisruptionBudget db and PodDisruptionBudget db-3-pdb both select the pods of StatefulSet db,/ },
      ],
    },
    {
      name: 'a policy/v1 PDB with an empty selector selects every pod of its namespace, those of another budget too',
      code: documents(web, pdb('  maxUnavailable: 1\n'), everyPod('policy/v1')),
      findings: [
        { at: 'selector', message: /^PodDisruptionBudget web-pdb shares its pods with another PDB: .* PodDisruptionBudget web-pdb and PodDisruptionBudget every-pod both select the pods of Deployment web/ },
        { at: 'selector', message: /^PodDisruptionBudget every-pod shares its pods with another PDB: .* PodDisruptionBudget every-pod and PodDisruptionBudget web-pdb both select the pods of Deployment web/ },
      ],
      output: null,
    },
    {
      name: 'two PDBs in one file select the same Deployment: both are reported',
      code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  minAvailable: 1\n', { name: 'web-min' })),
      findings: [
        { at: 'selector', line: 25, message: 'PodDisruptionBudget web-pdb shares its pods with another PDB: every node drain hangs on them. PodDisruptionBudget web-pdb and PodDisruptionBudget web-min both select the pods of Deployment web, and the eviction API refuses to evict pods with more than one PDB. Keep one PDB per pod.' },
        { at: 'selector', line: 35, message: /^PodDisruptionBudget web-min shares its pods with another PDB: every node drain hangs on them\. PodDisruptionBudget web-min and PodDisruptionBudget web-pdb both select/ },
      ],
      output: null,
    },
    {
      name: 'a policy/v1beta1 PDB with an eviction policy, a field it drops, is no rejected one: it shares the pods too',
      code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: foo\n', { name: 'web-beta' }).replace('policy/v1', 'policy/v1beta1')),
      findings: [{ at: 'selector', message: /^PodDisruptionBudget web-pdb shares its pods/ }, { at: 'selector', message: /^PodDisruptionBudget web-beta shares its pods/ }],
      output: null,
    },
    {
      name: 'two PDBs named by generateName are two objects, whatever their prefix',
      code: documents(web, pdb('  maxUnavailable: 1\n').replace('  name: web-pdb\n', '  generateName: web-\n'), pdb('  maxUnavailable: 1\n').replace('  name: web-pdb\n', '  generateName: web-\n')),
      findings: [{ at: 'selector', message: /shares its pods with another PDB/ }, { at: 'selector', message: /shares its pods with another PDB/ }],
      output: null,
    },
    {
      name: 'the other PDB lives in another file and selects by expression',
      code: documents(web, pdb('  maxUnavailable: 1\n')),
      files: { 'all.yaml': pdb('  maxUnavailable: 1\n', { name: 'everything-web', selector: '    matchExpressions:\n      - key: app\n        operator: Exists\n' }) },
      findings: [{ at: 'selector', message: /^PodDisruptionBudget web-pdb shares its pods with another PDB: .* PodDisruptionBudget web-pdb and PodDisruptionBudget everything-web both select the pods of Deployment web/, related: ['manifest.yaml: kind: Deployment', 'all.yaml: selector'] }],
      output: null,
    },
    {
      name: 'twenty-five PDBs over one Deployment: each names five others and says how many more, and carries twenty related locations, its Deployment first, the last saying how many more',
      code: documents(web, ...Array.from({ length: 25 }, (_, i) => pdb('  maxUnavailable: 1\n', { name: `web-${i}` }))),
      findings: Array.from({ length: 25 }, (_, i) => {
        const others = Array.from({ length: 25 }, (_, j) => j).filter((j) => j !== i);
        const named = others.slice(0, 5).map((j) => `PodDisruptionBudget web-${j}`).join(', ');
        return {
          at: 'selector',
          message: `PodDisruptionBudget web-${i} shares its pods with 24 other PDBs: every node drain hangs on them. PodDisruptionBudget web-${i}, ${named} and 19 more all select the pods of Deployment web, and the eviction API refuses to evict pods with more than one PDB. Keep one PDB per pod.`,
          related: ['manifest.yaml: kind: Deployment', ...Array.from({ length: 19 }, () => 'manifest.yaml: selector')],
        };
      }),
      output: null,
    },
    {
      name: 'three PDBs: each names the two others',
      code: documents(web, pdb('  maxUnavailable: 1\n'), pdb('  minAvailable: 1\n', { name: 'web-min' }), pdb('  minAvailable: 2\n', { name: 'web-two' })),
      findings: [
        { at: 'selector', message: /^PodDisruptionBudget web-pdb shares its pods with 2 other PDBs: .* PodDisruptionBudget web-pdb, PodDisruptionBudget web-min and PodDisruptionBudget web-two all select/ },
        { at: 'selector', message: /^PodDisruptionBudget web-min shares its pods with 2 other PDBs: .* PodDisruptionBudget web-min, PodDisruptionBudget web-pdb and PodDisruptionBudget web-two all select/ },
        { at: 'selector', message: /^PodDisruptionBudget web-two shares its pods with 2 other PDBs: .* PodDisruptionBudget web-two, PodDisruptionBudget web-pdb and PodDisruptionBudget web-min all select/ },
      ],
    },
  ],
});
