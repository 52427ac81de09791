import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { resilienceCard } from '../../server/src/explain/card';
import { hoverAt } from '../../server/src/explain/hover';
import { kindRange } from '../../server/src/manifest/path';
import { describeResource, isWorkload } from '../../server/src/manifest/workload';
import { RULES } from '../../server/src/rules/index';
import { splitMessage } from '../../server/src/rules/message-parts';
import type { Finding } from '../../server/src/rules/types';
import { analysed, hover, PDB, workload } from './hover-helpers';

/** The cells of a table row: `| a | b |` → a, b. */
const cells = (line: string) => line.slice(2, -2).split(' | ');

/** What the card's table says of a scenario. */
function row(card: string, scenario: string): string {
  // "Node drain" finds "Node drain, scale-down", the row a plain scale-down shares with the drain.
  const line = card.split('\n').find((l) => l.startsWith(`| ${scenario} |`) || l.startsWith(`| ${scenario}, `));
  assert.ok(line, `the card has a ${scenario} row`);
  return cells(line!)[1];
}

const verdict = (card: string) => card.split('\n')[0];

/** What a line shows: link targets, emphasis, code marks and escapes left out. */
function visible(line: string): string {
  return line.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*|`|\\(?=\S)|\\$|^_|_$/g, '');
}

/** The lines a hover shows: every non-empty one but the table's delimiter row, which draws a rule. */
function renderedLines(card: string): string[] {
  return card.split('\n').filter((l) => l.trim() && !/^\|( --- \|)+$/.test(l));
}

const SPREAD = '      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: DoNotSchedule\n          labelSelector: {matchLabels: {app: web}}\n';
const MEMORY = (text: string) => text.replace('          readinessProbe:', '          resources: {requests: {memory: 256Mi}, limits: {memory: 256Mi}}\n          readinessProbe:');
const HPA = 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web-hpa\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 4\n  maxReplicas: 10\n';
const CRON = 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 1 * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: job\n              image: example/job\n              resources: {requests: {memory: 1Gi}, limits: {memory: 1Gi}}\n';

/** The card of every workload in examples/, as the editor shows it with rule pages and a connected cluster. */
function exampleCards(): { name: string; card: string; findings: Finding[] }[] {
  return readdirSync('examples')
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((name) => {
      const { file, inventory, findings } = analysed(readFileSync(`examples/${name}`, 'utf8'));
      const options = { drainLinks: true, ruleHref: (id: string) => `file:///docs/rules/${id}.md`, liveLine: () => 'Live: 3/3 ready on worker-1, worker-2, worker-3 · fits on 5 of 6 nodes by capacity' };
      return file.resources.filter(isWorkload).map((w) => ({
        name: `${name}: ${describeResource(w)}`,
        card: hoverAt(file, kindRange(w).start, inventory, findings, undefined, options)!.text,
        findings: findings.filter((f) => f.resource?.name === w.name && f.resource?.kind === w.kind),
      }));
    });
}

