import { hpaReplicasConflict } from '../../server/src/rules/hpa-replicas-conflict';
import { deployment, documents, hpa } from './manifests';
import { ruleTester } from './rule-tester';

ruleTester(hpaReplicasConflict, {
  valid: [
    { name: 'replicas left to the HPA', code: documents(deployment(), hpa({ min: 2 })) },
    { name: 'no HPA', code: deployment({ spec: '  replicas: 3\n' }) },
    { name: 'the HPA targets another Deployment', code: documents(deployment({ spec: '  replicas: 3\n' }), hpa({ target: 'api', min: 2 })) },
    { name: 'the HPA targets a StatefulSet of the same name', code: documents(deployment({ spec: '  replicas: 3\n' }), hpa({ kind: 'StatefulSet', min: 2 })) },
    { name: 'an HPA of the same name in another namespace', code: deployment({ spec: '  replicas: 3\n' }), files: { 'hpa.yaml': hpa({ min: 2, namespace: 'shop' }) } },
  ],
  invalid: [
    {
      name: 'replicas and an HPA in another file: the line goes, comments around it stay',
      code: deployment({ spec: '  # sized for launch day\n  replicas: 3\n' }),
      files: { 'hpa.yaml': hpa({ min: 2, max: 8 }) },
      findings: [
        {
          at: 'replicas',
          line: 7,
          message: 'Deployment web sets replicas: 3 while HorizontalPodAutoscaler web scales it between 2 and 8: every apply resets the scale to 3, undoing the autoscaler until it reacts again.',
          related: ['hpa.yaml: scaleTargetRef'],
        },
      ],
      output: deployment({ spec: '  # sized for launch day\n' }),
    },
    {
      name: 'a StatefulSet with an HPA without minReplicas',
      code: documents(deployment({ kind: 'StatefulSet', spec: '  replicas: 1\n' }), hpa({ kind: 'StatefulSet' })),
      findings: [{ at: 'replicas', message: /^StatefulSet web sets replicas: 1 while HorizontalPodAutoscaler web scales it between 1 and 10/ }],
      output: documents(deployment({ kind: 'StatefulSet' }), hpa({ kind: 'StatefulSet' })),
    },
  ],
});
