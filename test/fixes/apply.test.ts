import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { breaksParsing, fixFile, fixFileInSteps, preferredFix, severalFixable } from '../../server/src/fixes/apply';
import { IncrementalAnalysis } from '../../server/src/rules/incremental';
import { runSteps } from '../../server/src/steps';
import { removeField, setField } from '../../server/src/fixes/yaml-edit';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile, FIXES } from '../../server/src/rules/engine';
import type { Finding, Rule, RuleContext } from '../../server/src/rules/types';
import { applyEdits, composeRounds, type Fix } from '../../server/src/fixes/edit';
import { RULES } from '../../server/src/rules/index';
import * as manifests from '../rules/manifests';

const URI = 'file:///apply.yaml';
const CONFIG = (name: string, data = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name} # keep me\n${data}`;

/** A rule for the test: fires on every ConfigMap `when` holds for, offering `fix`. */
function rule(id: string, when: (object: any) => boolean, fix: (context: RuleContext, resource: any) => Fix | undefined): Rule {
  return {
    meta: { id, severity: 'warning', scenario: 'input', title: id, description: id },
    check(context) {
      for (const resource of context.resources) {
        if (resource.kind === 'ConfigMap' && when(resource.object)) context.report({ resource, message: `${id} on ${resource.name}`, fixes: [fix(context, resource)] });
      }
    },
  };
}

const preferred = (title: string, edits: Fix['edits'] | undefined): Fix | undefined => (edits ? { title, preferred: true, edits } : undefined);

const needsOwner = rule('needs-owner', (o) => !o.metadata?.labels?.owner, (_, r) => preferred('add owner', setField(r, ['metadata', 'labels', 'owner'], 'team')));
const needsTier = rule('needs-tier', (o) => !o.metadata?.labels?.tier, (_, r) => preferred('add tier', setField(r, ['metadata', 'labels', 'tier'], 'gold')));

