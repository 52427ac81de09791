import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { toSourceCodeAction } from '../../server/src/language/convert';

describe('toSourceCodeAction: a fix of a rendered finding as a code action', () => {
  const diagnostic = { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 15 } }, message: 'runs 1 pod', severity: DiagnosticSeverity.Warning };
  const readText = () => '# values\nreplicaCount: 1\n';
  const edits = { edits: [{ path: '/chart/values.yaml', against: readText(), edits: [{ start: 23, end: 24, text: '2' }] }], creates: [] };

  it('a safe preferred fix is the preferred action, its edit placed in the source file', () => {
    const action = toSourceCodeAction({ title: 'Set replicaCount: 2', preferred: true, edits }, diagnostic, readText)!;
    assert.equal(action.isPreferred, true);
    assert.equal(action.title, 'Set replicaCount: 2');
    assert.deepEqual(action.edit!.documentChanges, [{ textDocument: { uri: 'file:///chart/values.yaml', version: null }, edits: [{ range: { start: { line: 1, character: 14 }, end: { line: 1, character: 15 } }, newText: '2' }] }]);
  });

  it('an edit of a file open in the editor names the version it was written for (refused once typed into), of a closed one none', () => {
    const action = toSourceCodeAction({ title: 'Set replicaCount: 2', preferred: true, edits }, diagnostic, readText, (path) => (path === '/chart/values.yaml' ? { uri: 'file:///chart/values.yaml', version: 7 } : undefined))!;
    assert.equal((action.edit!.documentChanges![0] as { textDocument: { version: number | null } }).textDocument.version, 7);
    const closed = toSourceCodeAction({ title: 'Set replicaCount: 2', preferred: true, edits }, diagnostic, readText)!;
    assert.equal((closed.edit!.documentChanges![0] as { textDocument: { version: number | null } }).textDocument.version, null);
  });

  it('an edit of an open file is named by the uri the editor opened it under, which may encode the path otherwise (a folder `podinfo@v2` as `podinfo%40v2`: the edit named another uri, with no version)', () => {
    const atEdits = { edits: [{ ...edits.edits[0], path: '/charts/podinfo@v2/values.yaml' }], creates: [] };
    const opened = { uri: 'file:///charts/podinfo%40v2/values.yaml', version: 2 };
    const action = toSourceCodeAction({ title: 'Set replicaCount: 2', preferred: true, edits: atEdits }, diagnostic, readText, (path) => (path === '/charts/podinfo@v2/values.yaml' ? opened : undefined))!;
    assert.deepEqual((action.edit!.documentChanges![0] as { textDocument: unknown }).textDocument, opened);
  });

  it('an unsafe fix is offered saying what it changes, never as the preferred action', () => {
    const action = toSourceCodeAction({ title: 'Set replicaCount: 2', preferred: true, unsafe: 'a second redis primary', edits }, diagnostic, readText)!;
    assert.equal(action.isPreferred, false);
    assert.equal(action.title, 'Set replicaCount: 2 (unsafe: a second redis primary)');
  });
});
