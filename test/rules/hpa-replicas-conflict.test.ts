import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hpaReplicasConflict } from '../../server/src/rules/hpa-replicas-conflict';
import { cluster, clusterFindings, deploymentObject, fromObject } from '../cluster-fixtures';
import { deployment, documents, hpa, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(hpaReplicasConflict, {
  valid: [
    { name: 'replicas left to the HPA', code: documents(deployment(), hpa({ min: 2 })) },
    { name: 'no HPA', code: deployment({ spec: '  replicas: 3\n' }) },
    { name: 'replicas: 0 under an HPA: how its scaling is paused (the HPA controller leaves a target at zero alone)', code: documents(deployment({ spec: '  replicas: 0\n' }), hpa({ min: 3, max: 3 })) },
    { name: 'the HPA targets another Deployment', code: documents(deployment({ spec: '  replicas: 3\n' }), hpa({ target: 'api', min: 2 })) },
    { name: 'the HPA targets a StatefulSet of the same name', code: documents(deployment({ spec: '  replicas: 3\n' }), hpa({ kind: 'StatefulSet', min: 2 })) },
    { name: 'an HPA of the same name in another namespace', code: deployment({ spec: '  replicas: 3\n' }), files: { 'hpa.yaml': hpa({ min: 2, namespace: 'shop' }) } },
    { name: 'a paused KEDA ScaledObject: KEDA scales nothing meanwhile', code: documents(deployment({ spec: '  replicas: 3\n' }), scaledObject({ spec: '  minReplicaCount: 3\n', annotations: '    autoscaling.keda.sh/paused: "true"\n' })) },
  ],
  invalid: [
    {
      name: 'minReplicas written null: the autoscaler\'s floor is its default, 1 (the message said "between null and 5")',
      code: documents(deployment({ spec: '  replicas: 4\n' }), hpa({ max: 5 }).replace('  maxReplicas', '  minReplicas: null\n  maxReplicas')),
      findings: [{ at: 'replicas', message: /HorizontalPodAutoscaler web scales it between 1 and 5;/ }],
      output: null,
      unsafeOutput: documents(deployment(), hpa({ max: 5 }).replace('  maxReplicas', '  minReplicas: null\n  maxReplicas')),
    },
    {
      name: 'replicas: 0 under an HPA that scales to zero (minReplicas 0): the HPA goes on scaling it, and every apply resets it to 0',
      code: documents(deployment({ spec: '  replicas: 0\n' }), hpa({ min: 0, max: 10 })),
      findings: [{ at: 'replicas', message: /sets replicas: 0 under an autoscaler: every apply resets its scale to 0\. HorizontalPodAutoscaler web scales it between 0 and 10/ }],
      output: null,
      unsafeOutput: documents(deployment(), hpa({ min: 0, max: 10 })),
    },
    {
      name: 'replicas and an HPA in another file: the line goes, comments around it stay; unsafe (the first client-side apply without it drops the workload to 1 pod)',
      code: deployment({ spec: '  # sized for launch day\n  replicas: 3\n' }),
      files: { 'hpa.yaml': hpa({ min: 2, max: 8 }) },
      findings: [
        {
          at: 'replicas',
          line: 7,
          message: 'Deployment web sets replicas: 3 under an autoscaler: every apply resets its scale to 3. HorizontalPodAutoscaler web scales it between 2 and 8; each apply undoes that until the autoscaler reacts again.',
          related: ['hpa.yaml: scaleTargetRef'],
        },
      ],
      output: null,
      unsafeOutput: deployment({ spec: '  # sized for launch day\n' }),
    },
    {
      name: 'replicas under a KEDA ScaledObject (the HPA KEDA makes owns the scale): said as KEDA\'s, between its minReplicaCount and maxReplicaCount',
      code: documents(deployment({ spec: '  replicas: 2\n' }), scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 10\n' })),
      findings: [{ at: 'replicas', message: 'Deployment web sets replicas: 2 under an autoscaler: every apply resets its scale to 2. ScaledObject web (KEDA) scales it between 3 and 10; each apply undoes that until the autoscaler reacts again.' }],
      output: null,
      unsafeOutput: documents(deployment(), scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 10\n' })),
    },
    {
      name: 'replicas: 0 under a ScaledObject is no pause: KEDA scales it back up to its minReplicaCount, and every apply resets it to 0',
      code: documents(deployment({ spec: '  replicas: 0\n' }), scaledObject({ spec: '  minReplicaCount: 2\n' })),
      findings: [{ at: 'replicas', message: /sets replicas: 0 under an autoscaler: every apply resets its scale to 0\. ScaledObject web \(KEDA\) scales it between 2 and 100;/ }],
      output: null,
      unsafeOutput: documents(deployment(), scaledObject({ spec: '  minReplicaCount: 2\n' })),
    },
    {
      name: 'a StatefulSet with an HPA without minReplicas',
      code: documents(deployment({ kind: 'StatefulSet', spec: '  replicas: 1\n' }), hpa({ kind: 'StatefulSet' })),
      findings: [{ at: 'replicas', message: /^StatefulSet web sets replicas: 1 under an autoscaler: every apply resets its scale to 1\. HorizontalPodAutoscaler web scales it between 1 and 10/ }],
      output: null,
      unsafeOutput: documents(deployment({ kind: 'StatefulSet' }), hpa({ kind: 'StatefulSet' })),
    },
  ],
});

const liveHpa = fromObject({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'shop' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 8 } });

it('hpa-replicas-conflict: a live Deployment always has spec.replicas, so only what kubectl apply last sent counts', () => {
  const scaled = deploymentObject('shop', 'web', 5, { app: 'web' });
  assert.deepEqual(clusterFindings(hpaReplicasConflict, cluster([scaled, liveHpa])), []);
  const applied = deploymentObject('shop', 'web', 5, { app: 'web' });
  applied.object.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: { replicas: 3 } }) };
  assert.deepEqual(
    clusterFindings(hpaReplicasConflict, cluster([applied, liveHpa])).map((f) => f.message),
    ['Deployment shop/web sets replicas: 3 under an autoscaler: every apply resets its scale to 3. HorizontalPodAutoscaler shop/web scales it between 2 and 8; each apply undoes that until the autoscaler reacts again.'],
  );
});