describe('resilience card on a workload kind line', () => {
  it('leads with a verdict: the worst a failure does to this workload, in its numbers, and how many findings', () => {
    assert.match(verdict(hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment')!), /^\*\*⚠ Deployment web\*\*: one node drain takes it offline — \d findings$/);
    assert.match(verdict(hover(workload('Deployment', '  replicas: 3\n'), 'kind: Deployment')!), /^\*\*⚠ Deployment web\*\*: one node drain can take all 3 pods offline — /);
    const guarded = hover(workload('Deployment', '  replicas: 3\n'), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.match(verdict(guarded), /: one node failure can take all 3 pods offline for \\~350 s — /, 'a PDB paces drains, but nothing spreads the pods');
  });

  it('a sturdy workload: spread, a PDB, memory bounded: it survives, and says so without a warning', () => {
    const card = hover(MEMORY(workload('Deployment', '  replicas: 3\n', SPREAD)), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.equal(verdict(card), '**✓ Deployment web**: survives a node drain, a node failure and a control-plane outage');
    assert.equal(row(card, 'Node failure'), 'pods there down \\~350 s (toleration 300 s); the rest serve');
    assert.doesNotMatch(card, /Findings/);
  });

  it('then a table of what each failure does, with the effective replicas, the PDB and the HPA', () => {
    const card = hover(workload('Deployment', ''), 'kind: Deployment', { 'hpa.yaml': HPA, 'pdb.yaml': PDB('minAvailable: 75%') })!;
    const lines = card.split('\n');
    assert.deepEqual(lines.slice(2, 4), ['| Failure | What happens |', '| --- | --- |']);
    assert.deepEqual(lines.slice(4, 8).map((l) => cells(l)[0]), ['Node drain, scale-down', 'Node failure', 'Dependency down', 'Control plane down'], 'a scale-down that is only a drain shares its row');
    assert.equal(row(card, 'Node drain'), 'PDB lets 1 of 4 pods go at a time, 30 s each to stop');
    assert.equal(row(card, 'Control plane down'), 'keeps serving on a frozen view; HPA frozen, maybe at 4 pods');
    assert.match(card, /\nPosture: 4–10 replicas \(HPA web-hpa\) · no spread · PDB web-pdb · probes: readiness only\n/);
  });

  it('replicas their own required affinity holds on one node are not spread, whatever spreads them, and the posture says why', () => {
    const together = '      affinity:\n        podAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            - topologyKey: kubernetes.io/hostname\n              labelSelector: {matchLabels: {app: web}}\n';
    const card = hover(workload('Deployment', '  replicas: 3\n', together + SPREAD), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.match(row(card, 'Node failure'), /^all 3 may be down /);
    assert.match(card, /\nPosture: 3 replicas · spread by hostname, held on one node by its own pod affinity · PDB web-pdb · /);
    assert.match(hover(workload('Deployment', '  replicas: 3\n', together), 'kind: Deployment')!, /\nPosture: 3 replicas · held on one node by its own pod affinity · no PDB · /);
  });

  it('replicas a spread constraint lets share a node for its maxSkew are not spread, and the posture says why', () => {
    const loose = hover(workload('Deployment', '  replicas: 3\n', SPREAD.replace('maxSkew: 1', 'maxSkew: 3')), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.match(row(loose, 'Node failure'), /^all 3 may be down /);
    assert.match(loose, /\nPosture: 3 replicas · spread by hostname, maxSkew 3 lets all 3 pods share a node · PDB web-pdb · /);
    const refused = hover(workload('Deployment', '  replicas: 3\n', SPREAD.replace('maxSkew: 1', 'maxSkew: "1"')), 'kind: Deployment')!;
    assert.match(refused, /\nPosture: 3 replicas · spread by hostname, maxSkew "1" refused by the API server · no PDB · /);
    assert.match(hover(workload('Deployment', '  replicas: 3\n', SPREAD.replace('maxSkew: 1', 'maxSkew: 2')), 'kind: Deployment')!, /\nPosture: 3 replicas · spread by hostname · no PDB · /);
  });

  it('a maxSkew the API server refuses rejects the workload even beside a constraint that spreads it: the verdict says so, where it said it survived', () => {
    const zone = SPREAD.replace('        - maxSkew: 1\n', '        - maxSkew: 1\n          topologyKey: topology.kubernetes.io/zone\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector: {matchLabels: {app: web}}\n        - maxSkew: 0\n');
    const card = hover(workload('Deployment', '  replicas: 3\n', zone), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.match(verdict(card), /^\*\*⚠ Deployment web\*\*: the API server rejects it \(topologySpreadConstraints on kubernetes\.io\/hostname maxSkew 0, which is below 1\): no pod runs — /);
    const spread = hover(workload('Deployment', '  replicas: 3\n', SPREAD), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.doesNotMatch(verdict(spread), /rejects/);
  });

  it('a KEDA ScaledObject is the autoscaler: its floor and ceiling, said as KEDA\'s, not an HPA\'s', () => {
    const keda = 'apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: web-keda\nspec:\n  scaleTargetRef: {name: web}\n  minReplicaCount: 3\n  maxReplicaCount: 10\n  triggers: [{type: cpu, metricType: Utilization, metadata: {value: "60"}}]\n';
    const card = hover(workload('Deployment', ''), 'kind: Deployment', { 'keda.yaml': keda })!;
    assert.match(card, /\nPosture: 3–10 replicas \(KEDA ScaledObject web-keda\) · no spread · no PDB · probes: readiness only\n/);
  });

  it('a workload KEDA\'s paused-replicas holds: its count, said as held by that ScaledObject', () => {
    const keda = 'apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: web-keda\n  annotations: {autoscaling.keda.sh/paused-replicas: "2"}\nspec:\n  scaleTargetRef: {name: web}\n  minReplicaCount: 3\n  maxReplicaCount: 10\n  triggers: [{type: cpu, metricType: Utilization, metadata: {value: "60"}}]\n';
    const card = hover(workload('Deployment', '  replicas: 5\n'), 'kind: Deployment', { 'keda.yaml': keda })!;
    assert.match(card, /\nPosture: 2 replicas \(held by the paused-replicas of KEDA ScaledObject web-keda\) · no spread · no PDB · no HPA · probes: readiness only\n/);
  });

  it('one replica: a drain is an outage until replaced, a node failure one for the grace period plus tolerationSeconds', () => {
    const card = hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment')!;
    assert.equal(row(card, 'Node drain'), 'its only pod is evicted: down until replaced');
    assert.equal(row(card, 'Node failure'), 'down \\~350 s (toleration 300 s), then replaced');
    assert.equal(row(card, 'Control plane down'), 'keeps serving on a frozen view; if its pod dies, it is down');
    assert.match(card, /\nPosture: 1 replica · no spread · no PDB · no HPA · probes: readiness only\n/);
    assert.match(card, /\n\[Simulate a drain of its node\]\(command:[^\n]* · _Timings: facts\/control-plane\.md §3, facts\/data-plane\.md §1, §4, §7_$/);
  });

  it('links the timings to the fact sheets when the caller knows where they are', () => {
    const card = hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment', {}, { factsHref: (sheet) => `file:///docs/facts/${sheet}.md` })!;
    assert.match(card, /_Timings: \[control-plane\.md\]\(file:\/\/\/docs\/facts\/control-plane\.md\) §3, \[data-plane\.md\]\(file:\/\/\/docs\/facts\/data-plane\.md\) §1, §4, §7_/);
  });

  it('own tolerations and a grace period change the numbers', () => {
    const template = '      terminationGracePeriodSeconds: 90\n      tolerations:\n        - key: node.kubernetes.io/unreachable\n          operator: Exists\n          effect: NoExecute\n          tolerationSeconds: 30\n';
    const card = hover(workload('Deployment', '  replicas: 3\n', template), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.equal(row(card, 'Node failure'), 'all 3 may be down \\~80 s (toleration 30 s), then replaced');
    assert.equal(row(card, 'Node drain'), 'PDB lets 1 of 3 pods go at a time, 90 s each to stop');
  });

  it('a StatefulSet waits for a force delete after a node failure; a PDB of 0 blocks drains and scale-down', () => {
    const card = hover(workload('StatefulSet', '  replicas: 3\n  serviceName: web\n'), 'kind: StatefulSet', { 'pdb.yaml': PDB('minAvailable: 3') })!;
    assert.equal(row(card, 'Node failure'), 'all 3 may be down until force-deleted (≥ \\~350 s)');
    assert.equal(row(card, 'Node drain'), 'hangs: its PDB allows 0 of 3 pods to go (429)');
    assert.equal(row(card, 'Scale-down'), 'its node is kept, and paid for: a PDB allowing 0');
    assert.match(verdict(card), /: one node failure can take all 3 pods offline until force-deleted — /);
  });

  describe('a StatefulSet whose PDBs pick its pods out by name (statefulset.kubernetes.io/pod-name)', () => {
    const web = (replicas: number) => workload('StatefulSet', `  replicas: ${replicas}\n  serviceName: web\n`);
    const byName = (name: string, budget: string, selector = `matchLabels:\n      statefulset.kubernetes.io/pod-name: ${name}`) =>
      `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}\nspec:\n  ${budget}\n  selector:\n    ${selector}\n`;
    const perPod = (budget: string) => ({ 'pdbs.yaml': ['web-0', 'web-1', 'web-2'].map((name) => byName(name, budget)).join('---\n') });

    for (const budget of ['maxUnavailable: 0', 'minAvailable: 1']) {
      it(`one per pod, each ${budget}: each is listed with its pod, and together they hold every pod (no "no PDB", no two budgets over one pod)`, () => {
        const card = hover(web(3), 'kind: StatefulSet', perPod(budget))!;
        assert.match(card, /\nPosture: 3 replicas · no spread · 3 PDBs: web-0 \(pod web-0\), web-1 \(pod web-1\), web-2 \(pod web-2\) · /);
        assert.equal(row(card, 'Node drain'), 'hangs: its 3 PDBs allow 0 of 3 pods to go (429)');
        assert.equal(row(card, 'Scale-down'), 'its node is kept, and paid for: a PDB allowing 0');
      });
    }

    it('one over pod 0 only: it holds web-0, and pods 1 and 2 go as if there were none', () => {
      const card = hover(web(3), 'kind: StatefulSet', { 'pdb.yaml': byName('web-0', 'minAvailable: 1') })!;
      assert.match(card, /\nPosture: 3 replicas · no spread · PDB web-0 \(pod web-0 only\) · /);
      assert.equal(row(card, 'Node drain'), 'hangs on pod web-0: its PDB allows no eviction (429); 2 pods with no PDB may go at once');
    });

    it('one over all but pod 0, too many to name: counted, and it paces the pods it selects while web-0 goes freely', () => {
      const card = hover(web(5), 'kind: StatefulSet', { 'pdb.yaml': byName('web-rest', 'minAvailable: 3', 'matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [web-0]}') })!;
      assert.match(card, /\nPosture: 5 replicas · no spread · PDB web-rest \(4 of 5 pods only\) · /);
      assert.equal(row(card, 'Node drain'), 'PDB lets 2 of 5 pods go at a time (1 with no PDB), 30 s each to stop');
    });

    it('one over pod 0 of 2 billion replicas: named at once, without naming every pod of the StatefulSet (the hover ran out of memory)', () => {
      const started = Date.now();
      const card = hover(web(2_000_000_000), 'kind: StatefulSet', { 'pdb.yaml': byName('web-0', 'minAvailable: 1') })!;
      assert.match(card, /\nPosture: 2000000000 replicas · no spread · PDB web-0 \(pod web-0 only\) · /);
      assert.ok(Date.now() - started < 2000);
    });

    it('one over pod 0 beside one over every pod: web-0 has two, and the eviction API evicts it never', () => {
      const card = hover(web(3), 'kind: StatefulSet', { 'pdb.yaml': PDB('maxUnavailable: 1'), 'pdb-0.yaml': byName('web-0', 'maxUnavailable: 1') })!;
      assert.equal(row(card, 'Node drain'), 'hangs: 2 PDBs match its pods (eviction API 500)');
    });
  });

  it('dependency down: a liveness probe on the readiness handler restarts every replica; readiness alone takes them out', () => {
    const text = workload('Deployment', '  replicas: 2\n').replace('          readinessProbe:', '          livenessProbe:\n            httpGet:\n              path: /ready\n              port: http\n          readinessProbe:');
    const card = hover(text, 'kind: Deployment')!;
    assert.equal(row(card, 'Dependency down'), 'liveness restarts both pods after 30 s: a restart storm');
    assert.match(card, /· probes: liveness = readiness\n/);
    assert.equal(row(hover(workload('Deployment', '  replicas: 2\n'), 'kind: Deployment')!, 'Dependency down'), 'out of the Service after 30 s, if readiness checks it');
  });

  it('dependency down: a native sidecar whose liveness is its readiness restarts every replica too (it runs, and is probed, for the pod\'s whole life)', () => {
    const sidecar = '      initContainers:\n        - name: proxy\n          image: example/proxy:1\n          restartPolicy: Always\n          livenessProbe: {httpGet: {path: /ready, port: 9901}}\n          readinessProbe: {httpGet: {path: /ready, port: 9901}}\n';
    const card = hover(workload('Deployment', '  replicas: 2\n', sidecar), 'kind: Deployment')!;
    assert.equal(row(card, 'Dependency down'), 'proxy: liveness restarts both pods after 30 s: a restart storm');
  });

  it('dependency down: an init container that is no native sidecar takes no probe (the API server refuses one), so the card reads nothing from it', () => {
    const init = '      initContainers:\n        - name: migrate\n          image: example/migrate:1\n          livenessProbe: {httpGet: {path: /ready, port: 9901}}\n          readinessProbe: {httpGet: {path: /ready, port: 9901}}\n';
    assert.equal(row(hover(workload('Deployment', '  replicas: 2\n', init), 'kind: Deployment')!, 'Dependency down'), 'out of the Service after 30 s, if readiness checks it');
  });

  it('a declared slow start shows in drains and failures: how long a replacement takes, and when liveness kills it first', () => {
    const slow = workload('Deployment', '  replicas: 3\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/startup-seconds: "600"\n');
    const card = hover(slow, 'kind: Deployment')!;
    assert.equal(row(card, 'Node drain'), 'all 3 pods may go at once: down \\~600 s until replaced');
    assert.equal(row(card, 'Node failure'), 'all 3 may be down \\~950 s (toleration 300 s + 600 s start)');
    assert.match(card, /· start 600 s\n/);
    const killed = hover(slow.replace('          readinessProbe:', '          livenessProbe:\n            httpGet:\n              path: /live\n              port: http\n          readinessProbe:'), 'kind: Deployment')!;
    assert.equal(row(killed, 'Node drain'), 'all 3 pods may go at once; 600 s starts crash-loop at 30 s');
    assert.equal(row(killed, 'Node failure'), 'all 3 may be down for good: 600 s starts crash-loop at 30 s');
    assert.match(verdict(killed), /: one node drain can take all 3 pods offline for good — /);
  });

  it('a probe timing in quotes has the API server reject the workload: the verdict says so, and no crash-loop is worked out from default timings', () => {
    const slow = workload('Deployment', '  replicas: 3\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/startup-seconds: "600"\n');
    const card = hover(slow.replace('          readinessProbe:', '          livenessProbe:\n            httpGet:\n              path: /live\n              port: http\n            initialDelaySeconds: "900"\n          readinessProbe:'), 'kind: Deployment')!;
    assert.match(verdict(card), /^\*\*⚠ Deployment web\*\*: the API server rejects it \(livenessProbe initialDelaySeconds "900" is no integer\): no pod runs — /);
    assert.equal(row(card, 'Node drain'), 'all 3 pods may go at once: down \\~600 s until replaced');
    assert.equal(row(card, 'Dependency down'), 'no pod runs: the API server rejects livenessProbe initialDelaySeconds "900", which is no integer');
    assert.match(card, /probes: livenessProbe initialDelaySeconds "900" refused by the API server/);
    assert.doesNotMatch(card, /crash-loop/);
  });

  it('a probe value the API server refuses after defaulting rejects the workload as well: the card says why, and works out no crash-loop from it', () => {
    const slow = workload('Deployment', '  replicas: 3\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/startup-seconds: "600"\n');
    const withStartup = (line: string) => slow.replace('          readinessProbe:', `          startupProbe:\n            httpGet:\n              path: /live\n              port: http\n            ${line}\n          readinessProbe:`);
    const card = hover(withStartup('successThreshold: 3'), 'kind: Deployment')!;
    assert.match(verdict(card), /^\*\*⚠ Deployment web\*\*: the API server rejects it \(startupProbe successThreshold 3 must be 1\): no pod runs — /);
    assert.equal(row(card, 'Dependency down'), 'no pod runs: the API server rejects startupProbe successThreshold 3, which must be 1');
    assert.match(card, /probes: startupProbe successThreshold 3 refused by the API server/);
    assert.doesNotMatch(card, /crash-loop/);
    assert.match(verdict(hover(withStartup('initialDelaySeconds: -1'), 'kind: Deployment')!), /\(startupProbe initialDelaySeconds -1 is negative\)/);
    assert.match(verdict(hover(withStartup('terminationGracePeriodSeconds: 0'), 'kind: Deployment')!), /\(startupProbe terminationGracePeriodSeconds 0 must be greater than 0\)/);
    const readinessGrace = slow.replace('              port: http\n', '              port: http\n            terminationGracePeriodSeconds: 30\n');
    assert.match(verdict(hover(readinessGrace, 'kind: Deployment')!), /\(readinessProbe terminationGracePeriodSeconds 30 is for liveness and startup probes only\)/);
  });

  it('a startup probe that gives up before the declared start kills every start, as liveness would; one that outlasts it holds liveness back', () => {
    const slow = workload('Deployment', '  replicas: 3\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/startup-seconds: "1200"\n');
    const probed = (threshold: number) =>
      slow.replace('          readinessProbe:', `          startupProbe:\n            httpGet:\n              path: /live\n              port: http\n            failureThreshold: ${threshold}\n            periodSeconds: 10\n          livenessProbe:\n            httpGet:\n              path: /live\n              port: http\n          readinessProbe:`);
    const short = hover(probed(30), 'kind: Deployment')!;
    assert.equal(row(short, 'Node drain'), 'all 3 pods may go at once; 1200 s starts crash-loop at 300 s (its startup probe)');
    assert.match(verdict(short), /for good/);
    assert.equal(row(hover(probed(130), 'kind: Deployment')!, 'Node drain'), 'all 3 pods may go at once: down \\~1200 s until replaced');
    assert.match(hover(probed(30), 'startupProbe')!, /A start longer than 300 s \(initialDelaySeconds \+ failureThreshold × periodSeconds\) is killed: the startup probe gives up then/);
  });

  it('dependency down without a readiness probe: requests fail only where something sends them', () => {
    const worker = workload('Deployment', '  replicas: 2\n').replace(/ {10}ports:[\s\S]*$/, '');
    assert.equal(row(hover(worker, 'kind: Deployment')!, 'Dependency down'), 'only its own work fails: nothing sends it requests');
    const server = workload('Deployment', '  replicas: 2\n').replace(/ {10}readinessProbe:[\s\S]*$/, '');
    assert.equal(row(hover(server, 'kind: Deployment')!, 'Dependency down'), 'no readiness probe: pods take requests and fail them');
  });

  it('shows the live cluster in one line after the posture', () => {
    const card = hover(workload('Deployment', '  replicas: 2\n'), 'kind: Deployment', {}, { liveLine: () => 'Live: 2/2 ready on w-1, w-2' })!;
    assert.match(card, /\nPosture: [^\n]*\n\nLive: 2\/2 ready on w-1, w-2\n\n\[Simulate a drain of its node\][^\n]* · _Timings/);
  });

  it('writes "~" as a literal tilde: two on a line are a strikethrough in VS Code\'s Markdown', () => {
    const card = hover(workload('Deployment', '  replicas: 2\n'), 'kind: Deployment')!;
    assert.match(row(card, 'Node failure'), /\\~350 s/);
    const outsideCode = card.replace(/`[^`\n]*`/g, '');
    assert.deepEqual(outsideCode.match(/(?<!\\)~/g), null, 'every ~ outside code is escaped');
  });

  it("names each finding by its rule id, linked to the rule's page with its title as the link's tooltip, never by its message", () => {
    const href = (ruleId: string) => (ruleId === 'single-replica' ? `file:///docs/rules/${ruleId}.md` : undefined);
    const text = workload('Deployment', '  replicas: 1\n');
    const card = hover(text, 'kind: Deployment', {}, { ruleHref: href })!;
    assert.match(card, /\nFindings: \[`single-replica`\]\(file:\/\/\/docs\/rules\/single-replica\.md "One replica and no autoscaler"\) · `memory-unbounded`\n/);
    assert.doesNotMatch(card, /\]\(undefined/);
    for (const { message } of analysed(text).findings) assert.ok(!card.includes(message), `the card does not repeat "${message}"`);
  });

  it('names the findings that fit on one line and counts the rest', () => {
    const { file, inventory } = analysed(workload('Deployment', '  replicas: 1\n'));
    const findings = RULES.slice(0, 20).map((rule) => ({ ruleId: rule.meta.id, severity: 'warning', message: `message of ${rule.meta.id}` }) as Finding);
    const lines = resilienceCard(file.resources[0], inventory, findings).split('\n');
    const start = lines.findIndex((l) => l.startsWith('Findings: '));
    assert.match(lines[start], / · \+\d+ more in the Problems panel$/);
    assert.equal(lines[start + 1], '');
    assert.ok(visible(lines[start]).length <= 100);
  });

  it('fits a default hover without scrolling: every example workload in at most 12 lines, none over 100 characters, no cell over 60', () => {
    const cards = exampleCards();
    assert.ok(cards.length >= 6, `cards of examples/: ${cards.map((c) => c.name).join(', ')}`);
    for (const { name, card, findings } of cards) {
      const lines = renderedLines(card);
      assert.ok(lines.length <= 12, `${name}: ${lines.length} lines\n${card}`);
      for (const line of lines) assert.ok(visible(line).length <= 100, `${name}: ${visible(line).length} characters: ${visible(line)}`);
      for (const cell of lines.filter((l) => l.startsWith('| ')).flatMap(cells)) assert.ok(visible(cell).length <= 60, `${name}: cell of ${visible(cell).length}: ${cell}`);
      const linked = new Set(findings.filter((f) => card.includes(`[\`${f.ruleId}\`](file:///docs/rules/${f.ruleId}.md`)).map((f) => f.ruleId));
      const counted = Number(/\+(\d+) more in the Problems panel/.exec(card)?.[1] ?? 0);
      assert.ok(linked.size > 0 || !findings.length, `${name} links its findings`);
      assert.equal(linked.size + counted, new Set(findings.map((f) => f.ruleId)).size, `${name} links each finding's rule or counts it`);
      for (const f of findings) assert.ok(!card.includes(splitMessage(f.message).headline), `${name} does not repeat the message of ${f.ruleId}`);
    }
  });

  it('Jobs and CronJobs: a drain or node failure reruns the pod; a control-plane outage stops new runs', () => {
    const cron = hover(CRON, 'kind: CronJob')!;
    assert.equal(verdict(cron), '**✓ CronJob nightly**: a drain or node failure reruns its pod from scratch');
    assert.equal(row(cron, 'Node drain'), 'its pod is evicted and rerun from scratch');
    assert.equal(row(cron, 'Node failure'), 'its pod is lost \\~350 s (toleration 300 s), then rerun');
    assert.equal(row(cron, 'Control plane down'), 'running jobs finish; no CronJob fires until the API is back');
    assert.match(cron, /\nPosture: 1 pod per run · probes: none\n/);
    const job = CRON.replace('kind: CronJob', 'kind: Job').replace(/ {2}schedule: .*\n {2}jobTemplate:\n {4}spec:\n/, '').replace(/^ {4}/gm, '');
    assert.equal(row(hover(job, 'kind: Job')!, 'Control plane down'), 'running pods finish; the Job starts no new ones');
  });

  it('a DaemonSet is one pod per node: drains skip it, a node failure costs that node\'s pod, nothing false about replicas', () => {
    const ds = hover(workload('DaemonSet', ''), 'kind: DaemonSet')!;
    assert.equal(row(ds, 'Node drain'), 'skipped (`--ignore-daemonsets`): runs until the node stops');
    assert.equal(row(ds, 'Node failure'), "only that node's pod is lost, until the node returns");
    assert.equal(row(ds, 'Control plane down'), 'its pods run on; new or rebooted nodes get none');
    assert.match(ds, /\nPosture: 1 pod per node · rollout 1 node at a time · probes: readiness only\n/);
    assert.doesNotMatch(ds, /replica|spread|HPA/);
  });

  it('a DaemonSet rolled out with maxSurge starts each new pod before the old one stops; maxSurge beside a maxUnavailable that is not 0 is refused', () => {
    const rolled = (rollingUpdate: string) => hover(workload('DaemonSet', `  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n${rollingUpdate}`), 'kind: DaemonSet')!;
    assert.match(rolled('      maxUnavailable: 0\n      maxSurge: 1\n'), /· rollout 1 node at a time, each new pod started before the old one stops \(maxSurge\) ·/);
    assert.match(rolled('      maxSurge: "10%"\n'), /· rollout settings the API server rejects \(maxSurge with a maxUnavailable that is not 0\) ·/);
    assert.match(rolled('      maxUnavailable: "25%"\n'), /· rollout 25% of nodes at a time ·/);
  });

  it('a node agent: the verdict says where nodes run without it; a line says its priority and the taints it tolerates', () => {
    const card = hover(readFileSync('examples/node-agents.yaml', 'utf8'), 'kind: DaemonSet')!;
    assert.match(verdict(card), /^\*\*⚠ DaemonSet kube-system\/node-local-dns\*\*: tainted nodes get no node-local DNS caching — 2 findings$/);
    assert.match(card, /\nPosture: 1 pod per node · rollout 10% of nodes at a time · probes: liveness only\n/);
    assert.match(card, /\nNode agent: node-local-dns \(node-local DNS caching\) · priority 0 · not on tainted nodes\n/);
    const kubeProxy = MEMORY(workload('DaemonSet', '', '      priorityClassName: system-node-critical\n      tolerations:\n        - operator: Exists\n'))
      .replace('name: app', 'name: kube-proxy')
      .replace(/image: .*/, 'image: registry.k8s.io/kube-proxy:v1.33.4')
      .replace('  name: web\n', '  name: kube-proxy\n  namespace: kube-system\n');
    const proxyCard = hover(kubeProxy, 'kind: DaemonSet')!;
    assert.equal(verdict(proxyCard), "**✓ DaemonSet kube-system/kube-proxy**: one pod per node: a node failure costs only that node's pod");
    assert.match(proxyCard, /\nNode agent: kube-proxy \(Service routing\) · priority system-node-critical · tolerates every taint\n/);
  });

  it('a bare pod: a drain deletes it for good, and its node never scales down', () => {
    const card = hover('apiVersion: v1\nkind: Pod\nmetadata:\n  name: one\nspec:\n  containers:\n    - name: app\n      image: example/app\n', 'kind: Pod')!;
    assert.match(verdict(card), /^\*\*⚠ Pod one\*\*: one node drain deletes it for good/);
    assert.equal(row(card, 'Scale-down'), 'its node is kept, and paid for: a bare pod');
  });

  it('a PDB the API server rejects is no PDB: it blocks nothing, and is not counted beside another', () => {
    const rejected = hover(workload('Deployment', '  replicas: 3\n'), 'kind: Deployment', { 'pdb.yaml': PDB('minAvailable: "2"') })!;
    assert.doesNotMatch(row(rejected, 'Node drain'), /hangs/);
    assert.doesNotMatch(rejected, /a PDB allowing 0/);
    const beside = hover(workload('Deployment', '  replicas: 3\n'), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 1'), 'pdb-2.yaml': PDB('minAvailable: "1"').replace('name: web-pdb', 'name: web-pdb-2') })!;
    assert.match(row(beside, 'Node drain'), /^PDB lets 1 of 3 pods go at a time/);
  });

  it('a bare pod under a PDB of maxUnavailable: drains hang on it, --force or not (the PDB counts it for none)', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: one\n  labels:\n    app: web\nspec:\n  containers:\n    - name: app\n      image: example/app\n';
    const card = hover(pod, 'kind: Pod', { 'pdb.yaml': PDB('maxUnavailable: 1') })!;
    assert.equal(row(card, 'Node drain'), 'hangs: its PDB allows no eviction of a bare pod (429), `--force` or not');
  });

  it('the autoscaler moves a pod that says safe-to-evict "true", or whose only local volume is memory-backed or named safe to evict', () => {
    const withVolume = (volume: string, annotations = '') =>
      workload('Deployment', '  replicas: 2\n', `${annotations}      volumes:\n        - name: scratch\n          ${volume}\n`);
    const scaleDown = (text: string) => (text.includes('| Scale-down |') ? row(text, 'Scale-down') : undefined);
    assert.equal(scaleDown(hover(withVolume('emptyDir: {}'), 'kind: Deployment')!), 'its node is kept, and paid for: local storage');
    assert.equal(scaleDown(hover(withVolume('emptyDir: {medium: Memory}'), 'kind: Deployment')!), undefined);
    const annotated = (value: string) => withVolume('emptyDir: {}').replace('    metadata:\n      labels:', `    metadata:\n      annotations:\n        ${value}\n      labels:`);
    assert.equal(scaleDown(hover(annotated('cluster-autoscaler.kubernetes.io/safe-to-evict: "true"'), 'kind: Deployment')!), undefined);
    assert.equal(scaleDown(hover(annotated('cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes: scratch'), 'kind: Deployment')!), undefined);
    // It reads the pods' annotations: safe-to-evict "false" on the Deployment itself holds no node (the card said it did).
    const plain = workload('Deployment', '  replicas: 2\n');
    assert.equal(scaleDown(hover(plain.replace('  name: web\n', '  name: web\n  annotations:\n    cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n'), 'kind: Deployment')!), undefined);
    assert.match(scaleDown(hover(plain.replace('    metadata:\n      labels:', '    metadata:\n      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n      labels:'), 'kind: Deployment')!) ?? '', /safe-to-evict "false"/);
    // Written as a YAML boolean it is no annotation: the API server rejects the pod with it (annotation-invalid says so).
    assert.equal(scaleDown(hover(plain.replace('    metadata:\n      labels:', '    metadata:\n      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: false\n      labels:'), 'kind: Deployment')!), undefined);
    assert.equal(scaleDown(hover(annotated('cluster-autoscaler.kubernetes.io/safe-to-evict: true'), 'kind: Deployment')!), 'its node is kept, and paid for: local storage');
  });

  it('scaled to 0 with a PDB allowing 0: no pod holds its node', () => {
    const card = hover(workload('Deployment', '  replicas: 0\n'), 'kind: Deployment', { 'pdb.yaml': PDB('maxUnavailable: 0') })!;
    assert.equal(row(card, 'Scale-down'), 'scaled to 0: nothing to evict');
    assert.doesNotMatch(verdict(card), /never scales down/);
  });

  it('a Job with backoffLimit 0 fails when a drain or a node failure takes its pod; with the default 6 it is rerun', () => {
    const job = (limit: string) => `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\nspec:\n${limit}  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: app\n          image: example/app\n`;
    const strict = hover(job('  backoffLimit: 0\n'), 'kind: Job')!;
    assert.equal(row(strict, 'Node drain'), 'its evicted pod counts as failed: with backoffLimit 0 the Job fails, not rerun');
    assert.match(row(strict, 'Node failure'), /, then it counts as failed: with backoffLimit 0 the Job fails$/);
    assert.match(verdict(strict), /one node drain fails the Job \(backoffLimit 0\)/);
    assert.equal(row(hover(job(''), 'kind: Job')!, 'Node drain'), 'its pod is evicted and rerun from scratch');
  });

  it('a podFailurePolicy decides what a disruption does to a Job: Ignore reruns the pod whatever backoffLimit, FailJob fails the Job at once', () => {
    const job = (action: string) =>
      `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: etl\nspec:\n  backoffLimit: 0\n  podFailurePolicy:\n    rules:\n      - action: FailJob\n        onExitCodes: {operator: In, values: [42]}\n      - action: ${action}\n        onPodConditions: [{type: DisruptionTarget}]\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: app\n          image: example/app\n`;
    const tolerant = hover(job('Ignore'), 'kind: Job')!;
    assert.equal(row(tolerant, 'Node drain'), 'its pod is evicted and rerun: its podFailurePolicy ignores disruptions, whatever backoffLimit');
    assert.match(row(tolerant, 'Node failure'), /, then rerun: its podFailurePolicy ignores disruptions$/);
    assert.doesNotMatch(verdict(tolerant), /fails the Job/);
    const failing = hover(job('FailJob').replace('  backoffLimit: 0\n', ''), 'kind: Job')!;
    assert.equal(row(failing, 'Node drain'), 'its evicted pod fails the Job at once (its podFailurePolicy), not rerun');
    assert.match(verdict(failing), /one node drain fails the Job \(podFailurePolicy FailJob\)/);
  });

  it('a suspended CronJob starts no Job: nothing for a drain or a node failure to take', () => {
    const cron = `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n  suspend: true\n  jobTemplate:\n    spec:\n      backoffLimit: 0\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: app\n              image: example/app\n`;
    const card = hover(cron, 'kind: CronJob')!;
    assert.equal(row(card, 'Node drain'), 'suspended: it starts no Job');
    assert.equal(row(card, 'Node failure'), 'suspended: it starts no Job');
    assert.doesNotMatch(verdict(card), /fails the Job/);
  });

  it('no card off the kind line of a resource that is not a workload', () => {
    assert.equal(hover(PDB('maxUnavailable: 1'), 'kind: PodDisruptionBudget'), undefined);
  });
});
