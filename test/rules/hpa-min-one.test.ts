import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { hpaMinOne } from '../../server/src/rules/hpa-min-one';
import { HEADLINE_LIMIT, headlineLength, splitMessage } from '../../server/src/rules/message-parts';
import { deployment, documents, hpa, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(hpaMinOne, {
  valid: [
    { name: 'minReplicas 2', code: hpa({ min: 2 }) },
    { name: 'minReplicas 0: scale to zero is a decision', code: hpa({ min: 0 }) },
    { name: 'it names a DaemonSet, which has no scale: it runs no pod of it (FailedGetScale)', code: hpa({ kind: 'DaemonSet', min: 1 }) },
    {
      name: 'it names a DaemonSet in view, which has no scale',
      code: [deployment({ kind: 'DaemonSet' }), hpa({ kind: 'DaemonSet', min: 1 })].join('---\n'),
    },
    { name: 'its ref has no apiVersion: the controller finds no Deployment in the core group, so it scales nothing', code: [deployment(), hpa({ min: 1 }).replace('    apiVersion: apps/v1\n', '')].join('---\n') },
    { name: 'the API server rejects it (maxReplicas 0): hpa-no-headroom says so', code: hpa({ min: 1, max: 0 }) },
    { name: 'its target scaled to zero on purpose (replicas: 0): the HPA does not scale it at all', code: [deployment({ spec: '  replicas: 0\n' }), hpa({ min: 1 })].join('---\n') },
    { name: 'a KEDA ScaledObject without minReplicaCount: it scales to zero on purpose (its default of 0)', code: documents(deployment(), scaledObject()) },
    { name: 'a KEDA ScaledObject of minReplicaCount 3', code: documents(deployment(), scaledObject({ spec: '  minReplicaCount: 3\n' })) },
    { name: 'a KEDA ScaledObject of minReplicaCount 1 and idleReplicaCount 0: idle, it runs none, on purpose', code: documents(deployment(), scaledObject({ spec: '  idleReplicaCount: 0\n  minReplicaCount: 1\n' })) },
    { name: 'a paused KEDA ScaledObject of minReplicaCount 1: it scales nothing', code: documents(deployment(), scaledObject({ spec: '  minReplicaCount: 1\n', annotations: '    autoscaling.keda.sh/paused: "true"\n' })) },
  ],
  invalid: [
    {
      name: 'minReplicas 1, replaced in place',
      code: hpa({ min: 1 }).replace('  minReplicas: 1\n', '  minReplicas: 1 # nights are quiet\n'),
      files: { 'web.yaml': deployment() },
      findings: [
        {
          at: 'minReplicas',
          line: 10,
          message: 'HorizontalPodAutoscaler web scales to 1 pod: a node failure takes it offline. With minReplicas 1, at low load it runs 1 pod of Deployment web, and while the control plane is down the HPA cannot scale, so 1 pod is all the capacity there is.',
        },
      ],
      output: hpa({ min: 2 }).replace('  minReplicas: 2\n', '  minReplicas: 2 # nights are quiet\n'),
    },
    {
      name: 'a KEDA ScaledObject of minReplicaCount 1: its own fields are raised, minReplicaCount to 2 and maxReplicaCount 2 to 3 (never an HPA\'s)',
      code: scaledObject({ spec: '  minReplicaCount: 1\n  maxReplicaCount: 2\n' }),
      files: { 'web.yaml': deployment() },
      findings: [
        {
          at: 'minReplicaCount',
          message: 'ScaledObject web (KEDA) scales to 1 pod: a node failure takes it offline. With minReplicaCount 1, at low load it runs 1 pod of Deployment web, and while the control plane is down KEDA\'s HPA cannot scale, so 1 pod is all the capacity there is.',
          related: ['web.yaml: kind: Deployment'],
        },
      ],
      output: scaledObject({ spec: '  minReplicaCount: 2\n  maxReplicaCount: 3\n' }),
    },
    {
      name: 'minReplicas unset: added',
      code: hpa({ max: 5 }),
      files: { 'web.yaml': deployment() },
      findings: [{ at: 'kind: HorizontalPodAutoscaler', message: /^HorizontalPodAutoscaler web scales to 1 pod: a node failure takes it offline\. With no minReplicas \(it defaults to 1\), / }],
      output: hpa({ max: 5 }) + '  minReplicas: 2\n',
    },
    {
      name: 'maxReplicas 1 is raised with it, or the API would reject the HPA',
      code: hpa({ min: 1, max: 1 }),
      files: { 'web.yaml': deployment() },
      findings: [{ at: 'minReplicas' }],
      output: hpa({ min: 2, max: 2 }),
    },
    {
      name: 'maxReplicas 2 becomes 3: with minReplicas 2 of 2 the HPA could never add a pod',
      code: hpa({ min: 1, max: 2 }),
      files: { 'web.yaml': deployment() },
      findings: [{ at: 'minReplicas' }],
      output: hpa({ min: 2, max: 3 }),
    },
    {
      name: 'the scaled workload in another file is related',
      code: hpa({ min: 1 }),
      files: { 'web.yaml': deployment() },
      findings: [{ at: 'minReplicas', related: ['web.yaml: kind: Deployment'] }],
    },
    {
      name: 'the scaled workload not among the resources read: nothing tells it is no database, so the fix is unsafe (it was applied)',
      code: hpa({ min: 1 }),
      findings: [{ at: 'minReplicas' }],
      output: null,
      unsafeOutput: hpa({ min: 2 }),
    },
    {
      name: 'an Argo Rollout in view (a custom resource with a scale of its own) is as unknown as one not in view: reported all the same',
      code: hpa({ kind: 'Rollout', min: 1 }).replace('apiVersion: apps/v1', 'apiVersion: argoproj.io/v1alpha1'),
      files: { 'rollout.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\nspec:\n  replicas: 5\n' },
      findings: [{ at: 'minReplicas', message: /at low load it runs 1 pod of Rollout web/ }],
      output: null,
    },
    {
      name: 'a GPU workload: a second pod doubles its GPUs, so the fix is unsafe',
      code: hpa({ min: 1 }),
      files: { 'web.yaml': deployment({ container: '          resources:\n            limits:\n              nvidia.com/gpu: 1\n' }) },
      findings: [{ at: 'minReplicas' }],
      output: null,
      unsafeOutput: hpa({ min: 2 }),
    },
  ],
});

it('says it in a first sentence of at most 100 characters, whatever the HPA and its namespace are called (its kind\'s name is long)', () => {
  for (const min of [1, undefined]) {
    const inventory = new Inventory();
    const file = parseManifest('file:///hpa.yaml', hpa({ min, target: 'frontend-web', namespace: 'production-1' }));
    inventory.setFile(file);
    const [finding] = analyzeFile(file, inventory, { rules: [hpaMinOne] });
    assert.ok(headlineLength(finding) <= HEADLINE_LIMIT, splitMessage(finding.message).headline);
  }
});
