import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { hover, PDB, workload } from './hover-helpers';

function scenario(card: string, name: string): string {
  const line = card.split('\n').find((l) => l.startsWith(`- *${name}:*`));
  assert.ok(line, `the card has a ${name} line`);
  return line!;
}

describe('resilience card on a workload kind line', () => {
  it('states effective replicas with their source, the PDB budget and the HPA', () => {
    const hpa = 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web-hpa\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 4\n  maxReplicas: 10\n';
    const card = hover(workload('Deployment', ''), 'kind: Deployment', { 'hpa.yaml': hpa, 'pdb.yaml': PDB('minAvailable: 75%') })!;
    assert.match(card, /^\*\*Deployment web\*\* — resilience/);
    assert.match(card, /- Replicas: 4 \(HPA web-hpa minReplicas, up to 10\)/);
    assert.match(card, /- PodDisruptionBudget: web-pdb \(minAvailable 75% of 4 is 3, 1 eviction allowed\)/);
    assert.match(card, /- HorizontalPodAutoscaler: web-hpa \(minReplicas 4, maxReplicas 10\)/);
    assert.match(card, /- Probes: app: readiness GET \/ready on port 8080, 30 s to fail/);
    assert.match(scenario(card, 'Node drain'), /PDB web-pdb \(minAvailable 75% of 4 is 3\) lets 1 of 4 pods go at a time/);
    assert.match(scenario(card, 'Control plane down'), /the HPA is frozen, so 4 pods \(minReplicas\) may be all the capacity there is.*~1\/4 of new connections fail/);
  });

  it('one replica: a node crash is an outage for the grace period plus tolerationSeconds, from the fact sheets', () => {
    const card = hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment')!;
    assert.match(card, /- Replicas: 1 \(spec.replicas\)/);
    assert.match(scenario(card, 'Node crash'), /marked unhealthy \(\\~40–50 s\), evicted after 300 s of tolerationSeconds \(\\~350 s in all\), the default, then replaced\. With 1 pod the workload is down all that time\./);
    assert.match(scenario(card, 'Node drain'), /its only pod is evicted: offline until a replacement is scheduled and ready \(each pod gets 30 s to stop\)/);
    assert.match(card, /facts\/control-plane\.md §3/);
  });

  it('own tolerations, a grace period and a preStop hook change the numbers', () => {
    const template = '      terminationGracePeriodSeconds: 90\n      tolerations:\n        - key: node.kubernetes.io/unreachable\n          operator: Exists\n          effect: NoExecute\n          tolerationSeconds: 30\n';
    const card = hover(workload('Deployment', '  replicas: 3\n', template), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.match(scenario(card, 'Node crash'), /evicted after 30 s of tolerationSeconds \(\\~80 s in all\), then replaced/);
    assert.match(scenario(card, 'Node drain'), /each pod gets 90 s to stop/);
  });

  it('a StatefulSet waits for a force delete after a node crash; a PDB of 0 blocks drains and scale-down', () => {
    const card = hover(workload('StatefulSet', '  replicas: 3\n  serviceName: web\n'), 'kind: StatefulSet', { 'pdb.yaml': PDB('minAvailable: 3') })!;
    assert.match(scenario(card, 'Node crash'), /force-deleted .* before it starts a replacement/);
    assert.match(scenario(card, 'Node drain'), /allows 0 evictions of 3 pods: the eviction API answers 429/);
    assert.match(scenario(card, 'Autoscaler scale-down'), /will not remove a node running this pod \(a PDB that allows 0 evictions\)/);
  });

  it('dependency outage: a liveness probe on the readiness handler restarts every replica', () => {
    const text = workload('Deployment', '  replicas: 2\n').replace('          readinessProbe:', '          livenessProbe:\n            httpGet:\n              path: /ready\n              port: http\n          readinessProbe:');
    assert.match(scenario(hover(text, 'kind: Deployment')!, 'Dependency outage'), /app: liveness fails with the dependency after 30 s and the kubelet restarts every replica at once/);
    assert.match(scenario(hover(workload('Deployment', '  replicas: 2\n'), 'kind: Deployment')!, 'Dependency outage'), /app: if readiness checks the dependency, pods leave the Service after 30 s/);
  });

  it('a declared slow start shows in drains and crashes: how long a replacement takes, and when liveness kills it first', () => {
    const slow = workload('Deployment', '  replicas: 3\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/startup-seconds: "600"\n');
    assert.match(scenario(hover(slow, 'kind: Deployment')!, 'Node drain'), /\. Each replacement needs 600 s to start before it is ready\.$/);
    const killed = slow.replace('          readinessProbe:', '          livenessProbe:\n            httpGet:\n              path: /live\n              port: http\n          readinessProbe:');
    const card = hover(killed, 'kind: Deployment')!;
    for (const name of ['Node drain', 'Node crash']) {
      assert.match(scenario(card, name), /Each replacement needs 600 s to start, but app's liveness kills it after 30 s \(no startup probe\): replacements crash-loop and never become ready\.$/);
    }
    assert.doesNotMatch(scenario(hover(workload('Deployment', '  replicas: 3\n'), 'kind: Deployment')!, 'Node drain'), /replacement needs/, 'nothing said without a declared start');
  });

  it('dependency outage without a readiness probe: requests fail only where something sends them', () => {
    const worker = workload('Deployment', '  replicas: 2\n').replace(/ {10}ports:[\s\S]*$/, '');
    assert.match(scenario(hover(worker, 'kind: Deployment')!, 'Dependency outage'), /app: no port or Service sends it requests, so it meets the outage only in its own work/);
    const server = workload('Deployment', '  replicas: 2\n').replace(/ {10}readinessProbe:[\s\S]*$/, '');
    assert.match(scenario(hover(server, 'kind: Deployment')!, 'Dependency outage'), /app: no readiness probe, so pods keep receiving requests and fail them/);
  });

  it('leaves a place for the live cluster', () => {
    const card = hover(workload('Deployment', '  replicas: 2\n'), 'kind: Deployment', {}, { clusterLines: () => ['2/2 ready on 2 nodes'] })!;
    assert.match(card, /\*\*Live cluster\*\*\n\n- 2\/2 ready on 2 nodes\n\n\*\*When something fails\*\*/);
  });

  it('writes "~" as a literal tilde: two on a line are a strikethrough in VS Code\'s Markdown', () => {
    const card = hover(workload('Deployment', '  replicas: 2\n'), 'kind: Deployment')!;
    assert.match(scenario(card, 'Node crash'), /\(\\~40–50 s\).*\(\\~350 s in all\)/);
    const outsideCode = card.replace(/`[^`\n]*`/g, '');
    assert.deepEqual(outsideCode.match(/(?<!\\)~/g), null, 'every ~ outside code is escaped');
  });

  it('lists the workload\'s findings in one short line each: rule, line, title (the messages are on their own lines)', () => {
    const card = hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment')!;
    assert.match(card, /\*\*Findings \(\d+\)\*\*\n\n- `single-replica` line 6: One replica and no autoscaler\n/);
    assert.doesNotMatch(card, /runs 1 pod \(replicas: 1\)/, 'the finding\'s message is not repeated in the card');
  });

  it('links each finding to its rule\'s page when the caller knows where the docs are', () => {
    const href = (ruleId: string) => (ruleId === 'single-replica' ? `file:///docs/rules/${ruleId}.md` : undefined);
    const card = hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment', {}, { ruleHref: href })!;
    assert.match(card, /- \[`single-replica`\]\(file:\/\/\/docs\/rules\/single-replica\.md\) line 6: /);
    assert.match(card, /- `(?!single-replica)[a-z-]+` line /, 'a rule without a page stays plain code');
    assert.doesNotMatch(card, /\]\(undefined\)/);
  });

  it('DaemonSets and CronJobs get their own wording', () => {
    const ds = hover(workload('DaemonSet', ''), 'kind: DaemonSet')!;
    assert.match(ds, /- Replicas: one per eligible node/);
    assert.match(scenario(ds, 'Node drain'), /drains skip DaemonSet pods/);
    const cron = 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 1 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: job\n              image: example/job\n';
    assert.match(scenario(hover(cron, 'kind: CronJob')!, 'Control plane down'), /no CronJob fires until the API is back/);
  });

  it('a DaemonSet is one pod per eligible node: what a node failure and a rollout cost, nothing false about replicas', () => {
    const text = readFileSync('examples/node-agents.yaml', 'utf8');
    const card = hover(text, 'kind: DaemonSet')!;
    assert.match(card, /- Replicas: one per eligible node \(DaemonSet\): a node failure costs that node's pod only, and nothing reschedules it elsewhere; rollouts replace the pods of 10% of the nodes at a time \(maxUnavailable 10%\)/);
    assert.match(card, /- Spread: one pod per node by construction/);
    assert.match(card, /- Node agent: node-local-dns \(node-local DNS caching\); no priorityClassName \(priority 0\); does not tolerate every taint \(tainted pools run without it\)/);
    assert.match(scenario(card, 'Node crash'), /never rescheduled elsewhere, so that node's pod is gone until the node returns, and the pods on the other nodes carry on/);
    assert.match(scenario(card, 'Control plane down'), /a node that reboots or joins gets no pod of it until the API is back/);
    assert.doesNotMatch(card, /replicas may share a node|is all the capacity there is/);
    const kubeProxy = workload('DaemonSet', '', '      priorityClassName: system-node-critical\n      tolerations:\n        - operator: Exists\n').replace('name: app', 'name: kube-proxy').replace(/image: .*/, 'image: registry.k8s.io/kube-proxy:v1.33.4');
    const proxyCard = hover(kubeProxy.replace('  name: web\n', '  name: kube-proxy\n  namespace: kube-system\n'), 'kind: DaemonSet')!;
    assert.match(proxyCard, /rollouts replace the pods of 1 node at a time \(maxUnavailable 1, the default\)/);
    assert.match(proxyCard, /- Node agent: kube-proxy \(Service routing\); priorityClassName system-node-critical; tolerates every taint/);
  });

  it('no card off the kind line of a resource that is not a workload', () => {
    assert.equal(hover(PDB('maxUnavailable: 1'), 'kind: PodDisruptionBudget'), undefined);
  });
});
