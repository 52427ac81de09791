import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { sessionsLostOnEviction } from '../../server/src/rules/sessions-lost-on-eviction';
import { deployment, documents, pdb, service } from './manifests';
import { ruleTester } from './rule-tester';

const inMemory = '  annotations:\n    kube-resilience/sessions: in-memory # websocket rooms\n';
const chat = (o: { metadata?: string; podMetadata?: string; podSpec?: string; container?: string } = {}) =>
  deployment({ spec: '  replicas: 3\n', podSpec: o.podSpec, podMetadata: o.podMetadata, container: o.container ?? '          ports:\n            - containerPort: 8080\n' }).replace(
    'name: web\nspec:',
    `name: web\n${o.metadata ?? inMemory}spec:`,
  );
const protectedPod = {
  podMetadata: '      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n',
  podSpec: '      terminationGracePeriodSeconds: 90\n',
  container: '          lifecycle:\n            preStop:\n              exec:\n                command: [sh, -c, "sleep 15"]\n',
};
const clientIp = service({ extra: '  sessionAffinity: ClientIP\n' });

ruleTester(sessionsLostOnEviction, {
  valid: [
    { name: 'no sessions declared and no sticky Service', code: documents(chat({ metadata: '' }), service()) },
    { name: 'every piece is there', code: documents(chat(protectedPod), pdb('  maxUnavailable: 1\n')) },
    { name: 'sessions declared external silence a ClientIP Service', code: documents(chat({ metadata: '  annotations:\n    kube-resilience/sessions: external\n' }), clientIp) },
    { name: 'a ClientIP Service that fronts other pods', code: documents(chat({ metadata: '' }), service({ app: 'api', extra: '  sessionAffinity: ClientIP\n' })) },
  ],
  invalid: [
    {
      name: 'declared in memory and nothing done: one fix per piece, all applied',
      code: chat(),
      findings: [
        {
          at: 'kube-resilience/sessions',
          line: 6,
          message:
            'Deployment web keeps sessions in memory (kube-resilience/sessions: in-memory) and lacks a PodDisruptionBudget, a preStop hook, terminationGracePeriodSeconds above 30 (now 30, the default) and the pod annotation cluster-autoscaler.kubernetes.io/safe-to-evict: "false": a node drain or an autoscaler scale-down kills its pods on short notice, and every user session on them is lost.',
        },
      ],
      output: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    kube-resilience/sessions: in-memory # websocket rooms
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
      annotations:
        cluster-autoscaler.kubernetes.io/safe-to-evict: "false"
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 8080
          lifecycle:
            preStop:
              sleep:
                seconds: 10
      terminationGracePeriodSeconds: 70
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
spec:
  maxUnavailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      app: web
`,
    },
    {
      name: 'a ClientIP Service in another file; only the grace period is short, and the fix keeps the preStop sleep inside it',
      code: chat({ ...protectedPod, metadata: '', podSpec: '      terminationGracePeriodSeconds: 30\n', container: '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 20\n' }),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n'), 'svc.yaml': clientIp },
      findings: [
        {
          at: 'kind: Deployment',
          message: /^Deployment web is fronted by Service web with sessionAffinity ClientIP and lacks terminationGracePeriodSeconds above 30 \(now 30\): /,
          related: ['svc.yaml: sessionAffinity'],
        },
      ],
      output: chat({ ...protectedPod, metadata: '', podSpec: '      terminationGracePeriodSeconds: 80\n', container: '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 20\n' }),
    },
    {
      name: 'declared on the pod template of a StatefulSet, autoscaler annotation missing',
      code: chat({ ...protectedPod, metadata: '', podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n' }).replace('kind: Deployment', 'kind: StatefulSet'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ at: 'kube-resilience/sessions', line: 15, message: /^StatefulSet web keeps sessions in memory .* and lacks the pod annotation cluster-autoscaler.kubernetes.io\/safe-to-evict: "false": / }],
      output: chat({ ...protectedPod, metadata: '', podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n        cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n' }).replace('kind: Deployment', 'kind: StatefulSet'),
    },
    {
      name: 'a single replica is not asked for a PDB, which would protect nothing',
      code: chat().replace('  replicas: 3\n', '  replicas: 1\n'),
      findings: [{ message: /^Deployment web keeps sessions in memory \(kube-resilience\/sessions: in-memory\) and lacks a preStop hook, terminationGracePeriodSeconds/ }],
    },
  ],
});

describe('sessions-lost-on-eviction fixes', () => {
  it('offers one fix per missing piece and prefers exactly one, so an editor can auto-fix', () => {
    const inventory = new Inventory();
    const file = parseManifest('file:///chat.yaml', chat());
    inventory.setFile(file);
    const [finding] = analyzeFile(file, inventory, { rules: [sessionsLostOnEviction] });
    const pieces = finding.fixes.filter((f) => !f.title.startsWith('Ignore'));
    assert.equal(pieces.length, 4);
    assert.deepEqual(pieces.map((f) => !!f.preferred), [true, false, false, false]);
  });
});
