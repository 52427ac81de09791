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

  it('PDB budgets: scaled against the pods they select', () => {
    const text = hover(PDB('minAvailable: 50%'), 'minAvailable', { 'web.yaml': workload('Deployment', '  replicas: 3\n') })!;
    assert.match(text, /Here: minAvailable 50% rounds up to 2 over 3 pods of web → 1 eviction allowed at a time\./);
  });

  it('tolerations and the grace period quote the defaults', () => {
    const doc = workload('Deployment', '  replicas: 2\n', '      terminationGracePeriodSeconds: 45\n      tolerations: []\n');
    assert.match(hover(doc, 'tolerations')!, /tolerationSeconds 300: after a node crash its pods are evicted \\~40–50 s \(node marked unhealthy\) \+ 300 s later/);
    assert.match(hover(doc, 'terminationGracePeriodSeconds')!, /\(45 s\); default 30 s\. The Cluster Autoscaler caps it at 600 s/);
  });

  it('declared annotations: what they state and accept', () => {
    const doc = workload('Deployment', '  replicas: 2\n').replace('  name: web\n', '  name: web\n  annotations:\n    kube-resilience/sessions: in-memory\n');
    assert.match(hover(doc, 'kube-resilience/sessions')!, /Accepts "in-memory" \(sessions die with the pod\) or "external"/);
  });

  it('nothing on fields no rule reads', () => {
    assert.equal(hover(workload('Deployment', '  replicas: 2\n'), 'image'), undefined);
  });
});
