import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toText } from '../../server/src/output/text';
import type { Finding } from '../../server/src/rules/types';

const HOSTILE = 'x\u001b]0;PWNED\u0007\u001b[2J\u001b[31mred\r\nINJECTED\u202eexe.jpg';

/** A finding of single-replica on line 10 of a chart's template, about the Deployment `name`. */
function singleReplica(name: string, message: string): Finding {
  return {
    ruleId: 'single-replica',
    severity: 'warning',
    message,
    uri: '/chart/templates/deployment.yaml',
    range: { start: { line: 9, character: 2 }, end: { line: 9, character: 10 } },
    resource: { kind: 'Deployment', namespace: 'shop', name },
    related: [],
    fixes: [],
  };
}

/** The finding as its chart rendered it, with the fixes it could not write. */
function rendered(finding: Finding, unwrittenFixes: { title: string; reason: string }[]) {
  return { ...finding, rendered: { tool: 'helm' as const, unit: '/chart' }, sourceFixes: [], unwrittenFixes };
}

describe('toText: the report for people', () => {
  it('writes no terminal escape, fake line or reordering control that names in files and clusters bring (they set the title, cleared the screen)', () => {
    const finding: Finding = {
      ruleId: 'single-replica',
      severity: 'warning',
      message: `Deployment shop/${HOSTILE} runs 1 pod: one node drain takes it offline.`,
      uri: `/work/${HOSTILE}.yaml`,
      range: null,
      resource: { kind: 'Deployment', namespace: 'shop', name: HOSTILE },
      related: [],
      fixes: [],
    };
    const text = toText([finding], 1, { colour: false, verbose: true });
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.equal(text.split('\n').filter((line) => line.includes('INJECTED')).length, 2, 'the file name and the finding, each on its own line');
    // Each written as its escape: the name can be told from another and looked for.
    assert.ok(text.includes('Deployment shop/x\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred\\r\\nINJECTED\\u202eexe.jpg runs 1 pod'), text);
  });

  it('says under --verbose why a rendered finding\'s fix is not written, its title\'s names without their terminal escapes too', () => {
    const finding = rendered(singleReplica(HOSTILE, 'Deployment web runs 1 pod: one node drain takes it offline.'), [{ title: `Ignore single-replica for Deployment ${HOSTILE}`, reason: 'values key replicaCount is set with --set' }]);
    const verbose = toText([finding], 1, { colour: false, verbose: true });
    assert.doesNotMatch(verbose, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.ok(verbose.includes('Not written (Ignore single-replica for Deployment x\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred\\r\\nINJECTED\\u202eexe.jpg): values key replicaCount is set with --set.'), verbose);
    assert.doesNotMatch(toText([finding], 1, { colour: false }), /Not written/, 'only under --verbose');
  });

  it('under --verbose, a finding with no fix left unwritten ends with its details; one with some has a line for each, in order, wrapped', () => {
    const finding = singleReplica('web', 'Deployment web runs 1 pod: one node drain takes it offline. Run 2 or more replicas.');
    const report = (lines: string[]) => ['/chart/templates/deployment.yaml', ...lines, '', '1 finding (1 warning) in 1 file'].join('\n');
    const plain = report(['  10:3     warning Deployment web runs 1 pod: one node drain takes it offline.  single-replica', '                   Run 2 or more replicas.']);
    assert.equal(toText([finding], 1, { colour: false, verbose: true }), plain, 'a finding of a file');
    assert.equal(toText([rendered(finding, [])], 1, { colour: false, verbose: true }), plain, 'a rendered finding whose fixes are all written');
    const unwritten = rendered(finding, [
      { title: 'Run 2 replicas', reason: 'values key replicaCount is set with --set' },
      { title: 'Ignore single-replica for Deployment web', reason: 'the template has no comment line to hold it' },
    ]);
    assert.equal(
      toText([unwritten], 1, { colour: false, verbose: true, width: 80 }),
      report([
        '  10:3     warning Deployment web runs 1 pod: one node drain takes it offline.',
        '                   single-replica',
        '                   Run 2 or more replicas.',
        '                   Not written (Run 2 replicas): values key replicaCount is set',
        '                   with --set.',
        '                   Not written (Ignore single-replica for Deployment web): the',
        '                   template has no comment line to hold it.',
      ]),
    );
  });

  it('wraps messages to the width given: a place wider than its column (a cluster resource\'s path) goes on a line of its own, so that the message starts where the wrap counted', () => {
    const finding = (range: Finding['range'], name: string): Finding => ({
      ruleId: 'single-replica',
      severity: 'warning',
      message: `Deployment ${name} runs 1 pod: one node drain or crash takes it offline until it is scheduled again somewhere else.`,
      uri: range ? '/work/app.yaml' : null,
      range,
      resource: { kind: 'Deployment', namespace: 'default', name },
      related: [],
      fixes: [],
    });
    const findings = [finding(null, 'admin-console'), finding({ start: { line: 12344, character: 122 }, end: { line: 12344, character: 130 } }, 'web')];
    const text = toText(findings, 1, { colour: false, width: 60 });
    for (const line of text.split('\n')) assert.ok(line.length <= 60, `${line.length}: ${line}`);
    assert.match(text, /^ {2}Deployment\/default\/admin-console\n {11}warning Deployment admin-console runs 1 pod/m);
    assert.match(text, /^ {2}12345:123\n {11}warning Deployment web/m);
    assert.match(toText(findings, 1, { colour: false }), /^ {2}Deployment\/default\/admin-console warning Deployment admin-console runs 1 pod/m, 'one line per finding where nothing is wrapped');
  });

  it("lists a file's findings by line, whatever order they came in (a values file gathers several renders' findings)", () => {
    const at = (line: number, name: string): Finding => ({
      ruleId: 'replicas-not-spread',
      severity: 'warning',
      message: `Deployment ${name}: all 3 pods may run on one node and go down with it.`,
      uri: 'values.yaml',
      range: { start: { line, character: 2 }, end: { line, character: 10 } },
      resource: { kind: 'Deployment', namespace: 'default', name },
      related: [],
      fixes: [],
    });
    const text = toText([at(3, 'backend'), at(1, 'frontend')], 1, { colour: false, verbose: false });
    assert.deepEqual(text.split('\n').filter((line) => /^\s+\d+:\d+/.test(line)).map((line) => line.trim().split(/\s+/)[0]), ['2:3', '4:3']);
  });
});
