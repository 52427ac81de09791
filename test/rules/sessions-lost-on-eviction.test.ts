import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../server/src/fixes/edit';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { containersOf, podTemplateOf } from '../../server/src/manifest/workload';
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
/** One replica of a call service with a declared session length (PDB not asked for), with pod annotations and container lines. */
const calls = (podMetadata: string, container: string, seconds = '3600') =>
  deployment({ spec: '  replicas: 1\n', podMetadata, container }).replace('name: web\nspec:', `name: web\n  annotations:\n    kube-resilience/sessions: in-memory\n    kube-resilience/session-seconds: "${seconds}"\nspec:`);
const clientIp = service({ extra: '  sessionAffinity: ClientIP\n' });
/** A log shipper beside the app, which declares no port, with its own lines. */
const SHIPPER = (lines: string) => `        - name: shipper\n          image: busybox:1.36\n${lines}`;

ruleTester(sessionsLostOnEviction, {
  valid: [
    {
      name: 'the container that serves waits out the sessions; a sidecar that declares no port needs no hook of its own',
      code: calls('', `          ports:\n            - containerPort: 8080\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n${SHIPPER('')}      terminationGracePeriodSeconds: 330\n`, '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
    },
    { name: 'no sessions declared and no sticky Service', code: documents(chat({ metadata: '' }), service()) },
    { name: 'every piece is there', code: documents(chat(protectedPod), pdb('  maxUnavailable: 1\n')) },
    {
      name: 'every piece is there, in a StatefulSet whose budget is for one of its pods, by the name its controller gives it (pdb-blocks-eviction says what it allows)',
      code: documents(chat(protectedPod).replace('kind: Deployment', 'kind: StatefulSet'), pdb('  minAvailable: 0\n', { selector: '    matchLabels:\n      statefulset.kubernetes.io/pod-name: web-0\n' })),
    },
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
            'Deployment web: a drain or scale-down loses every user session on its pods. It keeps sessions in memory (kube-resilience/sessions: in-memory) and lacks a PodDisruptionBudget, a preStop hook, terminationGracePeriodSeconds of at least 90 s (now 30, the default) and the pod annotation cluster-autoscaler.kubernetes.io/safe-to-evict: "false" (sessions of unknown length may outlast the 600 s the cluster autoscaler grants): a node drain or an autoscaler scale-down kills its pods on short notice, and every session on them is lost.',
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
                seconds: 60
      terminationGracePeriodSeconds: 90
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
      name: 'a PDB of other pods has the name web-pdb in its folder: the PDB it adds is named web-pdb-2 (applied, one would replace the other)',
      code: chat(protectedPod),
      files: { 'legacy.yaml': pdb('  maxUnavailable: 1\n', { selector: '    matchLabels:\n      app: legacy\n' }) },
      findings: [{ at: 'kube-resilience/sessions', message: /lacks a PodDisruptionBudget: / }],
      output: documents(chat(protectedPod), 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web-pdb-2\nspec:\n  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n  selector:\n    matchLabels:\n      app: web\n'),
    },
    {
      name: 'a ClientIP Service in another file; only the grace period is short, and the fix keeps the preStop sleep inside it',
      code: chat({ ...protectedPod, metadata: '', podSpec: '      terminationGracePeriodSeconds: 30\n', container: '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 20\n' }),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n'), 'svc.yaml': clientIp },
      findings: [
        {
          at: 'kind: Deployment',
          message: /^Deployment web: a drain or scale-down loses every user session on its pods\. It is fronted by Service web with sessionAffinity ClientIP and lacks terminationGracePeriodSeconds of at least 90 s \(now 30\): /,
          related: ['svc.yaml: sessionAffinity'],
        },
      ],
      output: chat({ ...protectedPod, metadata: '', podSpec: '      terminationGracePeriodSeconds: 90\n', container: '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 20\n' }),
    },
    {
      name: 'declared on the pod template of a StatefulSet, autoscaler annotation missing',
      code: chat({ ...protectedPod, metadata: '', podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n' }).replace('kind: Deployment', 'kind: StatefulSet'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ at: 'kube-resilience/sessions', line: 15, message: /^StatefulSet web: a drain or scale-down loses every user session on its pods\. It keeps sessions in memory .* and lacks the pod annotation cluster-autoscaler.kubernetes.io\/safe-to-evict: "false" \(sessions of unknown length may outlast the 600 s the cluster autoscaler grants\): / }],
      output: chat({ ...protectedPod, metadata: '', podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n        cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n' }).replace('kind: Deployment', 'kind: StatefulSet'),
    },
    {
      name: 'the autoscaler annotation written as a YAML boolean (false) is none: the API server rejects the pod (annotation-invalid says so), so it is asked for, and its fix writes it as a string',
      code: documents(chat({ ...protectedPod, podMetadata: '      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: false\n' }), pdb('  maxUnavailable: 1\n')),
      findings: [{ at: 'kube-resilience/sessions', message: /^Deployment web: a drain or scale-down loses every user session on its pods\. It keeps sessions in memory .* and lacks the pod annotation cluster-autoscaler.kubernetes.io\/safe-to-evict: "false" \(sessions of unknown length/ }],
      output: documents(chat(protectedPod), pdb('  maxUnavailable: 1\n')),
    },
    {
      name: 'hour-long calls declared: the pod keeps serving an hour out of its Service, the grace covers it, and the autoscaler annotation is preferred, saying why',
      code: calls('', ''),
      findings: [
        {
          at: 'kube-resilience/sessions',
          message:
            'Deployment web: a drain or scale-down loses every user session on its pods. It keeps sessions in memory (kube-resilience/sessions: in-memory) and lacks a preStop hook, terminationGracePeriodSeconds of at least 3630 s (now 30, the default) and the pod annotation cluster-autoscaler.kubernetes.io/safe-to-evict: "false" (sessions last 3600 s, the cluster autoscaler grants 600 s (--max-graceful-termination-sec) whatever the grace period): a node drain or an autoscaler scale-down kills its pods on short notice, and every session of up to 3600 s on them is lost.',
        },
      ],
      output: calls('      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n', '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 3600\n      terminationGracePeriodSeconds: 3630\n'),
    },
    {
      name: 'sessions within the autoscaler\'s 600 s need no annotation; a declared preStop sleep shorter than a session is lengthened',
      code: calls('', '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 10\n', '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /lacks a preStop hook that outlasts a session \(it waits 10 s, sessions last 300 s\) and terminationGracePeriodSeconds of at least 330 s \(now 30, the default\): / }],
      output: calls('', '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n      terminationGracePeriodSeconds: 330\n', '300'),
    },
    {
      name: 'a sidecar\'s wait keeps no session of the app beside it: the container that serves needs its own preStop (the sidecar\'s was lengthened instead)',
      code: calls('', `          ports:\n            - containerPort: 8080\n${SHIPPER('          lifecycle:\n            preStop:\n              exec:\n                command: [sh, -c, "sleep 10"]\n')}`, '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /lacks a preStop hook on web and terminationGracePeriodSeconds of at least 330 s/ }],
      output: calls('', `          ports:\n            - containerPort: 8080\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n${SHIPPER('          lifecycle:\n            preStop:\n              exec:\n                command: [sh, -c, "sleep 10"]\n')}      terminationGracePeriodSeconds: 330\n`, '300'),
    },
    {
      name: 'the container that serves waits less than a session, the sidecar long enough: the serving one is lengthened',
      code: calls('', `          ports:\n            - containerPort: 8080\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 10\n${SHIPPER('          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n')}      terminationGracePeriodSeconds: 330\n`, '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /lacks a preStop hook that outlasts a session on web \(it waits 10 s, sessions last 300 s\): / }],
      output: calls('', `          ports:\n            - containerPort: 8080\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n${SHIPPER('          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n')}      terminationGracePeriodSeconds: 330\n`, '300'),
    },
    {
      name: 'one container without a hook and one whose wait is short (no port declared, both hold sessions): both said, one fix ends both (the second gap showed only after the first was fixed, and --fix took the fix back)',
      code: calls('', SHIPPER('          lifecycle:\n            preStop:\n              sleep:\n                seconds: 10\n') + '      terminationGracePeriodSeconds: 330\n', '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /lacks a preStop hook on web and a preStop hook that outlasts a session on shipper \(it waits 10 s, sessions last 300 s\): / }],
      output: calls('', '          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n' + SHIPPER('          lifecycle:\n            preStop:\n              sleep:\n                seconds: 300\n') + '      terminationGracePeriodSeconds: 330\n', '300'),
    },
    {
      name: 'a short wait in a command is the team\'s to lengthen: said, with no fix that could end it',
      code: calls('', '          lifecycle:\n            preStop:\n              exec:\n                command: [sh, -c, "sleep 10"]\n      terminationGracePeriodSeconds: 330\n', '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /lacks a preStop hook that outlasts a session \(it waits 10 s, sessions last 300 s\): / }],
      output: null,
    },
    {
      name: 'two serving containers waiting 10 s and 20 s: the shortest wait is said, and the grace period covers the longest hook of any container',
      code: calls('', `          ports:\n            - containerPort: 8080\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 10\n        - name: api\n          image: nginx:1.27\n          ports:\n            - containerPort: 9090\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 20\n${SHIPPER('          lifecycle:\n            preStop:\n              sleep:\n                seconds: 600\n')}`, '300'),
      files: { 'pdb.yaml': pdb('  maxUnavailable: 1\n') },
      findings: [{ message: /lacks a preStop hook that outlasts a session on web and api \(it waits 10 s, sessions last 300 s\) and terminationGracePeriodSeconds of at least 630 s \(now 30, the default\): / }],
    },
    {
      name: 'a single replica is not asked for a PDB, which would protect nothing',
      code: chat().replace('  replicas: 3\n', '  replicas: 1\n'),
      findings: [{ message: /^Deployment web: a drain or scale-down loses every user session on its pods\. It keeps sessions in memory \(kube-resilience\/sessions: in-memory\) and lacks a preStop hook, terminationGracePeriodSeconds/ }],
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

  const findingsOf = (text: string) => {
    const inventory = new Inventory();
    const file = parseManifest('file:///calls.yaml', text);
    inventory.setFile(file);
    return analyzeFile(file, inventory, { rules: [sessionsLostOnEviction] });
  };
  const fixesOf = (text: string) => findingsOf(text)[0].fixes.filter((f) => !f.title.startsWith('Ignore'));
  const sleeping = (seconds: number) => `          lifecycle:\n            preStop:\n              sleep:\n                seconds: ${seconds}\n`;
  /** The preStop sleeps the API server refuses: validateSleepAction rejects one of more seconds than the pod's terminationGracePeriodSeconds (30 unset). */
  const sleepsBeyondGrace = (text: string) => {
    const [workload] = parseManifest('file:///calls.yaml', text).resources;
    const grace = podTemplateOf(workload)!.spec.terminationGracePeriodSeconds ?? 30;
    return containersOf(workload).map(({ container }) => container?.lifecycle?.preStop?.sleep?.seconds).filter((seconds) => seconds > grace);
  };

  it('sessions longer than the autoscaler grants: the annotation is the preferred fix, and its title says why', () => {
    const preferred = fixesOf(calls('', '')).filter((f) => f.preferred);
    assert.deepEqual(preferred.map((f) => f.title), ['Keep the cluster autoscaler from evicting these pods (cluster-autoscaler.kubernetes.io/safe-to-evict: "false": sessions last 3600 s, the cluster autoscaler grants 600 s (--max-graceful-termination-sec) whatever the grace period)']);
  });

  it('without a declared length, the fixes say what they assume', () => {
    const titles = fixesOf(chat()).map((f) => f.title);
    assert.ok(titles.includes('Keep serving sessions 60 s after leaving the Service (preStop sleep, Kubernetes 1.30+; terminationGracePeriodSeconds: 90; assumes sessions end within 60 s: declare kube-resilience/session-seconds)'), titles.join('\n'));
    assert.ok(titles.some((t) => t.startsWith('Give sessions 60 s and the app 30 s to stop (terminationGracePeriodSeconds: 90; assumes sessions end within 60 s')), titles.join('\n'));
  });

  it('the preferred fix is titled by what it adds: the PDB first, then the preStop wait, then the grace period', () => {
    const preferred = (text: string) => fixesOf(text).filter((f) => f.preferred).map((f) => f.title);
    const budget = pdb('  maxUnavailable: 1\n');
    assert.deepEqual(preferred(chat()), ['Add a PodDisruptionBudget web-pdb (maxUnavailable: 1)']);
    assert.deepEqual(preferred(documents(calls('', sleeping(10), '300'), budget)), ['Keep serving sessions 300 s after leaving the Service (preStop sleep, Kubernetes 1.30+; terminationGracePeriodSeconds: 330)']);
    assert.deepEqual(preferred(documents(calls('', sleeping(300), '300'), budget)), ['Give sessions 300 s and the app 30 s to stop (terminationGracePeriodSeconds: 330)']);
    assert.deepEqual(preferred(documents(chat({ ...protectedPod, podSpec: '', container: sleeping(20) }), budget)), [
      'Give sessions 60 s and the app 30 s to stop (terminationGracePeriodSeconds: 90; assumes sessions end within 60 s: declare kube-resilience/session-seconds)',
    ]);
  });

  it('a grace period written in quotes ("120") has the API server reject the pod: said so, and the fix writes the number, never less than it meant', () => {
    const quoted = documents(chat({ ...protectedPod, podSpec: '      terminationGracePeriodSeconds: "120"\n', container: sleeping(60) }), pdb('  maxUnavailable: 1\n'));
    const [finding] = findingsOf(quoted);
    assert.match(finding.message, /terminationGracePeriodSeconds of at least 90 s written as a number \(now "120", no integer: the API server rejects the pod\)/);
    const grace = fixesOf(quoted).find((f) => f.title.startsWith('Give sessions'))!;
    assert.equal(grace.title, 'Give sessions 60 s and the app 30 s to stop (terminationGracePeriodSeconds: 120; assumes sessions end within 60 s: declare kube-resilience/session-seconds)');
    assert.match(applyEdits(quoted, grace.edits), /\n {6}terminationGracePeriodSeconds: 120\n/);
  });

  it('the preStop fix applied alone, as an editor applies it, lengthens the grace period too: a sleep of 300 s in the default 30 s was refused by the API server', () => {
    const text = calls('', '', '300');
    const [keepServing] = fixesOf(text).filter((f) => f.preferred);
    assert.equal(keepServing.title, 'Keep serving sessions 300 s after leaving the Service (preStop sleep, Kubernetes 1.30+; terminationGracePeriodSeconds: 330)');
    const fixed = applyEdits(text, keepServing.edits);
    assert.equal(fixed, calls('', `${sleeping(300)}      terminationGracePeriodSeconds: 330\n`, '300'));
    assert.deepEqual(findingsOf(fixed).map((f) => f.message), [], 'one replica, sessions within the autoscaler\'s grant: nothing is left to ask for');
  });

  it('a short preStop sleep lengthened alone takes the grace period written beside it along, keeping its comment', () => {
    const text = documents(calls('', `${sleeping(10)}      terminationGracePeriodSeconds: 45 # flushes the queue\n`, '300'), pdb('  maxUnavailable: 1\n'));
    const [keepServing] = fixesOf(text).filter((f) => f.preferred);
    const fixed = applyEdits(text, keepServing.edits);
    assert.equal(fixed, documents(calls('', `${sleeping(300)}      terminationGracePeriodSeconds: 330 # flushes the queue\n`, '300'), pdb('  maxUnavailable: 1\n')));
    assert.deepEqual(findingsOf(fixed).map((f) => f.message), []);
  });

  it('every fix it offers, applied alone, leaves each preStop sleep within the grace period, a longer one written there kept', () => {
    const budget = pdb('  maxUnavailable: 1\n');
    const manifests = [
      chat(),
      calls('', ''),
      calls('', '', '300'),
      calls('', '', '86400'),
      documents(calls('', sleeping(10), '300'), budget),
      documents(calls('', `${sleeping(10)}      terminationGracePeriodSeconds: 45\n`, '300'), budget),
      documents(calls('', `${sleeping(10)}      terminationGracePeriodSeconds: 900\n`, '300'), budget),
      calls('', SHIPPER(sleeping(10)), '300'),
      calls('', `          ports:\n            - containerPort: 8080\n${SHIPPER(sleeping(600))}`, '300'),
    ];
    for (const text of manifests) {
      for (const fix of fixesOf(text)) {
        const fixed = applyEdits(text, fix.edits);
        assert.deepEqual(sleepsBeyondGrace(fixed), [], `${fix.title}:\n${fixed}`);
        if (text.includes('terminationGracePeriodSeconds: 900')) assert.match(fixed, /terminationGracePeriodSeconds: 900\n/, `${fix.title} keeps the longer grace period`);
      }
    }
  });

  it('a session longer than an hour keeps the pod serving an hour at most', () => {
    assert.ok(fixesOf(calls('', '', '86400')).some((f) => f.title.startsWith('Keep serving sessions 3600 s after leaving the Service')));
  });
});
