import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { diagnosticsReusing, MAX_DIAGNOSTICS, notShownDiagnostic, shownFindings } from '../../server/src/language/published-diagnostics';
import type { Finding } from '../../server/src/rules/types';

const finding = (line: number): Finding => ({ ruleId: 'single-replica', severity: 'warning', message: `at ${line}`, uri: 'file:///a.yaml', range: { start: { line, character: 0 }, end: { line, character: 1 } }, resource: null, related: [] }) as unknown as Finding;

/** Counts the diagnostics it makes, each a new object. */
function maker(): { made: Finding[]; toNew: (f: Finding) => Diagnostic } {
  const made: Finding[] = [];
  return { made, toNew: (f) => (made.push(f), { range: f.range!, message: f.message }) };
}

describe('diagnosticsReusing', () => {
  it('makes a diagnostic for every finding when nothing was published', () => {
    const findings = [finding(1), finding(2)];
    const { made, toNew } = maker();
    const diagnostics = diagnosticsReusing(undefined, findings, toNew);
    assert.deepEqual(made, findings);
    assert.deepEqual(diagnostics.map((d) => d.message), ['at 1', 'at 2']);
  });

  it('sends the diagnostic sent before for each finding sent before, wherever an edit moved it, and makes one for each new finding', () => {
    const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(finding);
    const first = maker();
    const before = { findings: [a, b, c, d, e], diagnostics: diagnosticsReusing(undefined, [a, b, c, d, e], first.toNew) };
    const added = finding(9);
    // c is gone, d moved ahead of b, and a new finding sits among them.
    const findings = [a, d, added, b, e];
    const { made, toNew } = maker();
    const diagnostics = diagnosticsReusing(before, findings, toNew);
    assert.deepEqual(made, [added]);
    const sent = new Map(before.findings.map((f, i) => [f, before.diagnostics[i]]));
    findings.forEach((f, i) => (f === added ? assert.equal(diagnostics[i].message, 'at 9') : assert.equal(diagnostics[i], sent.get(f))));
  });

  it('keeps the places of findings kept at both ends when findings are added or removed between them', () => {
    const [a, b, c] = [1, 2, 3].map(finding);
    const before = { findings: [a, b, c], diagnostics: diagnosticsReusing(undefined, [a, b, c], maker().toNew) };
    const fewer = diagnosticsReusing(before, [a, c], maker().toNew);
    assert.deepEqual(fewer, [before.diagnostics[0], before.diagnostics[2]]);
    const more = diagnosticsReusing(before, [a, b, finding(4), finding(5), c], maker().toNew);
    assert.equal(more[0], before.diagnostics[0]);
    assert.equal(more[1], before.diagnostics[1]);
    assert.equal(more[4], before.diagnostics[2]);
    assert.deepEqual(more.slice(2, 4).map((d) => d.message), ['at 4', 'at 5']);
  });
});

describe('shownFindings', () => {
  it('shows every finding of a document up to the most it is sent, and past that the most severe, in their order in the file', () => {
    const few = [finding(1), finding(2)];
    assert.equal(shownFindings(few), few);
    const many = Array.from({ length: MAX_DIAGNOSTICS + 10 }, (_, i) => ({ ...finding(i), severity: i % 1000 === 999 ? 'error' : i % 2 ? 'info' : 'warning' }) as Finding);
    const shown = shownFindings(many);
    assert.equal(shown.length, MAX_DIAGNOSTICS);
    assert.equal(shown.filter((f) => f.severity === 'error').length, 10, 'every error');
    assert.equal(shown.filter((f) => f.severity === 'warning').length, many.filter((f) => f.severity === 'warning').length, 'every warning');
    assert.ok(shown.every((f, i) => i === 0 || f.range!.start.line > shown[i - 1].range!.start.line), 'in the order of the file');
    assert.equal(notShownDiagnostic(many.length).message, '10 more findings in this file are not shown: the editor shows the 10,000 most severe of its 10,010. `kube-resilience check` lists every one.');
  });
});