describe('fixFile', () => {
  it('applies fixes one at a time until none is left, over every document', () => {
    const text = `${CONFIG('a')}---\n${CONFIG('b')}`;
    const { text: fixed, applied } = fixFile(URI, text, new Inventory(), { rules: [needsOwner, needsTier] });
    assert.deepEqual(applied.sort(), ['needs-owner', 'needs-owner', 'needs-tier', 'needs-tier']);
    assert.equal(fixed, `${CONFIG('a')}  labels:\n    owner: team\n    tier: gold\n---\n${CONFIG('b')}  labels:\n    owner: team\n    tier: gold\n`);
    assert.equal(fixFile(URI, fixed, new Inventory(), { rules: [needsOwner, needsTier] }).text, fixed, 'a second run changes nothing');
  });

  it('gives the rounds that made the fixed text, whose edits compose into edits of the text it was given, each place apart', () => {
    // Raising the replicas (round one) brings the spread the next round writes into the same Deployment.
    const text = manifests.documents(manifests.deployment({ name: 'web', spec: '  replicas: 1\n' }), CONFIG('c'), manifests.deployment({ name: 'api', spec: '  replicas: 1\n' }));
    const fixed = fixFile(URI, text, new Inventory());
    assert.ok(fixed.applied.includes('single-replica') && fixed.applied.includes('replicas-not-spread'), fixed.applied.join());
    const edits = composeRounds(fixed.rounds);
    assert.equal(applyEdits(text, edits), fixed.text);
    assert.ok(edits.length > 2, 'several places, not one edit over the whole text');
    assert.ok(edits.every((e) => !text.slice(e.start, e.end).includes('kind: ConfigMap')), 'the ConfigMap between is left alone');
  });

  it('gives the parse of the fixed text its last round was checked on, which the inventory then holds', () => {
    const text = manifests.documents(manifests.deployment({ name: 'web', spec: '  replicas: 1\n' }), CONFIG('c'));
    const inventory = new Inventory();
    // As in the editor: the inventory holds the parse of the text to fix.
    inventory.setFile(parseManifest(URI, text));
    const fixed = fixFile(URI, text, inventory);
    assert.notEqual(fixed.text, text);
    assert.equal(fixed.file.text, fixed.text);
    assert.equal(inventory.getFile(URI), fixed.file);
    assert.deepEqual(fixed.file.resources.map((r) => r.kind).sort(), parseManifest(URI, fixed.text).resources.map((r) => r.kind).sort());
  });

  it('applies only what `accept` lets through, and never an ignore action', () => {
    const { text, applied } = fixFile(URI, CONFIG('a'), new Inventory(), { rules: [needsOwner, needsTier] }, (f) => f.ruleId === 'needs-tier');
    assert.deepEqual(applied, ['needs-tier']);
    assert.ok(!text.includes('owner'));
    assert.ok(!text.includes('kube-resilience'), 'ignore fixes are never preferred');
  });

  it('does not apply a fix that leaves its finding in place', () => {
    const useless = rule('useless', () => true, (_, r) => preferred('touch', setField(r, ['data', 'touched'], 'yes')));
    const { text, applied } = fixFile(URI, CONFIG('a'), new Inventory(), { rules: [useless] });
    assert.deepEqual(applied, []);
    assert.equal(text, CONFIG('a'));
  });

  it('stops on a fix that changes nothing', () => {
    const empty = rule('empty', () => true, (_, r) => ({ title: 'nothing', preferred: true, edits: [{ start: 0, end: 0, text: '' }] }));
    const { text, applied, rounds } = fixFile(URI, CONFIG('a'), new Inventory(), { rules: [empty] });
    assert.deepEqual({ text, applied, rounds }, { text: CONFIG('a'), applied: [], rounds: [] });
  });

  it('never applies a fix that breaks parsing, but applies the others', () => {
    const breaking = rule('breaking', (o) => !o.data, (context, r) => {
      const at = context.file!.text.indexOf('metadata:', r.document.offset);
      return { title: 'break', preferred: true, edits: [{ start: at, end: at, text: 'data: [unclosed\n' }] };
    });
    const { text, applied } = fixFile(URI, CONFIG('a'), new Inventory(), { rules: [breaking, needsOwner] });
    assert.deepEqual(applied, ['needs-owner']);
    assert.ok(!text.includes('unclosed'));
    assert.ok(parseManifest(URI, text).documents.every((d) => !d.parsed.error));
  });

  it('still fixes a file that already has a broken document', () => {
    const text = `${CONFIG('a')}---\nkind: [broken\n`;
    const { text: fixed, applied } = fixFile(URI, text, new Inventory(), { rules: [needsOwner] });
    assert.deepEqual(applied, ['needs-owner']);
    assert.ok(fixed.endsWith('---\nkind: [broken\n'));
  });

  it('terminates when two fixes undo each other', () => {
    const wantsOne = rule('wants-one', (o) => o.data?.x !== '1', (_, r) => preferred('x=1', setField(r, ['data', 'x'], '1')));
    const wantsTwo = rule('wants-two', (o) => o.data?.x !== '2', (_, r) => preferred('x=2', setField(r, ['data', 'x'], '2')));
    const { applied } = fixFile(URI, CONFIG('a', 'data:\n  x: "0"\n'), new Inventory(), { rules: [wantsOne, wantsTwo] });
    assert.ok(applied.length <= 3, `stopped after ${applied.length} fixes`);
  });

  it('leaves the inventory holding the fixed text', () => {
    const inventory = new Inventory();
    const { text } = fixFile(URI, CONFIG('a'), inventory, { rules: [needsOwner] });
    assert.equal(inventory.getFile(URI)!.text, text);
  });

  it('preferredFix picks the preferred one', () => {
    const a = { title: 'a', edits: [] };
    const b = { title: 'b', preferred: true, edits: [] };
    assert.equal(preferredFix({ fixes: [a, b] } as never), b);
    assert.equal(preferredFix({ fixes: [a] } as never), undefined);
  });

  it("preferredFix reads only the rule's own fixes: the ignore actions of thousands of findings are not written for it", () => {
    const own = { title: 'own', preferred: true, edits: [] };
    const finding = FIXES.define({} as Finding, (part) => (part === 'own' ? [own] : assert.fail('the ignore actions were written')));
    assert.equal(preferredFix(finding), own);
  });

  it('fixes independent documents together: a hundred documents take a few analyses, not a hundred', () => {
    let analyses = 0;
    const counted: Rule = { ...needsOwner, check: (context) => (analyses++, needsOwner.check(context)) };
    const text = Array.from({ length: 100 }, (_, i) => CONFIG(`c${i}`)).join('---\n');
    const { text: fixed, applied } = fixFile(URI, text, new Inventory(), { rules: [counted] });
    assert.equal(applied.length, 100);
    assert.equal(fixed.match(/owner: team/g)?.length, 100);
    assert.ok(analyses <= 6, `${analyses} analyses`);
  });

  it('applies the fixes of different rules in one document together when their edits do not touch: one round, not one per rule', () => {
    let analyses = 0;
    const needsData = rule('needs-data', (o) => !o.data?.x, (_, r) => preferred('add data', setField(r, ['data', 'x'], 'y')));
    const counted: Rule = { ...needsOwner, check: (context) => (analyses++, needsOwner.check(context)) };
    const text = Array.from({ length: 50 }, (_, i) => CONFIG(`c${i}`, 'data:\n  other: z\n')).join('---\n');
    const { text: fixed, applied } = fixFile(URI, text, new Inventory(), { rules: [counted, needsData] });
    assert.equal(applied.length, 100);
    assert.equal(fixed.match(/owner: team/g)?.length, 50);
    assert.equal(fixed.match(/x: "y"/g)?.length, 50);
    assert.equal(analyses, 2, 'the file as it was, then as fixed');
  });

  it('a fix that copies text another fix edits waits for the next round: the startup probe copies the liveness handler as fixed (it copied `/actuator/health`, the endpoint that checks dependencies)', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: boot, annotations: {kube-resilience/startup-seconds: "300"}}
spec:
  containers:
    - name: boot
      image: springio/app:3
      resources: {limits: {memory: 1Gi}, requests: {memory: 1Gi}}
      livenessProbe: {httpGet: {path: /actuator/health, port: 8080}}
      readinessProbe: {httpGet: {path: /actuator/health, port: 8080}}
`;
    const { text: fixed, applied } = fixFile(URI, text, new Inventory());
    assert.deepEqual([...applied].sort(), ['probe-liveness-equals-readiness', 'probe-startup-missing']);
    assert.match(fixed, /livenessProbe: \{httpGet: \{path: "?\/actuator\/health\/liveness"?,/);
    assert.match(fixed, /startupProbe:\n {8}httpGet:\n {10}path: \/actuator\/health\/liveness\n/);
  });

  it('a readiness probe added on the liveness probe\'s own handler leaves the liveness probe as written (a second round made it three times more tolerant)', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: cache}
spec:
  containers:
    - name: cache
      image: memcached:1.6
      ports: [{containerPort: 11211}]
      livenessProbe: {tcpSocket: {port: 11211}}
      resources: {limits: {memory: 1Gi}, requests: {memory: 1Gi}}
`;
    const { text: fixed, applied } = fixFile(URI, text, new Inventory());
    assert.deepEqual(applied, ['probe-readiness-missing']);
    assert.match(fixed, /\n {6}livenessProbe: \{tcpSocket: \{port: 11211\}\}\n/);
  });

  it('fixes the items of a List together, as documents: a List of 100 Deployments takes three rounds (replicas, then spread and PDBs), not a hundred', () => {
    const items = Array.from({ length: 100 }, (_, i) => `  - ${manifests.deployment({ name: `d${i}`, spec: '  replicas: 1\n' }).trimEnd().split('\n').join('\n    ')}\n`);
    const text = `apiVersion: v1\nkind: List\nitems:\n${items.join('')}`;
    let analyses = 0;
    const only = RULES.filter((r) => ['single-replica', 'replicas-not-spread', 'pdb-missing'].includes(r.meta.id));
    const counted = only.map((r): Rule => ({ ...r, check: (context) => (r.meta.id === 'single-replica' && analyses++, r.check(context)) }));
    const { text: fixed, applied } = fixFile(URI, text, new Inventory(), { rules: counted });
    assert.equal(applied.length, 300);
    assert.equal(fixed.match(/kind: PodDisruptionBudget/g)?.length, 100);
    assert.ok(analyses <= 4, `${analyses} analyses`);
    const after = parseManifest(URI, fixed);
    const inventory = new Inventory();
    inventory.setFile(after);
    assert.deepEqual(analyzeFile(after, inventory, { rules: only }).map((f) => f.ruleId), []);
  });

  it('works in steps that each parse or analyse at most one document, so a server answers requests in between', () => {
    const analysis = new IncrementalAnalysis();
    const text = Array.from({ length: 60 }, (_, i) => CONFIG(`c${i}`)).join('---\n');
    const steps = fixFileInSteps(URI, text, new Inventory(), { rules: [needsOwner] }, () => true, (file, inventory, options) => analysis.analyzeInSteps(file, inventory, options));
    let analysed = analysis.analysedDocuments;
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next(), pauses++) {
      assert.ok(analysis.analysedDocuments - analysed <= 1, `${analysis.analysedDocuments - analysed} documents analysed in one step`);
      analysed = analysis.analysedDocuments;
    }
    assert.equal(step.value.text.match(/owner: team/g)?.length, 60);
    assert.ok(pauses >= 3 * 60, `${pauses} pauses: each document analysed twice and parsed once again`);
  });

  it('fixes that answer the same need are applied one at a time: two workloads of one app get one PDB', () => {
    const workload = (name: string) => manifests.deployment({ name, app: 'shop', spec: '  replicas: 3\n' });
    const text = `${workload('shop-a')}---\n${workload('shop-b')}`;
    const { text: fixed, applied } = fixFile(URI, text, new Inventory(), { rules: RULES.filter((r) => ['pdb-missing', 'pdb-multiple'].includes(r.meta.id)) });
    assert.deepEqual(applied, ['pdb-missing'], 'the first PDB covers both: a second would make the eviction API refuse both');
    assert.equal(fixed.match(/kind: PodDisruptionBudget/g)?.length, 1);
  });

  it('after a batch is refused, the next try applies the fixes written for the text as it is (the server\'s incremental analysis of the refused text re-armed them, and they came out empty)', () => {
    const workload = (name: string) => manifests.deployment({ name, app: 'shop', spec: '  replicas: 3\n' });
    const text = `${workload('shop-a')}---\n${workload('shop-b')}`;
    const rules = RULES.filter((r) => ['pdb-missing', 'pdb-multiple', 'replicas-not-spread'].includes(r.meta.id));
    const analysis = new IncrementalAnalysis();
    const inventory = new Inventory();
    inventory.setFile(parseManifest(URI, text));
    analysis.analyze(parseManifest(URI, text), inventory, { rules });
    const fork = analysis.forkFor(URI, inventory.scratch());
    const { applied } = runSteps(fixFileInSteps(URI, text, inventory.scratch(), { rules }, () => true, (file, inv, options) => fork.analyzeInSteps(file, inv, options)));
    assert.deepEqual(applied.sort(), ['pdb-missing', 'replicas-not-spread', 'replicas-not-spread']);
  });

  it('removeField-based fixes converge too', () => {
    const noData = rule('no-data', (o) => o.data !== undefined, (_, r) => preferred('drop data', removeField(r, ['data'])));
    const { text } = fixFile(URI, CONFIG('a', 'data:\n  x: y\n'), new Inventory(), { rules: [noData] });
    assert.equal(text, CONFIG('a'));
  });

  it('does not apply a fix whose finding survives it under a growing message (it would be applied round after round)', () => {
    let count = 0;
    const growing = rule(
      'growing',
      (o) => ((count = Object.keys(o.data ?? {}).length), true),
      (_, r) => preferred('add a key', setField(r, ['data', `k${count}`], 'x')),
    );
    const counting: Rule = { ...growing, check: (context) => growing.check({ ...context, report: (f) => context.report({ ...f, message: `${f.message} (${count} keys)` }) }) };
    const { text, applied } = fixFile(URI, CONFIG('a'), new Inventory(), { rules: [counting] });
    assert.deepEqual(applied, []);
    assert.equal(text, CONFIG('a'));
  });

  it('a pod template with an empty `labels:` gets no spread fix (it would select labels the pods do not carry, 499 times)', () => {
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      'spec:',
      '  replicas: 3',
      '  selector:',
      '    matchLabels:',
      '      app: web',
      '  template:',
      '    metadata:',
      '      labels:',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          image: nginx',
      '',
    ].join('\n');
    const { text: fixed, applied } = fixFile(URI, text, new Inventory());
    assert.ok(!applied.includes('replicas-not-spread'), applied.join(', '));
    assert.equal(fixed.match(/topologySpreadConstraints/g)?.length ?? 0, 0);
    assert.ok(fixed.split('\n').length < 40, `${fixed.split('\n').length} lines`);
  });

  it('still applies the next piece of a finding whose message shrinks (sessions: one missing piece at a time)', () => {
    const text = manifests.deployment({ name: 'calls', spec: '  replicas: 2\n', podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n' });
    const { applied } = fixFile(URI, text, new Inventory(), {}, (f) => f.ruleId === 'sessions-lost-on-eviction');
    assert.ok(applied.filter((id) => id === 'sessions-lost-on-eviction').length >= 2, applied.join(', '));
  });
});

