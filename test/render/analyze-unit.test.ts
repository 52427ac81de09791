import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeRenderedUnit, analyzeRenderedUnitInSteps, mergeUnitFindings } from '../../server/src/render/analyze-unit';
import type { RenderedUnit } from '../../server/src/render/types';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { RULES } from '../../server/src/rules/index';
import type { Rule } from '../../server/src/rules/types';

/** A unit of `count` Deployments of one replica each, every field placed on the first line of one base file. */
function unitOf(count: number, root = '/project/overlay', prefix = '', names = Array.from({ length: count }, (_, i) => `${prefix}web-${i}`)): RenderedUnit {
  const deployment = (i: number) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${names[i]}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: { app: web-${i} }\n  template:\n    metadata:\n      labels: { app: web-${i} }\n    spec:\n      containers:\n        - name: web\n          image: example/web:1\n`;
  return {
    tool: 'kustomize',
    root,
    text: Array.from({ length: count }, (_, i) => deployment(i)).join('---\n'),
    problems: [],
    mapper: { locate: () => [{ path: '/project/base/deployment.yaml', line: 0 }], translateFix: () => undefined },
  };
}

const readText = () => 'kind: Deployment\n';

describe('a rendered unit analysed in steps', () => {
  it('runs the rules one document at a time, pausing after each: a server answers requests in between', () => {
    const seen: number[] = [];
    const spy: Rule = { meta: { ...RULES[0].meta, id: 'spy' }, check: (context) => void seen.push(context.documents.length) };
    const steps = analyzeRenderedUnitInSteps(unitOf(5), { readText, rules: [spy] });
    const analysedAtPause: number[] = [];
    for (let step = steps.next(); !step.done; step = steps.next()) analysedAtPause.push(seen.length);
    assert.deepEqual(seen, [1, 1, 1, 1, 1], 'each run of the rules saw one document');
    for (let i = 1; i < analysedAtPause.length; i++) assert.ok(analysedAtPause[i] - analysedAtPause[i - 1] <= 1, `pause ${i}: ${analysedAtPause.join(',')}`);
  });

  it('puts the resources that name no namespace in the namespace the unit is installed into (helm --namespace)', () => {
    const unit = { ...unitOf(2), namespace: 'shop', text: `${unitOf(1).text}---\n${unitOf(1).text.replace('name: web-0', 'name: pinned\n  namespace: default')}` };
    const single = analyzeRenderedUnit(unit, { readText }).filter((f) => f.ruleId === 'single-replica');
    assert.deepEqual(single.map((f) => `${f.resource?.namespace}/${f.resource?.name}`), ['shop/web-0', 'default/pinned']);
    assert.match(single[0].message, /^Deployment shop\/web-0 runs 1 pod/);
  });

  it('finds what an analysis of the whole stream at once finds', () => {
    const unit = unitOf(40);
    const findings = analyzeRenderedUnit(unit, { readText });
    assert.equal(findings.filter((f) => f.ruleId === 'single-replica').length, 40);
    assert.ok(findings.every((f) => f.uri === '/project/base/deployment.yaml' && f.range!.start.line === 0 && f.rendered.unit === '/project/overlay'));
    assert.match(findings.find((f) => f.ruleId === 'single-replica')!.message, /^Deployment web-0 runs 1 pod: /);
    const file = parseManifest('/project/overlay/rendered.yaml', unit.text);
    const inventory = new Inventory();
    inventory.setFile(file);
    const said = (list: { ruleId: string; resource: { name: string | null } | null; message: string }[]) => list.map((f) => `${f.ruleId} ${f.resource?.name} ${f.message}`).sort();
    assert.deepEqual(said(findings), said(analyzeFile(file, inventory)));
  });
});

describe('findings of rendered units merged by source place', () => {
  const singles = (findings: ReturnType<typeof mergeUnitFindings>) => findings.filter((f) => f.ruleId === 'single-replica').map((f) => f.message.split('. ')[0]);

  it('keeps apart what one root says at one place of different resources (one patch that targets them all)', () => {
    assert.deepEqual(singles(mergeUnitFindings(analyzeRenderedUnit(unitOf(3), { readText }), '/project')), [
      'Deployment web-0 runs 1 pod: one node drain or node failure takes it offline',
      'Deployment web-1 runs 1 pod: one node drain or node failure takes it offline',
      'Deployment web-2 runs 1 pod: one node drain or node failure takes it offline',
    ]);
  });

  it('makes one finding of what several roots say of one resource of a shared base, each root named', () => {
    const findings = [...analyzeRenderedUnit(unitOf(2, '/project/dev', 'dev-'), { readText }), ...analyzeRenderedUnit(unitOf(2, '/project/prod', 'prod-'), { readText })];
    const merged = mergeUnitFindings(findings, '/project').filter((f) => f.ruleId === 'single-replica');
    assert.equal(merged.length, 2);
    merged.forEach((f, i) => assert.match(f.message, new RegExp(`^In dev: Deployment dev-web-${i} runs 1 pod: .* In prod: Deployment prod-web-${i} runs 1 pod: `)));
  });

  it('pairs the resources of the roots by their names without what each root adds to them all (a suffix changes their order)', () => {
    const findings = [...analyzeRenderedUnit(unitOf(2, '/project/dev', '', ['a', 'a-b']), { readText }), ...analyzeRenderedUnit(unitOf(2, '/project/prod', '', ['a-v2', 'a-b-v2']), { readText })];
    const merged = mergeUnitFindings(findings, '/project').filter((f) => f.ruleId === 'single-replica');
    assert.deepEqual(merged.map((f) => /^In dev: Deployment (\S+) .* In prod: Deployment (\S+) /.exec(f.message)!.slice(1)), [['a', 'a-v2'], ['a-b', 'a-b-v2']]);
  });

  it('says each fix not written once, though several findings of the merge say it (one resource rendered twice from one base line)', () => {
    const unit = unitOf(2, '/project/overlay', '', ['web', 'web']);
    const refusing: RenderedUnit = { ...unit, mapper: { ...unit.mapper, translateFix: (_index, _changes, refuse) => (refuse?.('the base is shared'), undefined) } };
    const merged = mergeUnitFindings(analyzeRenderedUnit(refusing, { readText }), '/project').filter((f) => f.ruleId === 'single-replica');
    assert.equal(merged.length, 1, 'one finding for the one place and resource');
    assert.deepEqual(merged[0].unwrittenFixes, [
      { title: 'Run 2 replicas', reason: 'the base is shared' },
      { title: 'Ignore single-replica for Deployment web', reason: 'the base is shared' },
    ]);
  });

  it('writes no fix back for an item of a List of more than 100 (each was worked out on the whole List parsed again: 1,000 items took 87 s), and says why', () => {
    const listOf = (count: number): RenderedUnit => {
      const items = unitOf(count).text.split('---\n').map((deployment) => `${deployment.trimEnd().replace(/^/gm, '    ').replace(/^ {4}apiVersion/, '  - apiVersion')}\n`).join('');
      const translating: RenderedUnit['mapper'] = { locate: () => [{ path: '/project/base/list.yaml', line: 0 }], translateFix: () => ({ edits: [{ path: '/project/base/list.yaml', against: 'x', edits: [{ start: 0, end: 0, text: '#' }] }], creates: [] }) };
      return { ...unitOf(1), text: `apiVersion: v1\nkind: List\nitems:\n${items}`, mapper: translating };
    };
    const fixesOf = (unit: RenderedUnit) => analyzeRenderedUnit(unit, { readText }).filter((f) => f.ruleId === 'single-replica').map((f) => [f.sourceFixes.length, f.unwrittenFixes.map((u) => u.reason)]);
    assert.deepEqual(fixesOf(listOf(100))[99], [2, []]);
    const refused = fixesOf(listOf(101));
    assert.equal(refused.length, 101);
    const [written, reasons] = refused[0] as [number, string[]];
    assert.equal(written, 0);
    assert.ok(reasons.length > 0);
    assert.deepEqual(new Set(reasons), new Set(['it is an item of a List of 101, more than the 100 whose fixes are worked out one by one: render its items as documents of their own']));
  });

  it("offers every root's fix at once when no two edit one file, and else the first root's alone", () => {
    // Each root's fix of a single replica edits the file `edited(root)` names.
    const unitEditing = (root: string, edited: string): RenderedUnit => {
      const unit = unitOf(1, root);
      const edit = { path: edited, edits: [{ start: 0, end: 0, text: '# fixed\n' }], against: '' };
      return { ...unit, mapper: { ...unit.mapper, translateFix: () => ({ edits: [edit], creates: [], title: `edit ${edited}` }) } };
    };
    const preferred = (units: RenderedUnit[]) => {
      const merged = mergeUnitFindings(units.flatMap((unit) => analyzeRenderedUnit(unit, { readText })), '/project').find((f) => f.ruleId === 'single-replica')!;
      return merged.sourceFixes.filter((fix) => fix.preferred).map((fix) => fix.edits.edits.map((e) => e.path));
    };
    assert.deepEqual(preferred([unitEditing('/project/dev', '/project/dev/patch.yaml'), unitEditing('/project/prod', '/project/prod/patch.yaml')]), [['/project/dev/patch.yaml', '/project/prod/patch.yaml']]);
    // Two edits of one text, each computed on it alone, would not make one sure text.
    assert.deepEqual(preferred([unitEditing('/project/dev', '/project/shared/patch.yaml'), unitEditing('/project/prod', '/project/shared/patch.yaml')]), [['/project/shared/patch.yaml']]);
  });
});
