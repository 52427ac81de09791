import { pdbSelectsNothing } from '../../server/src/rules/pdb-selects-nothing';
import { cluster, fromObject, pod } from '../cluster-fixtures';
import { deployment, documents, pdb, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

const budget = '  maxUnavailable: 1\n';
const db = deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n' });
/** The StatefulSet db of 3 replicas whose ordinals start at 1: its pods are db-1, db-2 and db-3. */
const dbFromOne = deployment({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 3\n  ordinals:\n    start: 1\n' });
const selecting = (labels: string) => pdb('  minAvailable: 1\n', { name: 'per-pod', selector: `    matchLabels:\n${labels}` });

ruleTester(pdbSelectsNothing, {
  valid: [
    { name: 'selects the Deployment beside it', code: documents(deployment(), pdb(budget)) },
    { name: 'one pod of a StatefulSet, by the name its controller labels it with (a budget per pod)', code: documents(db, selecting('      statefulset.kubernetes.io/pod-name: db-2\n')) },
    { name: 'one pod of a StatefulSet, by its index', code: documents(db, selecting('      app: db\n      apps.kubernetes.io/pod-index: "0"\n')) },
    { name: 'the last pod of a StatefulSet whose ordinals start at 1 (db-3 of 3 replicas)', code: documents(dbFromOne, selecting('      statefulset.kubernetes.io/pod-name: db-3\n')) },
    { name: 'the same by its index', code: documents(dbFromOne, selecting('      apps.kubernetes.io/pod-index: "3"\n')) },
    {
      name: 'every pod of a StatefulSet but one, by name',
      code: documents(db, pdb(budget, { name: 'not-first', selector: '    matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [db-0]}\n' })),
    },
    { name: 'the pods of a Job, by the name its controller labels them with', code: documents('apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  template:\n    metadata:\n      labels:\n        app: migrate\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: migrate\n          image: migrate:1\n', selecting('      batch.kubernetes.io/job-name: migrate\n')) },
    {
      name: 'only a pod-template-hash, with a workload in another namespace: which pods carry it is the cluster\'s to say, so no namespace is called the mistake',
      code: pdb(budget, { namespace: 'shop', selector: '    matchLabels:\n      pod-template-hash: 5d8f7b9c4\n' }),
      files: { 'web.yaml': deployment() },
    },
    { name: 'one revision of a Deployment, by the pod-template-hash only the cluster knows', code: documents(deployment(), selecting('      app: web\n      pod-template-hash: 5d8f7b9c4\n')) },
    { name: 'selects a Deployment in another file', code: pdb(budget), files: { 'web.yaml': deployment() } },
    { name: 'a policy/v1beta1 PDB whose selector names labels selects by them, as policy/v1 does', code: documents(deployment(), pdb(budget).replace('policy/v1', 'policy/v1beta1')) },
    { name: 'nothing at all is known in its namespace: the workload ships elsewhere', code: pdb(budget) },
    { name: 'only other namespaces have workloads', code: documents(deployment({ name: 'api', namespace: 'shop' }), pdb(budget)) },
    { name: 'selects pods of the live cluster', code: documents(deployment({ name: 'api' }), pdb(budget)), cluster: cluster([pod('web-5d8f-abcde', { labels: { app: 'web' } })]) },
    {
      name: 'an operator creates the pods from a custom resource in the namespace',
      code: documents(deployment({ name: 'grafana' }), pdb(budget, { selector: '    matchLabels:\n      app.kubernetes.io/name: alertmanager\n' })),
      files: { 'alertmanager.yaml': 'apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata:\n  name: main\nspec:\n  replicas: 3\n' },
    },
    {
      name: 'selects by Exists and DoesNotExist, which take no values (the selector checks of the API server pass them)',
      code: documents(deployment(), pdb(budget, { selector: '    matchExpressions:\n      - key: app\n        operator: Exists\n      - key: canary\n        operator: DoesNotExist\n' })),
    },
    {
      name: 'a matchLabels value written null is an empty string, which a pod labelled so carries',
      code: documents(deployment({ name: 'api' }), pdb(budget, { selector: '    matchLabels:\n      tier:\n' })),
      cluster: cluster([pod('api-5d8f-abcde', { labels: { tier: '' } })]),
    },
    {
      name: 'selects by matchExpressions',
      code: documents(deployment(), pdb(budget, { selector: '    matchExpressions:\n      - key: app\n        operator: In\n        values: [web, www]\n' })),
    },
  ],
  invalid: [
    {
      name: 'a policy/v1beta1 PDB with an empty selector selects no pod (policy/v1 would select every pod of the namespace)',
      code: documents(deployment(), pdb(budget, { name: 'every-pod', selector: '    {}\n' }).replace('policy/v1', 'policy/v1beta1')),
      findings: [
        {
          at: 'selector',
          message: 'PodDisruptionBudget every-pod guards no pod: the workload it was meant for drains without a budget. It has an empty selector, which policy/v1beta1 reads as no pod at all (policy/v1 reads it as every pod of the namespace).',
        },
      ],
    },
    {
      name: 'the workload it selects lives in another namespace: the namespace is the mistake',
      code: pdb('  maxUnavailable: 1\n', { namespace: 'default' }),
      files: { 'web.yaml': deployment({ namespace: 'shop', spec: '  replicas: 3\n' }) },
      findings: [
        {
          at: 'namespace',
          severity: 'warning',
          message: 'PodDisruptionBudget web-pdb guards no pod: the workload it was meant for drains without a budget. It selects app=web, which nothing known in namespace default carries, while Deployment shop/web in namespace shop does: a PDB guards pods of its own namespace only, so its namespace is the mistake (move it to shop).',
        },
      ],
    },
    {
      name: 'a StatefulSet pod the StatefulSet does not run (db-3 of 3 replicas)',
      code: documents(db, selecting('      statefulset.kubernetes.io/pod-name: db-3\n')),
      findings: [{ at: 'selector', message: /^PodDisruptionBudget per-pod guards no pod: .* It selects statefulset\.kubernetes\.io\/pod-name=db-3, but no workload or pod known in namespace default \(1 searched in the workspace\) carries those labels\.$/ }],
    },
    {
      name: 'db-0 of a StatefulSet whose ordinals start at 1: it runs db-1 to db-3',
      code: documents(dbFromOne, selecting('      statefulset.kubernetes.io/pod-name: db-0\n')),
      findings: [{ at: 'selector', message: /It selects statefulset\.kubernetes\.io\/pod-name=db-0, but no workload or pod known in namespace default \(1 searched in the workspace\) carries those labels\.$/ }],
    },
    {
      name: 'a pod-template-hash beside a label no workload carries: the rest of the selector still selects nothing',
      code: documents(deployment(), selecting('      app: wbe\n      pod-template-hash: 5d8f7b9c4\n')),
      findings: [{ at: 'selector', message: /It selects app=wbe,pod-template-hash=5d8f7b9c4, but no workload or pod known/ }],
    },
    {
      name: 'a label typo next to the workload it was meant for',
      code: documents(deployment(), pdb(budget, { selector: '    matchLabels:\n      app: wbe\n' })),
      findings: [
        {
          at: 'selector',
          line: 24,
          severity: 'hint',
          message: 'PodDisruptionBudget web-pdb guards no pod: the workload it was meant for drains without a budget. It selects app=wbe, but no workload or pod known in namespace default (1 searched in the workspace) carries those labels.',
        },
      ],
      output: null,
    },
    {
      name: 'the live cluster is searched too, and says so',
      code: documents(deployment({ name: 'api' }), pdb(budget)),
      cluster: cluster([pod('api-1', { labels: { app: 'api' } })]),
      findings: [{ at: 'selector', message: /no workload or pod known in namespace default \(2 searched in the workspace and the live cluster\)/ }],
    },
    {
      name: 'a KEDA ScaledObject in the namespace, live or in the workspace, makes no pods: no operator stands behind it',
      code: documents(deployment(), pdb(budget, { selector: '    matchLabels:\n      app: wbe\n' })),
      files: { 'keda.yaml': scaledObject() },
      cluster: cluster([fromObject({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'api', namespace: 'default' }, spec: { scaleTargetRef: { name: 'api' } } })]),
      findings: [{ at: 'selector', message: /selects app=wbe, but no workload or pod known/ }],
    },
    {
      name: 'built-in kinds of a *.k8s.io group are no custom resources',
      code: documents(deployment(), pdb(budget, { selector: '    matchLabels:\n      app: wbe\n' })),
      files: { 'policy.yaml': 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny\nspec:\n  podSelector: {}\n' },
      findings: [{ at: 'selector', message: /selects app=wbe, but no workload or pod known/ }],
    },
    {
      name: 'a selector written as a string',
      code: documents(deployment(), pdb(budget, { selector: '    app=web\n' }).replace('  selector:\n    app=web\n', '  selector: app=web\n')),
      findings: [{ at: 'selector', message: /^PodDisruptionBudget web-pdb guards no pod: the workload it was meant for drains without a budget\. It has a malformed selector, which the API server rejects, so it selects no pods at all/ }],
    },
    {
      name: 'matchExpressions that are not a list, with nothing else known',
      code: documents(pdb(budget, { selector: '    matchExpressions: app\n' })),
      findings: [{ at: 'selector', message: /has a selector the API server rejects \(matchExpressions is no list\), so the PDB is never created/ }],
    },
    ...[
      ['    matchLabels:\n      enabled: true\n', 'matchLabels enabled: true is no string (quote it)'],
      ['    matchExpressions:\n      - key: app\n        operator: Exists\n        values: [web]\n', 'app Exists has values, which it must not'],
      ['    matchExpressions:\n      - key: app\n        operator: in\n        values: [web]\n', 'the operator of app is "in", not one of In, NotIn, Exists, DoesNotExist'],
    ].map(([selector, fault]) => ({
      name: `a selector the API server rejects, though it looks like one that selects the Deployment: ${fault}`,
      code: documents(deployment().replace('        app: web\n', '        app: web\n        enabled: "true"\n'), pdb(budget, { selector })),
      findings: [{ at: 'selector', message: `PodDisruptionBudget web-pdb guards no pod: the workload it was meant for drains without a budget. It has a selector the API server rejects (${fault}), so the PDB is never created and selects no pods at all.` }],
    })),
    {
      name: 'no selector at all',
      code: documents(deployment(), 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web-pdb\nspec:\n  maxUnavailable: 1\n'),
      findings: [{ at: 'spec', message: /^PodDisruptionBudget web-pdb guards no pod: .* It has no selector, so it selects no pods at all\./ }],
    },
  ],
});