describe('severalFixable', () => {
  /** The findings of needs-owner (fixable where the name is not `x…`) and needs-tier on ConfigMaps named `names`, and how many fixes were written. */
  function findingsOn(names: string[]) {
    let written = 0;
    // Its fixes are written when asked for, as the rules' are.
    const owner: Rule = {
      meta: { id: 'needs-owner', severity: 'warning', scenario: 'input', title: 'needs-owner', description: 'needs-owner' },
      check(context) {
        for (const resource of context.resources) {
          const fixes = () => {
            written++;
            const fix = resource.name!.startsWith('x') ? undefined : preferred('add owner', setField(resource, ['metadata', 'labels', 'owner'], 'team'));
            return fix ? [fix] : [];
          };
          if (resource.kind === 'ConfigMap' && !resource.object.metadata?.labels?.owner) context.report({ resource, message: `needs-owner on ${resource.name}`, fixes });
        }
      },
    };
    const inventory = new Inventory();
    const file = parseManifest(URI, names.map((n) => CONFIG(n)).join('---\n'));
    inventory.setFile(file);
    const findings = analyzeFile(file, inventory, { rules: [owner, needsTier] });
    return { findings, written: () => written };
  }

  it('holds when two findings of the rule have a preferred fix, writing no more fixes than it takes to tell', () => {
    const { findings, written } = findingsOn(['a', 'b', 'c', 'd']);
    assert.equal(severalFixable(findings, 'needs-owner'), true);
    assert.equal(written(), 2, 'stops at the second');
  });

  it('does not hold for one fixable finding of the rule, whatever the other rules and its unfixable findings', () => {
    assert.equal(severalFixable(findingsOn(['a', 'xb', 'xc']).findings, 'needs-owner'), false);
    assert.equal(severalFixable(findingsOn(['xa', 'b', 'xc', 'd']).findings, 'needs-owner'), true);
    assert.equal(severalFixable(findingsOn(['a']).findings, 'needs-tier'), false);
    assert.equal(severalFixable(findingsOn(['a', 'b']).findings, 'needs-tier'), true);
  });
});

