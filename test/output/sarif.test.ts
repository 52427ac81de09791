import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { toSarif } from '../../server/src/output/sarif';
import { RULES } from '../../server/src/rules/index';
import type { Finding } from '../../server/src/rules/types';
import { codeScanningProblems, schemaProblems } from './sarif-checks';

const range = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 10 } });
const finding = (uri: string | null, line: number, overrides: Partial<Finding> = {}): Finding => ({
  ruleId: 'single-replica',
  severity: 'warning',
  message: 'Deployment shop/cart runs 1 replica: a node drain or crash takes it down.',
  uri,
  range: uri ? range(line) : null,
  resource: { kind: 'Deployment', namespace: 'shop', name: 'cart' },
  fixes: [],
  related: [],
  ...overrides,
});
const root = resolve('/repo');
const results = (log: any) => log.runs[0].results;

describe('SARIF for code scanning', () => {
  it('conforms to the SARIF 2.1.0 schema and to what code scanning accepts', () => {
    const log = toSarif([finding(join(root, 'k8s', 'app.yaml'), 3), finding(null, 0, { ruleId: 'gpu-pool-untainted', resource: { kind: 'Node', namespace: '', name: 'gpu-1' } })], RULES, '1.2.3', { root });
    assert.deepEqual(schemaProblems(log), []);
    assert.deepEqual(codeScanningProblems(log), []);
  });

  it('a result that is no rule\'s (a chart that did not render) names a descriptor of its run, as code scanning asks', () => {
    const log: any = toSarif([finding(join(root, 'chart', 'Chart.yaml'), 0, { ruleId: 'helm-render', severity: 'error', message: 'helm template failed: …', resource: null })], RULES, '1.2.3', { root });
    assert.deepEqual(schemaProblems(log), []);
    assert.deepEqual(codeScanningProblems(log), []);
    const descriptor = log.runs[0].tool.driver.rules[results(log)[0].ruleIndex];
    assert.equal(descriptor.id, 'helm-render');
    assert.match(descriptor.shortDescription.text, /could not be rendered/);
  });

  it('names files relative to %SRCROOT% whichever way the path was typed', () => {
    for (const typed of [join(root, 'k8s', 'app.yaml'), join(root, 'k8s', '..', 'k8s', 'app.yaml')]) {
      const location = results(toSarif([finding(typed, 3)], RULES, '1', { root })).at(0).locations[0].physicalLocation.artifactLocation;
      assert.deepEqual(location, { uri: 'k8s/app.yaml', uriBaseId: '%SRCROOT%' });
    }
    const log: any = toSarif([], RULES, '1', { root });
    assert.equal(log.runs[0].originalUriBaseIds['%SRCROOT%'].uri, 'file:///repo/');
  });

  it('names a file whose first segment holds a colon with ./ before it (app:v1.yaml would read as a scheme), and keeps a backslash of a name', () => {
    const uriOf = (path: string) => results(toSarif([finding(path, 1)], RULES, '1', { root }))[0].locations[0].physicalLocation.artifactLocation.uri;
    assert.equal(uriOf(join(root, 'app:v1.yaml')), './app:v1.yaml');
    assert.equal(new URL(uriOf(join(root, 'app:v1.yaml')), 'file:///repo/').href, 'file:///repo/app:v1.yaml');
    assert.equal(uriOf(join(root, 'k8s', 'app:v1.yaml')), 'k8s/app:v1.yaml');
    if (sep === '/') assert.equal(uriOf(join(root, 'bs', 'a\\b.yaml')), 'bs/a%5Cb.yaml');
  });

  it('names a file below the root relative to it when a link leads there: the root named through a link, or the file', () => {
    const real = mkdtempSync(join(tmpdir(), 'kr-sarif-'));
    const link = `${real}-link`;
    symlinkSync(real, link);
    try {
      writeFileSync(join(real, 'a.yaml'), 'kind: ConfigMap\n');
      for (const [file, sarifRoot] of [[join(real, 'a.yaml'), link], [join(link, 'a.yaml'), real]]) {
        const location = results(toSarif([finding(file, 0)], RULES, '1', { root: sarifRoot }))[0].locations[0].physicalLocation.artifactLocation;
        assert.deepEqual(location, { uri: 'a.yaml', uriBaseId: '%SRCROOT%' }, `${file} under ${sarifRoot}`);
      }
      // A rendered finding's unit is named the same way (it was `../real/chart` beside a file named `chart/…`).
      mkdirSync(join(real, 'chart'));
      const rendered = results(toSarif([finding(join(real, 'chart', 'templates', 'a.yaml'), 0, { rendered: { tool: 'helm', unit: join(real, 'chart') } })], RULES, '1', { root: link }))[0];
      assert.equal(rendered.properties.rendered.unit, 'chart');
      assert.equal(results(toSarif([finding(join(real, 'a.yaml'), 0, { rendered: { tool: 'helm', unit: real } })], RULES, '1', { root: link }))[0].properties.rendered.unit, '.');
    } finally {
      rmSync(link, { force: true });
      rmSync(real, { recursive: true, force: true });
    }
  });

  it('says its columns count UTF-16 code units, as its regions do (SARIF counts code points unless told)', () => {
    const log: any = toSarif([finding(join(root, 'a.json'), 0)], RULES, '1', { root });
    assert.equal(log.runs[0].columnKind, 'utf16CodeUnits');
  });

  it('names a file outside the root by its absolute file URI, and standard input as stdin', () => {
    const outside = results(toSarif([finding('/tmp/x.yaml', 1)], RULES, '1', { root }))[0].locations[0].physicalLocation.artifactLocation;
    assert.deepEqual(outside, { uri: 'file:///tmp/x.yaml' });
    const stdin = results(toSarif([finding('-', 1)], RULES, '1', { root }))[0].locations[0].physicalLocation.artifactLocation;
    assert.deepEqual(stdin, { uri: 'stdin' });
  });

  it('gives every rule help in text and Markdown', () => {
    const log: any = toSarif([], RULES, '1', { root });
    for (const rule of log.runs[0].tool.driver.rules) {
      assert.ok(rule.help.text.length > 20, rule.id);
      assert.match(rule.help.markdown, /^\*\*.+\*\*\n\n/, rule.id);
      // An uploaded log links no file of the machine that made it (dead there, and it names the runner's folders).
      assert.doesNotMatch(JSON.stringify(rule), /file:\/\//, rule.id);
    }
  });

  it('keeps a finding\'s fingerprint when its line moves and its message changes, and tells two findings apart', () => {
    const file = join(root, 'app.yaml');
    const before = results(toSarif([finding(file, 3)], RULES, '1', { root }))[0].partialFingerprints;
    const moved = results(toSarif([finding(file, 40, { message: 'Deployment shop/cart runs 1 replica (was 2).' })], RULES, '1', { root }))[0].partialFingerprints;
    assert.deepEqual(moved, before);
    const other = results(toSarif([finding(file, 3, { resource: { kind: 'Deployment', namespace: 'shop', name: 'web' } })], RULES, '1', { root }))[0].partialFingerprints;
    assert.notDeepEqual(other, before);
    const twice: any[] = results(toSarif([finding(file, 3), finding(file, 9)], RULES, '1', { root }));
    assert.notDeepEqual(twice[0].partialFingerprints, twice[1].partialFingerprints);
  });

  it('keeps a rendered finding\'s fingerprint when the render names its resource anew (Helm\'s randAlphaNum in a test pod\'s name)', () => {
    const file = join(root, 'chart', 'templates', 'test.yaml');
    const rendered = { tool: 'helm' as const, unit: join(root, 'chart') };
    const fingerprint = (name: string) => results(toSarif([finding(file, 3, { rendered, resource: { kind: 'Pod', namespace: 'default', name } })], RULES, '1', { root }))[0].partialFingerprints;
    assert.deepEqual(fingerprint('release-podinfo-grpc-test-x7k2p'), fingerprint('release-podinfo-grpc-test-q9m4z'));
  });

  it('puts cluster findings in logical locations with a kind', () => {
    const result = results(toSarif([finding(null, 0)], RULES, '1', { root }))[0];
    assert.deepEqual(result.locations, [{ logicalLocations: [{ kind: 'resource', name: 'cart', fullyQualifiedName: 'Deployment/shop/cart' }] }]);
  });

  it('the checks catch a broken log', () => {
    const log: any = toSarif([finding(join(root, 'app.yaml'), 3)], RULES, '1', { root });
    delete log.runs[0].tool.driver.name;
    log.runs[0].results[0].locations[0].physicalLocation.artifactLocation = { uri: '../app.yaml' };
    assert.ok(schemaProblems(log).some((p) => p.includes("must have required property 'name'")));
    assert.ok(codeScanningProblems(log).some((p) => p.includes('relative to %SRCROOT%')));
  });
});
