import { singleReplica } from '../../server/src/rules/single-replica';
import { deployment as workload, documents, hpa, pdb, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

const deployment = (spec: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
${spec}  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx
`;
const statefulDb = workload({ kind: 'StatefulSet', name: 'db', spec: '  replicas: 1\n' }) + '  volumeClaimTemplates:\n    - metadata:\n        name: data\n      spec:\n        accessModes: [ReadWriteOnce]\n        resources: {requests: {storage: 1Gi}}\n';
const redis = (spec: string) => workload({ name: 'cache', spec }).replace('image: nginx:1.27', 'image: docker.io/bitnami/redis:7.2@sha256:abc');
const withClaim = workload({ name: 'mysql', spec: '  replicas: 1\n', podSpec: '      volumes:\n        - name: data\n          persistentVolumeClaim:\n            claimName: mysql-pv-claim\n' });

ruleTester(singleReplica, {
  valid: [
    { name: 'two replicas', code: deployment('  replicas: 2\n') },
    {
      name: 'one replica written, but KEDA\'s paused-replicas holds it at 3',
      code: documents(deployment('  replicas: 1\n'), scaledObject({ annotations: '    autoscaling.keda.sh/paused-replicas: "3"\n' })),
    },
    {
      name: 'held at 0 by KEDA\'s paused-replicas: it runs no pod',
      code: documents(deployment('  replicas: 1\n'), scaledObject({ annotations: '    autoscaling.keda.sh/paused-replicas: "0"\n' })),
    },
    {
      name: 'three replicas, under a paused-replicas of 1 in a ScaledObject KEDA refuses (minReplicaCount above maxReplicaCount): it never scales it there',
      code: documents(deployment('  replicas: 3\n'), scaledObject({ spec: '  minReplicaCount: 5\n  maxReplicaCount: 2\n', annotations: '    autoscaling.keda.sh/paused-replicas: "1"\n' })),
    },
    {
      name: 'three replicas, under a paused-replicas of 1 written as a YAML number: the API server rejects that ScaledObject (annotation-invalid), so nothing holds it at 1',
      code: documents(deployment('  replicas: 3\n'), scaledObject({ annotations: '    autoscaling.keda.sh/paused-replicas: 1\n' })),
    },
    { name: 'scaled to zero on purpose', code: deployment('  replicas: 0\n') },
    {
      name: 'an HPA owns the count',
      code: deployment('  replicas: 1\n'),
      files: { 'hpa.yaml': 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 2\n  maxReplicas: 5\n' },
    },
    { name: 'an HPA with minReplicas 1 owns the count too (hpa-min-one covers it)', code: documents(deployment(''), hpa({ min: 1 })) },
    { name: 'a KEDA ScaledObject owns the count: the HPA KEDA makes keeps its minReplicaCount (3 here)', code: documents(deployment(''), scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 10\n' })) },
    { name: 'a KEDA ScaledObject that scales to zero (minReplicaCount 0, its default): idle it runs no pod, which is not one', code: documents(deployment('  replicas: 1\n'), scaledObject()) },
    { name: 'a DaemonSet has no replicas', code: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: a, image: a}]}\n' },
    { name: 'suppressed by a comment', code: deployment('  # kube-resilience-ignore single-replica -- a batch console nobody waits for\n  replicas: 1\n') },
    { name: 'a cluster add-on in kube-system is the cluster operator\'s', code: workload({ name: 'kube-dns-autoscaler', namespace: 'kube-system' }) },
  ],
  invalid: [
    ...[
      ['its scaleTargetRef has no apiVersion', (text: string) => text.replace('    apiVersion: apps/v1\n', '')],
      ['its scaleTargetRef names the extensions group', (text: string) => text.replace('    apiVersion: apps/v1\n', '    apiVersion: extensions/v1beta1\n')],
      ['its maxReplicas is below its minReplicas', (text: string) => text.replace('  maxReplicas: 10\n', '  maxReplicas: 1\n')],
      ['its minReplicas is written in quotes, no integer', (text: string) => text.replace('  minReplicas: 2\n', '  minReplicas: "2"\n')],
    ].map(([why, change]) => ({
      name: `an HPA that cannot scale it (${why as string}: the controller finds no target, or the API server rejects it) keeps nothing running`,
      code: deployment('  replicas: 1\n'),
      files: { 'hpa.yaml': (change as (text: string) => string)(hpa({ min: 2 })) },
      findings: [{ at: 'replicas', message: /^Deployment web runs 1 pod/ }],
    })),
    {
      name: 'replicas written in quotes ("3") is no integer: the API server rejects the Deployment; the fix writes the number',
      code: deployment('  replicas: "3" # three for the launch\n'),
      findings: [{ at: '"3"', message: 'Deployment web: replicas "3" is no integer: the API server rejects the whole Deployment, so it runs no pod at all. The replica count is a number.' }],
      output: deployment('  replicas: 3 # three for the launch\n'),
    },
    {
      name: 'an infinite count (.inf) is said as one, not as null, which the API server would take for unset',
      code: deployment('  replicas: .inf\n'),
      findings: [{ at: '.inf', message: /replicas Infinity is no integer/ }],
      output: null,
    },
    {
      name: 'a fraction of a replica is no integer either, and no number to write',
      code: deployment('  replicas: 2.5\n'),
      findings: [{ at: '2.5', message: /replicas 2\.5 is no integer/ }],
      output: null,
    },
    {
      name: 'replicas: 1, fixed in place with its comment kept',
      code: deployment('  replicas: 1 # one is enough?\n'),
      findings: [{ at: 'replicas', line: 6, message: 'Deployment web runs 1 pod: one node drain or node failure takes it offline. With replicas: 1, a node drain or node failure takes it offline until a replacement is scheduled and ready, and while the control plane is down it is not replaced at all.' }],
      output: deployment('  replicas: 2 # one is enough?\n'),
    },
    {
      name: 'no replicas field: the default of 1, fixed by adding the field first in spec',
      code: deployment(''),
      findings: [{ at: 'kind: Deployment', message: /runs 1 pod: one node drain or node failure takes it offline\. With no replicas field \(the default is 1\),/ }],
      output: deployment('').replace('spec:\n  selector', 'spec:\n  replicas: 2\n  selector'),
    },
    {
      name: 'held at 1 by KEDA\'s paused-replicas, whatever its replicas and its ScaledObject\'s floor say: no fix raises its replicas field',
      code: deployment('  replicas: 3\n'),
      files: { 'keda.yaml': scaledObject({ spec: '  minReplicaCount: 2\n', annotations: '    autoscaling.keda.sh/paused-replicas: "1"\n' }) },
      findings: [
        {
          at: 'kind: Deployment',
          message: /^Deployment web runs 1 pod: one node drain or node failure takes it offline\. ScaledObject web \(KEDA\) is paused with paused-replicas "1": KEDA holds it at 1 replica whatever its replicas field says, so a node drain or node failure takes it offline until a replacement is scheduled and ready, .* Raise paused-replicas, or remove it to have KEDA scale the workload again\.$/,
          related: ['keda.yaml: autoscaling.keda.sh/paused-replicas'],
        },
      ],
    },
    {
      name: 'a paused-replicas KEDA cannot read ("one") pauses it all the same: its replicas field counts',
      code: deployment('  replicas: 1\n'),
      files: { 'keda.yaml': scaledObject({ spec: '  minReplicaCount: 3\n', annotations: '    autoscaling.keda.sh/paused-replicas: "one"\n' }) },
      findings: [{ at: 'replicas', message: /^Deployment web runs 1 pod/ }],
      output: deployment('  replicas: 2\n'),
    },
    {
      name: 'a paused ScaledObject owns nothing: KEDA removes its HPA',
      code: deployment('  replicas: 1\n'),
      files: { 'keda.yaml': scaledObject({ spec: '  minReplicaCount: 3\n', annotations: '    autoscaling.keda.sh/paused: "true"\n' }) },
      findings: [{ at: 'replicas', message: /^Deployment web runs 1 pod/ }],
      output: deployment('  replicas: 2\n'),
    },
    {
      name: 'an HPA in another namespace does not own it',
      code: deployment('  replicas: 1\n'),
      files: { 'hpa.yaml': hpa({ min: 3, namespace: 'shop' }) },
      findings: [{ at: 'replicas' }],
      output: deployment('  replicas: 2\n'),
    },
    {
      name: 'a PDB in another file, selecting it by matchExpressions, does not make one pod redundant',
      code: deployment('  replicas: 1\n'),
      files: { 'pdb.yaml': pdb('  minAvailable: 1\n', { selector: '    matchExpressions:\n      - {key: app, operator: In, values: [web]}\n' }) },
      findings: [{ at: 'replicas', message: /^Deployment web runs 1 pod: one node drain or node failure takes it offline\. With replicas: 1,/ }],
      output: deployment('  replicas: 2\n'),
    },
    {
      name: 'an HPA aimed at a StatefulSet of the same name does not own the Deployment',
      code: deployment('  replicas: 1\n'),
      files: { 'hpa.yaml': hpa({ min: 3, kind: 'StatefulSet' }) },
      findings: [{ at: 'replicas' }],
    },
    {
      name: 'a Deployment on a PersistentVolumeClaim: reported, but replicas: 2 would share the volume, so no fix',
      code: withClaim,
      findings: [{ at: 'replicas', message: /^Deployment mysql runs 1 pod: one node drain or node failure takes it offline\. With replicas: 1, .* No quick fix: it mounts PersistentVolumeClaim mysql-pv-claim, which a second pod would share: redundancy needs a replicated store, not replicas: 2\.$/ }],
      output: null,
    },
    {
      name: 'Recreate says two must never run at once: no fix',
      code: deployment('  replicas: 1\n  strategy:\n    type: Recreate\n'),
      findings: [{ at: 'replicas', message: /No quick fix: its Recreate strategy says two pods must never run at once/ }],
      output: null,
    },
    {
      name: 'names the workload with its namespace, as every other rule does',
      code: workload({ name: 'gpu-renderer', namespace: 'render', spec: '  replicas: 1\n' }),
      findings: [{ at: 'replicas', message: /^Deployment render\/gpu-renderer runs 1 pod: one node drain or node failure takes it offline\. With replicas: 1,/ }],
      output: workload({ name: 'gpu-renderer', namespace: 'render', spec: '  replicas: 2\n' }),
    },
    {
      name: 'a StatefulSet with its own volumes: the fix is unsafe, applied only with --unsafe-fixes',
      code: statefulDb,
      findings: [{ at: 'replicas', message: /^StatefulSet db runs 1 pod/ }],
      output: null,
      unsafeOutput: statefulDb.replace('replicas: 1', 'replicas: 2'),
    },
    {
      name: 'a single-primary store in a Deployment: unsafe',
      code: redis('  replicas: 1\n'),
      findings: [{ at: 'replicas' }],
      output: null,
      unsafeOutput: redis('  replicas: 2\n'),
    },
    {
      name: 'a GPU workload: unsafe (a second GPU bill)',
      code: workload({ name: 'render', spec: '  replicas: 1\n', container: '          resources:\n            limits:\n              nvidia.com/gpu: 1\n' }),
      findings: [{ at: 'replicas' }],
      output: null,
    },
    {
      name: 'a StatefulSet after a node failure waits for the node or a force delete, not for a replacement',
      code: workload({ kind: 'StatefulSet', name: 'queue', spec: '  replicas: 1\n' }),
      findings: [
        {
          at: 'replicas',
          message:
            'StatefulSet queue runs 1 pod: one node drain or node failure takes it offline. With replicas: 1, a node drain takes it offline until it is rescheduled and ready, a node failure until the node comes back or someone force-deletes the pod, and while the control plane is down it is not replaced at all.',
        },
      ],
      output: null,
      unsafeOutput: workload({ kind: 'StatefulSet', name: 'queue', spec: '  replicas: 2\n' }),
    },
  ],
});
