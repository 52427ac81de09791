import { pdbMissing } from '../../server/src/rules/pdb-missing';
import { resourceFromObject } from '../../server/src/manifest/parse';
import { cluster } from '../cluster-fixtures';
import { deployment, documents, hpa, pdb, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

const web = (replicas: number, namespace?: string) => deployment({ spec: `  replicas: ${replicas} # sized for the launch\n`, namespace });
/** The PDB the fix appends: `name` (web-pdb), of the pods labelled `app` (web). */
const generated = (namespace?: string, { name = 'web-pdb', app = 'web' } = {}) =>
  `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels:\n      app: ${app}\n`;
/** A StatefulSet also named web, of other pods (app: web-db). */
const webDb = deployment({ kind: 'StatefulSet', app: 'web-db', spec: '  replicas: 3\n' });
/** A PDB named `name` (web-pdb) of other pods (app: legacy). */
const legacyPdb = (name?: string) => pdb('  maxUnavailable: 1\n', { name, selector: '    matchLabels:\n      app: legacy\n' });
/** A Deployment of 3 replicas whose selector and pod labels are written apart (flow mappings). */
const labelled = (name: string, selector: string, labels: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {${selector}}\n  template:\n    metadata:\n      labels: {${labels}}\n    spec:\n      containers:\n        - name: main\n          image: nginx:1.27\n`;
const byExpression = (operator: string) => ({ selector: `    matchExpressions:\n      - key: app\n        operator: ${operator}\n        values: [web]\n` });

ruleTester(pdbMissing, {
  valid: [
    {
      name: 'a label left empty on both sides (`tier:` as Helm renders an unset value): null is the empty string to the API server, so the PDB selects the pods',
      code: web(3).replace('        app: web\n', '        app: web\n        tier:\n'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n', { selector: '    matchLabels:\n      app: web\n      tier:\n' }) },
    },
    { name: 'a PDB beside it', code: documents(web(3), pdb('  maxUnavailable: 1\n')) },
    { name: 'scaled to zero under an HPA of minReplicas 3: no pod runs (the HPA leaves a target at zero alone)', code: documents(web(0), hpa({ min: 3, max: 3 })) },
    { name: 'a PDB in another file', code: web(3), files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') } },
    { name: 'a PDB selecting by matchExpressions', code: web(3), files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n', byExpression('In')) } },
    { name: 'one replica (single-replica covers it)', code: web(1) },
    { name: 'three replicas written, but KEDA\'s paused-replicas holds it at 1', code: web(3), files: { 'keda.yaml': scaledObject({ spec: '  minReplicaCount: 2\n', annotations: '    autoscaling.keda.sh/paused-replicas: "1"\n' }) } },
    { name: 'three replicas written, but the HPA floor is 1', code: web(3), files: { 'hpa.yaml': hpa({ min: 1 }) } },
    { name: 'a kube-system add-on', code: web(2, 'kube-system') },
    { name: 'three replicas written, but a KEDA ScaledObject scales it to zero while idle (minReplicaCount 0, its default)', code: web(3), files: { 'keda.yaml': scaledObject() } },
    {
      name: 'a StatefulSet with a PDB for each of its pods, by the names its controller gives them (pdb-blocks-eviction says what they allow)',
      code: documents(
        deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 2\n' }),
        ...['db-0', 'db-1'].map((pod) => pdb('  minAvailable: 1\n', { name: pod, selector: `    matchLabels:\n      statefulset.kubernetes.io/pod-name: ${pod}\n` })),
      ),
    },
  ],
  invalid: [
    {
      name: 'three replicas and no PDB: one is appended with the workload selector',
      code: web(3),
      findings: [{ at: 'kind: Deployment', line: 2, message: 'Deployment web: 3 replicas and no PDB: a drain may evict all 3 pods at once. A node drain or an autoscaler scale-down evicts without limit; a PDB makes them take the pods one at a time.' }],
      output: documents(web(3), generated()),
    },
    {
      name: 'a label value Kubernetes would read as a number when written plain (Go\'s 0o17) is quoted in the new PDB\'s selector',
      code: labelled('web', 'app: web, build: "0o17"', 'app: web, build: "0o17"'),
      findings: [{ at: 'kind: Deployment' }],
      output: documents(labelled('web', 'app: web, build: "0o17"', 'app: web, build: "0o17"'), generated().replace('      app: web\n', '      app: web\n      build: "0o17"\n')),
    },
    {
      name: 'the HPA floor of 2 makes a single written replica several',
      code: web(1),
      files: { 'hpa.yaml': hpa({ min: 2 }) },
      findings: [{ message: /^Deployment web: HPA minReplicas 2 and no PDB: a drain may evict both pods at once\. /, related: ['hpa.yaml: minReplicas'] }],
      output: documents(web(1), generated()),
    },
    {
      name: 'no replicas field, but a KEDA ScaledObject keeps at least 3 pods (minReplicaCount 3): its floor, said as KEDA\'s',
      code: deployment(),
      files: { 'keda.yaml': scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 10\n' }) },
      findings: [{ message: /^Deployment web: KEDA minReplicaCount 3 and no PDB: a drain may evict all 3 pods at once\. /, related: ['keda.yaml: minReplicaCount'] }],
      output: documents(deployment(), generated()),
    },
    {
      name: 'one replica written, but KEDA\'s paused-replicas holds it at 3: said so, the annotation related',
      code: web(1),
      files: { 'keda.yaml': scaledObject({ annotations: '    autoscaling.keda.sh/paused-replicas: "3"\n' }) },
      findings: [{ message: /^Deployment web: 3 replicas \(held by KEDA's paused-replicas\) and no PDB: a drain may evict all 3 pods at once\. /, related: ['keda.yaml: autoscaling.keda.sh/paused-replicas'] }],
      output: documents(web(1), generated()),
    },
    {
      name: 'a PDB of the same labels in another namespace does not count; the new one keeps the namespace',
      code: web(2, 'shop'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /^Deployment shop\/web: 2 replicas and no PDB: / }],
      output: documents(web(2, 'shop'), generated('shop')),
    },
    {
      name: 'its selector also takes the pods of a workload with a budget: the new PDB selects its pod template\'s labels, so no pod gets two budgets',
      code: labelled('b', 'app: x', 'app: x, role: b'),
      files: { 'a.yaml': documents(labelled('a', 'app: x, role: a', 'app: x, role: a'), pdb('  maxUnavailable: 1\n', { name: 'a-pdb', selector: '    matchLabels: {app: x, role: a}\n' })) },
      findings: [{ message: /^Deployment b: 3 replicas and no PDB/ }],
      output: documents(labelled('b', 'app: x', 'app: x, role: b'), 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: b-pdb\nspec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels:\n      app: x\n      role: b\n'),
    },
    {
      name: 'its selector also takes the pods of a workload without a budget: the new PDB keeps its own selector and covers both, as one app\'s two Deployments',
      code: labelled('b', 'app: x', 'app: x, role: b'),
      files: { 'a.yaml': labelled('a', 'app: x, role: a', 'app: x, role: a') },
      findings: [{ message: /^Deployment b: 3 replicas and no PDB/ }],
      output: documents(labelled('b', 'app: x', 'app: x, role: b'), 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: b-pdb\nspec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels:\n      app: x\n'),
    },
    {
      name: 'its pods carry no label another budgeted workload\'s pods lack: no fix (a second budget would make every eviction of those pods fail)',
      code: labelled('b', 'app: x', 'app: x'),
      files: { 'a.yaml': documents(labelled('a', 'app: x, role: a', 'app: x, role: a'), pdb('  maxUnavailable: 1\n', { name: 'a-pdb', selector: '    matchLabels: {app: x, role: a}\n' })) },
      findings: [{ message: /^Deployment b: 3 replicas and no PDB/ }],
      output: null,
    },
    {
      name: 'a PDB of other pods has its name in its folder: the new one is numbered (applied, one would replace the other)',
      code: web(3),
      files: { 'legacy.yaml': legacyPdb(), 'more.yaml': legacyPdb('web-pdb-2') },
      findings: [{ at: 'kind: Deployment' }],
      output: documents(web(3), generated(undefined, { name: 'web-pdb-3' })),
    },
    {
      name: 'a PDB of that name in the live cluster: the new one is numbered',
      code: web(3),
      cluster: cluster([resourceFromObject({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web-pdb', namespace: 'default' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'legacy' } } } })!]),
      findings: [{ at: 'kind: Deployment' }],
      output: documents(web(3), generated(undefined, { name: 'web-pdb-2' })),
    },
    {
      name: 'a StatefulSet of its name in another folder (another environment\'s) leaves the name as it is',
      code: web(3),
      files: { 'prod/web.yaml': webDb },
      findings: [{ at: 'kind: Deployment' }],
      output: documents(web(3), generated()),
    },
    {
      name: 'a Deployment web beside a StatefulSet web and a Deployment web-deployment: each new PDB has a name of its own',
      code: documents(web(3), deployment({ name: 'web-deployment', app: 'wd', spec: '  replicas: 3\n' })),
      files: { 'sts.yaml': documents(webDb, pdb('  maxUnavailable: 1\n', { name: 'web-db-pdb', selector: '    matchLabels:\n      app: web-db\n' })) },
      findings: [{ at: 'kind: Deployment', line: 2 }, { at: 'kind: Deployment', line: 20 }],
      output: documents(
        web(3),
        generated(undefined, { name: 'web-deployment-pdb-2' }),
        deployment({ name: 'web-deployment', app: 'wd', spec: '  replicas: 3\n' }),
        generated(undefined, { name: 'web-deployment-pdb', app: 'wd' }),
      ),
    },
    {
      name: 'a ConfigMap and a Service named web-pdb in its folder leave the name as it is (only a PDB of that name would be replaced)',
      code: web(3),
      files: {
        'config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-pdb\ndata:\n  mode: strict\n',
        'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web-pdb\nspec:\n  selector:\n    app: legacy\n  ports:\n    - port: 80\n',
      },
      findings: [{ at: 'kind: Deployment' }],
      output: documents(web(3), generated()),
    },
    {
      name: 'a Deployment web beside a StatefulSet web, and a Deployment web-deployment in another folder: the new PDB is web-deployment-pdb',
      code: web(3),
      files: {
        'sts.yaml': documents(webDb, pdb('  maxUnavailable: 1\n', { name: 'web-db-pdb', selector: '    matchLabels:\n      app: web-db\n' })),
        'prod/web-deployment.yaml': deployment({ name: 'web-deployment', app: 'wd', spec: '  replicas: 3\n' }),
      },
      findings: [{ at: 'kind: Deployment' }],
      output: documents(web(3), generated(undefined, { name: 'web-deployment-pdb' })),
    },
    {
      name: 'a PDB of that name in another folder (another environment\'s) leaves the name as it is',
      code: web(3),
      files: { 'prod/pdb.yaml': legacyPdb() },
      findings: [{ at: 'kind: Deployment' }],
      output: documents(web(3), generated()),
    },
    {
      name: 'a Deployment and a StatefulSet of one name: each new PDB is named with its kind, so that fixed in one go they do not share a name',
      code: documents(web(3), webDb),
      findings: [{ at: 'kind: Deployment' }, { at: 'kind: StatefulSet' }],
      output: documents(
        web(3),
        generated(undefined, { name: 'web-deployment-pdb' }),
        webDb,
        generated(undefined, { name: 'web-statefulset-pdb', app: 'web-db' }),
      ),
    },
    {
      name: 'a PDB whose expression excludes the pods does not count',
      code: documents(web(2), pdb('  maxUnavailable: 1\n', { ...byExpression('NotIn'), name: 'not-web' })),
      findings: [{ at: 'kind: Deployment', line: 2 }],
    },
  ],
});
