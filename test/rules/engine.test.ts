import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../server/src/fixes/edit';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile, ownFixesOf } from '../../server/src/rules/engine';
import { RULES } from '../../server/src/rules/index';
import type { Finding, Rule } from '../../server/src/rules/types';
import type { TextEdit } from '../../server/src/fixes/edit';

/** A rule for these tests: one warning per Deployment, on `spec.replicas`. */
const countsReplicas: Rule = {
  meta: { id: 'counts-replicas', severity: 'warning', scenario: 'involuntary-disruption', title: 't', description: 'd' },
  check({ resources, report }) {
    for (const resource of resources) {
      if (resource.kind === 'Deployment') report({ resource, path: ['spec', 'replicas'], message: `${resource.name} has ${resource.object.spec?.replicas} replicas` });
    }
  },
};

const throws: Rule = {
  meta: { id: 'throws', severity: 'error', scenario: 'input', title: 't', description: 'd' },
  check() {
    throw new Error('odd input');
  },
};

const deployment = (name: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}${extra}
spec:
  replicas: 1
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: app
          image: nginx
`;

function analyse(text: string, options: Parameters<typeof analyzeFile>[2] = {}, uri = 'file:///engine.yaml'): Finding[] {
  const inventory = new Inventory();
  const file = parseManifest(uri, text);
  inventory.setFile(file);
  return analyzeFile(file, inventory, { rules: [countsReplicas], ...options });
}

describe('analyzeFile', () => {
  it('turns a report into a finding with range, severity, resource and the two ignore actions', () => {
    const [finding] = analyse(deployment('web'));
    assert.equal(finding.ruleId, 'counts-replicas');
    assert.equal(finding.severity, 'warning');
    assert.equal(finding.message, 'web has 1 replicas');
    assert.equal(finding.uri, 'file:///engine.yaml');
    assert.deepEqual(finding.range, { start: { line: 5, character: 2 }, end: { line: 5, character: 10 } });
    assert.deepEqual(finding.resource, { kind: 'Deployment', name: 'web', namespace: 'default' });
    assert.deepEqual(finding.fixes.map((f) => f.title), ['Ignore counts-replicas for Deployment web', 'Ignore counts-replicas here']);
    assert.ok(finding.fixes.every((f) => !f.preferred), 'ignoring is never the preferred fix');
  });

  it('keeps at most twenty related locations of a finding, the last saying how many more there were', () => {
    const relatesAll: Rule = {
      ...countsReplicas,
      check({ resources, report }) {
        for (const resource of resources) report({ resource, path: ['spec', 'replicas'], message: 'all', related: resources.map((other) => ({ resource: other, message: `also ${other.name}` })) });
      },
    };
    const many = Array.from({ length: 25 }, (_, i) => deployment(`web-${i}`)).join('---\n');
    const related = analyse(many, { rules: [relatesAll] })[0].related;
    assert.deepEqual(related.map((r) => r.message), [...Array.from({ length: 19 }, (_, i) => `Deployment web-${i}: also web-${i}`), 'Deployment web-19: also web-19 (and 5 more)']);
    assert.equal(analyse(Array.from({ length: 20 }, (_, i) => deployment(`web-${i}`)).join('---\n'), { rules: [relatesAll] })[0].related.length, 20, 'twenty are kept as they are');
  });

  it('overrides severities per rule, and `off` turns a rule off', () => {
    assert.equal(analyse(deployment('web'), { severities: { 'counts-replicas': 'error' } })[0].severity, 'error');
    assert.equal(analyse(deployment('web'), { severities: { 'counts-replicas': 'hint' } })[0].severity, 'hint');
    assert.deepEqual(analyse(deployment('web'), { severities: { 'counts-replicas': 'off' } }), []);
    assert.equal(analyse(deployment('web'), { severities: { 'another-rule': 'off' } }).length, 1);
  });

  it('a rule that throws becomes a hint and the other rules still run', () => {
    const findings = analyse(deployment('web'), { rules: [throws, countsReplicas] });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.severity]).sort(), [['counts-replicas', 'warning'], ['throws', 'hint']]);
    assert.match(findings.find((f) => f.ruleId === 'throws')!.message, /Internal error in rule throws: odd input/);
  });

  it('sorts findings by position', () => {
    const findings = analyse(`${deployment('b')}---\n${deployment('a')}`);
    assert.deepEqual(findings.map((f) => f.resource!.name), ['b', 'a']);
  });

  it('orders findings at one place by rule id', () => {
    const at = (id: string): Rule => ({ ...countsReplicas, meta: { ...countsReplicas.meta, id } });
    const findings = analyse(deployment('web'), { rules: [at('pdb-missing'), at('pdb-multiple'), at('pdb'), at('a2'), at('a-b'), at('a10')] });
    assert.deepEqual(findings.map((f) => f.ruleId), ['a-b', 'a10', 'a2', 'pdb', 'pdb-missing', 'pdb-multiple']);
  });

  it("every rule's id is lowercase words joined by hyphens (ordered by code units, as localeCompare would)", () => {
    for (const rule of RULES) assert.match(rule.meta.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('a template file gets only the templated-file finding', () => {
    const findings = analyse('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  replicas: 1\n', { rules: RULES });
    assert.deepEqual(findings.map((f) => f.ruleId), ['templated-file']);
  });

  it('a document that does not parse gets one invalid-yaml finding, the others are analysed', () => {
    const findings = analyse(`${deployment('web')}---\napiVersion: v1\nkind: ConfigMap\ndata: [oops\n---\n${deployment('api')}`, { rules: [...RULES.filter((r) => r.meta.id === 'invalid-yaml'), countsReplicas] });
    assert.deepEqual(findings.map((f) => f.ruleId), ['counts-replicas', 'invalid-yaml', 'counts-replicas']);
    assert.match(findings[1].message, /^Document 2 does not parse: /);
  });
});

describe('fixes, written only when asked for', () => {
  /** Offers "Run 2 replicas" and counts how often that fix is written. */
  const raisesReplicas = (written: { count: number }, write: () => TextEdit[] = () => [{ start: 0, end: 0, text: '# raised\n' }]): Rule => ({
    meta: { id: 'raises-replicas', severity: 'warning', scenario: 'involuntary-disruption', title: 't', description: 'd' },
    check({ resources, report }) {
      for (const resource of resources) {
        report({
          resource,
          path: ['spec', 'replicas'],
          message: 'one replica',
          fixes: () => {
            written.count++;
            return [{ title: 'Run 2 replicas', preferred: true, edits: write() }];
          },
        });
      }
    },
  });

  it('are not written while findings become diagnostics, and once when first read', () => {
    const written = { count: 0 };
    const findings = analyse(`${deployment('a')}---\n${deployment('b')}`, { rules: [raisesReplicas(written)] });
    assert.equal(findings.length, 2);
    assert.equal(written.count, 0, 'analysis alone writes no fix');
    assert.deepEqual(findings[0].fixes.map((f) => f.title), ['Run 2 replicas', 'Ignore raises-replicas for Deployment a', 'Ignore raises-replicas here']);
    assert.equal(findings[0].fixes, findings[0].fixes, 'the same list on every read');
    assert.equal(written.count, 1, 'only the finding read, and only once');
    assert.deepEqual(JSON.parse(JSON.stringify(findings[1])).fixes.map((f: { title: string }) => f.title)[0], 'Run 2 replicas', 'a report (JSON) still carries the fixes');
  });

  it("give the rule's own apart from the ignore actions, written once for both", () => {
    const written = { count: 0 };
    const [finding] = analyse(deployment('a'), { rules: [raisesReplicas(written)] });
    const own = ownFixesOf(finding);
    assert.deepEqual(own.map((f) => f.title), ['Run 2 replicas']);
    assert.deepEqual(finding.fixes.map((f) => f.title), ['Run 2 replicas', 'Ignore raises-replicas for Deployment a', 'Ignore raises-replicas here']);
    assert.equal(finding.fixes[0], own[0], 'the same fix in both');
    assert.equal(written.count, 1);
  });

  it('a fix that writes nothing is left out, and one that throws leaves the ignore actions', () => {
    const empty = analyse(deployment('web'), { rules: [raisesReplicas({ count: 0 }, () => [])] })[0];
    assert.deepEqual(empty.fixes.map((f) => f.title), ['Ignore raises-replicas for Deployment web', 'Ignore raises-replicas here']);
    const failing = analyse(deployment('web'), {
      rules: [
        raisesReplicas({ count: 0 }, () => {
          throw new Error('odd input');
        }),
      ],
    })[0];
    assert.deepEqual(failing.fixes.map((f) => f.title), ['Ignore raises-replicas for Deployment web', 'Ignore raises-replicas here']);
  });
});

describe('suppression', () => {
  const cases: { name: string; text: string }[] = [
    { name: 'the annotation on the resource', text: deployment('web', '\n  annotations:\n    kube-resilience/ignore: counts-replicas') },
    { name: 'the annotation among others, comma-separated with spaces', text: deployment('web', '\n  annotations:\n    kube-resilience/ignore: "pdb-missing, counts-replicas"') },
    { name: 'the annotation on the pod template', text: deployment('web').replace('      labels: {app: web}', '      labels: {app: web}\n      annotations:\n        kube-resilience/ignore: counts-replicas') },
    { name: 'the comment on the line above', text: deployment('web').replace('  replicas: 1', '  # kube-resilience-ignore counts-replicas -- reviewed by the SRE team\n  replicas: 1') },
    { name: 'the comment listing several rules', text: deployment('web').replace('  replicas: 1', '  # kube-resilience-ignore pdb-missing counts-replicas\n  replicas: 1') },
  ];
  for (const c of cases) {
    it(`by ${c.name}`, () => assert.deepEqual(analyse(c.text), []));
  }

  const notSuppressing: { name: string; text: string }[] = [
    { name: 'an annotation naming another rule', text: deployment('web', '\n  annotations:\n    kube-resilience/ignore: pdb-missing') },
    { name: 'a comment two lines above', text: deployment('web').replace('  replicas: 1', '  # kube-resilience-ignore counts-replicas\n\n  replicas: 1') },
    { name: 'a comment naming the rule only in its reason', text: deployment('web').replace('  replicas: 1', '  # kube-resilience-ignore pdb-missing -- like counts-replicas\n  replicas: 1') },
    { name: 'the comment below', text: deployment('web').replace('  replicas: 1', '  replicas: 1\n  # kube-resilience-ignore counts-replicas') },
  ];
  for (const c of notSuppressing) {
    it(`not by ${c.name}`, () => assert.equal(analyse(c.text).length, 1));
  }
});

describe('the ignore actions', () => {
  const layouts: { name: string; text: string; uri?: string; actions?: number }[] = [
    { name: 'a block manifest without annotations', text: deployment('web') },
    { name: 'a block manifest with annotations', text: deployment('web', '\n  annotations:\n    owner: team') },
    { name: 'an existing ignore annotation for another rule', text: deployment('web', '\n  annotations:\n    kube-resilience/ignore: pdb-missing') },
    { name: 'an ignore annotation on the pod template', text: deployment('web').replace('      labels: {app: web}', '      labels: {app: web}\n      annotations: {kube-resilience/ignore: pdb-missing}') },
    { name: 'flow metadata', text: deployment('web').replace('metadata:\n  name: web\n', 'metadata: {name: web}\n') },
    { name: 'CRLF', text: deployment('web').replace(/\n/g, '\r\n') },
    { name: 'a middle document', text: `${deployment('a')}---\n${deployment('web')}---\n${deployment('c')}` },
    { name: 'an item of a List', text: `apiVersion: v1\nkind: List\nitems:\n${deployment('web').replace(/^/gm, '  ').replace(/^  (?=\S)/, '- ').trimEnd()}\n` },
    {
      name: 'a JSON file (annotation only: JSON has no comments)',
      uri: 'file:///engine.json',
      actions: 1,
      text: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1 } }, null, 2),
    },
  ];
  for (const layout of layouts) {
    it(`write valid YAML that suppresses the finding: ${layout.name}`, () => {
      const uri = layout.uri ?? 'file:///engine.yaml';
      const findings = analyse(layout.text, {}, uri).filter((f) => f.resource?.name === 'web');
      assert.equal(findings.length, 1);
      const ignores = findings[0].fixes.filter((f) => f.title.startsWith('Ignore'));
      assert.equal(ignores.length, layout.actions ?? 2);
      for (const fix of ignores) {
        const after = applyEdits(layout.text, fix.edits);
        const reparsed = parseManifest(uri, after);
        assert.deepEqual(reparsed.documents.map((d) => d.parsed.error?.message).filter(Boolean), [], `${fix.title} keeps the file valid:\n${after}`);
        assert.equal(reparsed.resources.length, parseManifest(uri, layout.text).resources.length);
        assert.deepEqual(analyse(after, {}, uri).filter((f) => f.resource?.name === 'web'), [], `${fix.title} suppresses the finding:\n${after}`);
        if (layout.text.includes('\r\n')) assert.doesNotMatch(after.replace(/\r\n/g, ''), /\n/, 'CRLF kept');
        if (uri.endsWith('.json')) assert.doesNotThrow(() => JSON.parse(after), 'still JSON');
      }
    });
  }

  it('keeps the other rules an annotation already ignores', () => {
    const text = deployment('web', '\n  annotations:\n    kube-resilience/ignore: pdb-missing');
    const fix = analyse(text)[0].fixes[0];
    assert.match(applyEdits(text, fix.edits), /kube-resilience\/ignore: pdb-missing,counts-replicas/);
  });
});