describe('breaksParsing', () => {
  const file = parseManifest(URI, `${CONFIG('a', 'data:\n  x: "1"\n')}---\n${CONFIG('b')}---\n${CONFIG('c')}`);
  const at = (text: string) => file.text.indexOf(text);

  it('tells an edit that makes a document stop parsing (an editor\'s quick fix is offered on its own, unchecked by a round)', () => {
    assert.equal(breaksParsing(file, [{ start: at('  x: "1"'), end: at('  x: "1"'), text: '    y: 2\n' }]), true, 'a key indented past its siblings');
    assert.equal(breaksParsing(file, [{ start: at('name: b'), end: at('name: b') + 'name: b'.length, text: 'name: [b' }]), true, 'an unclosed flow sequence');
  });

  it('passes an edit that keeps every document parsing, one that adds a document, and none', () => {
    assert.equal(breaksParsing(file, [{ start: at('  x: "1"'), end: at('  x: "1"'), text: '  y: "2"\n' }]), false);
    assert.equal(breaksParsing(file, [{ start: file.text.length, end: file.text.length, text: '---\nkind: PodDisruptionBudget\n' }]), false);
    assert.equal(breaksParsing(file, []), false);
  });

  it('does not count against an edit what was broken before it', () => {
    const broken = parseManifest(URI, `${CONFIG('a')}---\nkind: [\n---\n${CONFIG('c')}`);
    const name = broken.text.indexOf('name: c');
    assert.equal(breaksParsing(broken, [{ start: name, end: name + 'name: c'.length, text: 'name: d' }]), false);
    const alone = parseManifest(URI, 'kind: [\nname: c\n');
    assert.equal(breaksParsing(alone, [{ start: alone.text.indexOf('c'), end: alone.text.indexOf('c') + 1, text: 'd' }]), false, 'an edit of the broken document itself');
  });
});
