import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hover, PDB, workload } from './hover-helpers';

describe('field hovers', () => {
  it('replicas: what it means under failure, with the finding on that line named by its rule, not repeated (the editor shows it above)', () => {
    const text = hover(workload('Deployment', '  replicas: 1\n'), 'replicas')!;
    assert.match(text, /^\*\*replicas\*\* — Deployment web/);
    assert.match(text, /Pods the controller keeps running \(1\)\. With 1, every drain, node crash or eviction is an outage/);
    assert.match(text, /- `single-replica` \(warning\): One replica and no autoscaler\n/);
    assert.doesNotMatch(text, /Deployment web runs 1 pod/);
  });

  it('the finding on the line links to its rule\'s page when the caller knows where the docs are', () => {
    const text = hover(workload('Deployment', '  replicas: 1\n'), 'replicas', {}, { ruleHref: (id) => `https://docs.example/${id}` })!;
    assert.match(text, /- \[`single-replica`\]\(https:\/\/docs\.example\/single-replica\) \(warning\): One replica and no autoscaler/);
  });

  it('probe timings: the budget this probe gives', () => {
    const doc = workload('Deployment', '  replicas: 2\n').replace('              port: http\n', '              port: http\n            periodSeconds: 5\n            failureThreshold: 4\n');
    assert.match(hover(doc, 'failureThreshold')!, /Consecutive failures before the probe acts: 4 × 5 s = 20 s\.[\s\S]*Readiness: while it fails, the pod is taken out[\s\S]*This probe: GET \/ready on port 8080, every 5 s/);
    assert.match(hover(doc, 'readinessProbe')!, /Readiness: while it fails/);
  });

  it('probe timings in quotes: the API server rejects the pod, and no budget is worked out from the defaults', () => {
    const doc = workload('Deployment', '  replicas: 2\n').replace('              port: http\n', '              port: http\n            periodSeconds: "5"\n            failureThreshold: 4\n');
    const text = hover(doc, 'failureThreshold')!;
    assert.match(text, /This probe: GET \/ready on port 8080; its periodSeconds "5" is no integer, so the API server rejects the pod, and no timing of this probe runs\.$/);
    assert.doesNotMatch(text, /every 10 s|4 × 10 s/);
  });

  it('probe values the API server refuses after defaulting: the hover says why, and works out no budget', () => {
    const doc = (lines: string) => workload('Deployment', '  replicas: 2\n').replace('              port: http\n', `              port: http\n${lines}`);
    assert.match(hover(doc('            periodSeconds: -5\n'), 'readinessProbe')!, /its periodSeconds -5 is negative, so the API server rejects the pod, and no timing of this probe runs\.$/);
    // A readiness probe takes no grace period at all: 0 is refused for that first.
    assert.match(hover(doc('            terminationGracePeriodSeconds: 0\n'), 'readinessProbe')!, /its terminationGracePeriodSeconds 0 is for liveness and startup probes only, so the API server rejects the pod/);
    assert.match(hover(doc('            terminationGracePeriodSeconds: 30\n            failureThreshold: 4\n'), 'failureThreshold')!, /its terminationGracePeriodSeconds 30 is for liveness and startup probes only, so the API server rejects the pod, and no timing of this probe runs\.$/);
    assert.match(hover(doc('            successThreshold: 2\n'), 'successThreshold')!, /Consecutive successes before a failed probe counts as passing again \(2; must be 1 for liveness and startup\)/, 'readiness may ask for 2');
    const liveness = doc('').replace('          readinessProbe:', '          livenessProbe:\n            tcpSocket:\n              port: 8080\n            successThreshold: 2\n          readinessProbe:');
    const text = hover(liveness, 'livenessProbe')!;
    assert.match(text, /its successThreshold 2 must be 1, so the API server rejects the pod/);
    assert.doesNotMatch(text, /every 10 s/);
  });

  it('a probe on an init container that is no native sidecar: the API server rejects the pod, and no budget is worked out; a native sidecar\'s probe runs as written', () => {
    const init = (restartPolicy: string) => workload('Deployment', '  replicas: 2\n', `      initContainers:\n        - name: migrate\n          image: example/migrate:1\n${restartPolicy}          livenessProbe:\n            exec: {command: [cat, /tmp/ok]}\n            periodSeconds: 5\n`);
    const plain = hover(init(''), 'periodSeconds')!;
    assert.match(plain, /This probe: exec cat \/tmp\/ok, on an init container that is no native sidecar \(no `restartPolicy: Always`\): it runs to its end before the app starts and takes no probe, so the API server rejects the pod, and no timing of this probe runs\.$/);
    assert.doesNotMatch(plain, /every 5 s|3 × 5 s/);
    assert.match(hover(init('          restartPolicy: Always\n'), 'periodSeconds')!, /How often the probe runs: every 5 s; with failureThreshold 3 it acts after 15 s\.[\s\S]*This probe: exec cat \/tmp\/ok, every 5 s/);
  });

  it('topologySpreadConstraints: it spreads only with a maxSkew below the replica count', () => {
    const spread = '      topologySpreadConstraints:\n        - maxSkew: 3\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector: {matchLabels: {app: web}}\n';
    const text = hover(workload('Deployment', '  replicas: 3\n', spread), 'topologySpreadConstraints')!;
    assert.match(text, /when its maxSkew is below the replica count \(at or above it, every replica may share one node\)/);
  });

  it('PDB budgets: scaled against the pods they select', () => {
    const text = hover(PDB('minAvailable: 50%'), 'minAvailable', { 'web.yaml': workload('Deployment', '  replicas: 3\n') })!;
    assert.match(text, /Here: minAvailable 50% rounds up to 2 over 3 pods of web → 1 eviction allowed at a time\./);
  });

  it('a PDB budget over one pod of a StatefulSet, by its name: scaled against all its replicas, as the disruption controller does', () => {
    const statefulSet = workload('StatefulSet', '  replicas: 3\n');
    const pod = (budget: string) => PDB(budget).replace('      app: web\n', '      statefulset.kubernetes.io/pod-name: web-0\n');
    assert.match(hover(pod('maxUnavailable: 1'), 'maxUnavailable', { 'web.yaml': statefulSet })!, /Here: maxUnavailable 1 over 1 of the 3 pods of web → 0 evictions allowed at a time\./);
    assert.match(hover(pod('minAvailable: 0'), 'minAvailable', { 'web.yaml': statefulSet })!, /Here: minAvailable 0 over 1 of the 3 pods of web → 1 eviction allowed at a time\./);
  });

  it('a Deployment\'s strategy and maxUnavailable: a rolling update that lets every pod go is no better than Recreate, and the finding is named', () => {
    const doc = workload('Deployment', '  replicas: 3\n  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 100%\n');
    assert.match(hover(doc, 'strategy')!, /RollingUpdate \(default: 25% maxUnavailable, 25% maxSurge\) keeps serving while maxUnavailable stays below the replica count; Recreate kills every pod first/);
    const text = hover(doc, 'maxUnavailable')!;
    assert.match(text, /at the pod count or above \(100%\) every pod goes at once, an outage on each rollout/);
    assert.match(text, /- `recreate-drops-all` \(info\): /);
  });

  it('tolerations and the grace period quote the defaults', () => {
    const doc = workload('Deployment', '  replicas: 2\n', '      terminationGracePeriodSeconds: 45\n      tolerations: []\n');
    assert.match(hover(doc, 'tolerations')!, /tolerationSeconds 300: after a node crash its pods are evicted \\~40–50 s \(node marked unhealthy\) \+ 300 s later/);
    assert.match(hover(doc, 'terminationGracePeriodSeconds')!, /\(45 s\), counted from the start of its preStop hook: the hook, then SIGTERM, then SIGKILL when the time is up[^;]*; default 30 s\. The Cluster Autoscaler caps it at 600 s/);
  });

  it('explains a field only where it is the field it names: `resources` of an RBAC rule or `replicas` of a custom resource is no pod\'s', () => {
    const role = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules:\n  - apiGroups: [""]\n    resources: ["pods"]\n    verbs: ["get"]\n';
    assert.equal(hover(role, 'resources'), undefined);
    assert.equal(hover('apiVersion: example.com/v1\nkind: Cache\nmetadata:\n  name: c\nspec:\n  replicas: 1\n', 'replicas'), undefined);
    assert.match(hover(workload('Deployment', '  replicas: 1\n'), 'replicas')!, /Pods the controller keeps running/);
  });

  it('resources and memory: the pod\'s own (spec.resources) are explained as the containers\' are, and the containers\' name them', () => {
    const doc = workload('Deployment', '  replicas: 2\n', '      resources:\n        limits:\n          memory: 4Gi\n');
    assert.match(hover(doc, 'resources')!, /The pod's own \(spec\.resources, Kubernetes 1\.34\+\) count for all its containers together and take precedence over theirs\./);
    assert.match(hover(doc, 'memory')!, /above a limit \(the container's, or the pod's for all its containers together\) the kernel OOM-kills/);
  });

  it('a DaemonSet\'s and a StatefulSet\'s rolling update defaults are theirs, not a Deployment\'s', () => {
    const daemons = workload('DaemonSet', '  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 2\n');
    assert.match(hover(daemons, 'maxUnavailable')!, /a DaemonSet's and a StatefulSet's 1/);
  });

  it('a PDB over a DaemonSet counts no pods it cannot know (it said 1 pod)', () => {
    const agent = { 'agent.yaml': workload('DaemonSet', '') };
    const text = hover(PDB('minAvailable: 1'), 'minAvailable', agent)!;
    assert.match(text, /Here it selects web, which has no scale: the disruption controller counts the pods that exist/);
    assert.doesNotMatch(text, /over 1 pod/);
    // A maxUnavailable or a percentage needs a scale: without one the budget allows no eviction.
    assert.match(hover(PDB('maxUnavailable: 1'), 'maxUnavailable', agent)!, /cannot work out a maxUnavailable for them, and allows no eviction\./);
    assert.match(hover(PDB('minAvailable: 50%'), 'minAvailable', agent)!, /cannot work out a percentage for them, and allows no eviction\./);
  });

  it('an empty probe is no probe, and a merge key is no field', () => {
    const empty = workload('Deployment', '  replicas: 2\n').replace('          readinessProbe:\n            httpGet:\n              path: /ready\n              port: http\n', '          livenessProbe:\n');
    assert.match(hover(empty, 'livenessProbe')!, /This probe is empty: the kubelet runs none\./);
    const merged = workload('Deployment', '  replicas: 2\n').replace('            httpGet:', '            <<: {periodSeconds: 5}\n            httpGet:');
    assert.doesNotMatch(hover(merged, '<<') ?? '', /Symbol/);
    // Keys named like members of every object are no probe fields: no JavaScript source for them.
    const odd = workload('Deployment', '  replicas: 2\n').replace('            httpGet:', '            constructor: 1\n            toString: 2\n            httpGet:');
    for (const key of ['constructor', 'toString']) assert.doesNotMatch(hover(odd, key) ?? '', /native code|function/, key);
  });

  it('declared annotations: what they state and accept', () => {
    const doc = workload('Deployment', '  replicas: 2\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/sessions: in-memory\n');
    assert.match(hover(doc, 'kube-resilience/sessions')!, /Accepts "in-memory" \(sessions die with the pod\) or "external"/);
  });

  it('a PDB the API server rejects limits nothing; one over a bare pod written as maxUnavailable allows no eviction, as its finding says', () => {
    const rejected = PDB('minAvailable: "2"');
    assert.match(hover(rejected, 'minAvailable', { 'web.yaml': workload('Deployment', '  replicas: 5\n') })!, /Here: the API server rejects this PodDisruptionBudget, so it is never created and limits no eviction\./);
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: one\n  labels:\n    app: web\nspec:\n  containers:\n    - name: app\n      image: example/app\n';
    const bare = hover(PDB('maxUnavailable: 1'), 'maxUnavailable', { 'pod.yaml': pod })!;
    assert.match(bare, /Here: the disruption controller counts the bare pod one for none against maxUnavailable → no eviction allowed\./);
    assert.doesNotMatch(bare, /1 eviction allowed/);
  });

  it('nothing on fields no rule reads', () => {
    assert.equal(hover(workload('Deployment', '  replicas: 2\n'), 'image'), undefined);
  });
});
