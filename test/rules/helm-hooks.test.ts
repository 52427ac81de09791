// Helm hooks and test pods (`helm.sh/hook`) run once and go: no rule may treat them as workloads that
// serve traffic or need replicas, whether they come from a rendered chart or a plain file.
import { pdbMissing } from '../../server/src/rules/pdb-missing';
import { probeLivenessEqualsReadiness } from '../../server/src/rules/probe-liveness-equals-readiness';
import { probeReadinessMissing } from '../../server/src/rules/probe-readiness-missing';
import { recreateDropsAll } from '../../server/src/rules/recreate-drops-all';
import { replicasNotSpread } from '../../server/src/rules/replicas-not-spread';
import { sessionsLostOnEviction } from '../../server/src/rules/sessions-lost-on-eviction';
import { singleReplica } from '../../server/src/rules/single-replica';
import { pdbBlocksEviction } from '../../server/src/rules/pdb-blocks-eviction';
import { deployment, documents, pdb, service } from './manifests';
import { ruleTester } from './rule-tester';

const hook = (kind: string) => `  annotations:\n    "helm.sh/hook": ${kind}\n    "helm.sh/hook-delete-policy": before-hook-creation\n`;
const withHook = (manifest: string, kind = 'pre-install') => manifest.replace(/^(metadata:\n  name: [^\n]+\n)/m, `$1${hook(kind)}`);

const testPod = (annotations: string) => `apiVersion: v1
kind: Pod
metadata:
  name: web-test-connection
  labels:
    app: web
${annotations}spec:
  containers:
    - name: wget
      image: busybox
      command: ['wget', 'web:80']
      ports:
        - name: http
          containerPort: 8080
  restartPolicy: Never
`;

const oneReplica = deployment({ spec: '  replicas: 1\n' });
const threeReplicas = deployment({ spec: '  replicas: 3\n' });
const servingContainer = deployment({ spec: '  replicas: 2\n', container: '          ports:\n            - name: http\n              containerPort: 8080\n' });
const sameProbes = deployment({
  spec: '  replicas: 2\n',
  container: '          livenessProbe:\n            httpGet: {path: /healthz, port: 8080}\n            periodSeconds: 10\n            failureThreshold: 3\n          readinessProbe:\n            httpGet: {path: /healthz, port: 8080}\n            periodSeconds: 10\n            failureThreshold: 3\n',
});
const recreate = deployment({ spec: '  replicas: 3\n  strategy:\n    type: Recreate\n' });
const everyPodAtOnce = deployment({ spec: '  replicas: 3\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 100%\n' });
const inMemorySessions = deployment({ spec: '  replicas: 1\n', podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n' });

ruleTester(singleReplica, {
  valid: [
    { name: 'a pre-install hook Deployment with one replica', code: withHook(oneReplica) },
    { name: 'a hook named among several (post-install,post-upgrade)', code: withHook(oneReplica, 'post-install,post-upgrade') },
  ],
  invalid: [{ name: 'the same Deployment without the hook annotation', code: oneReplica, findings: [{ at: 'replicas' }] }],
});

ruleTester(pdbMissing, {
  valid: [{ name: 'a hook Deployment with 3 replicas needs no PDB', code: withHook(threeReplicas) }],
  invalid: [{ name: 'the same Deployment without the hook annotation', code: threeReplicas, findings: [{ at: 'kind: Deployment' }] }],
});

ruleTester(replicasNotSpread, {
  valid: [{ name: 'a hook Deployment with 3 replicas is not asked to spread', code: withHook(threeReplicas) }],
  invalid: [{ name: 'the same Deployment without the hook annotation', code: threeReplicas, findings: [{ message: /3 replicas/ }] }],
});

ruleTester(probeReadinessMissing, {
  valid: [
    { name: 'a helm test pod a Service selects serves no traffic', code: documents(testPod(hook('test')), service()) },
    { name: 'a hook Deployment with an http port', code: withHook(servingContainer) },
  ],
  invalid: [{ name: 'the same pod without the hook annotation', code: documents(testPod(''), service()), findings: [{ message: /^Pod web-test-connection: no readiness probe: traffic comes before it is ready\./ }] }],
});

ruleTester(probeLivenessEqualsReadiness, {
  valid: [{ name: 'a hook Deployment with the same liveness and readiness', code: withHook(sameProbes) }],
  invalid: [{ name: 'the same Deployment without the hook annotation', code: sameProbes, findings: [{ at: 'livenessProbe' }] }],
});

ruleTester(recreateDropsAll, {
  valid: [
    { name: 'a hook Deployment with the Recreate strategy', code: withHook(recreate) },
    { name: 'a hook Deployment whose maxUnavailable lets every pod go', code: withHook(everyPodAtOnce) },
  ],
  invalid: [
    { name: 'the same Deployment without the hook annotation', code: recreate, findings: [{ message: /Recreate/ }] },
    { name: 'the same rolling Deployment without the hook annotation', code: everyPodAtOnce, findings: [{ message: /maxUnavailable 100%/ }] },
  ],
});

ruleTester(sessionsLostOnEviction, {
  valid: [{ name: 'a hook Deployment declaring in-memory sessions', code: withHook(inMemorySessions) }],
  invalid: [{ name: 'the same Deployment without the hook annotation', code: inMemorySessions, findings: [{ message: /sessions/ }] }],
});

ruleTester(pdbBlocksEviction, {
  valid: [{ name: 'a bare pod beside 3 replicas leaves one eviction under minAvailable 3', code: documents(threeReplicas, pdb('  minAvailable: 3\n'), testPod('')) }],
  invalid: [
    {
      name: 'a test pod carrying the app label is not one of the pods the PDB counts',
      code: documents(threeReplicas, pdb('  minAvailable: 3\n'), testPod(hook('test'))),
      findings: [{ at: 'minAvailable', message: /^(?!.*web-test-connection).*3 replicas/ }],
    },
  ],
});
