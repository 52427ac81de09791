import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeInsideIgnoredDocument } from '../../server/src/manifest/ignored-edit';
import { parseManifest, type ManifestFile } from '../../server/src/manifest/parse';
import { changeBetween } from '../../server/src/manifest/text';

/** A CustomResourceDefinition of `properties` schema fields, each with a description line: about 100 characters a field. */
function crd(properties: number): string {
  const fields = Array.from({ length: properties }, (_, i) => `                field${i}:\n                  type: string\n                  description: The field number ${i} of the spec\n`).join('');
  return `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              properties:\n${fields}`;
}

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n';
const HUGE = `${crd(2000)}---\n${DEPLOYMENT}`;

/** The text with `typed` inserted at the end of the first line that contains `line`. */
function typedAtEndOf(text: string, line: string, typed: string): string {
  const at = text.indexOf('\n', text.indexOf(line));
  return text.slice(0, at) + typed + text.slice(at);
}

const previous = parseManifest('file:///crds.yaml', HUGE);

/** Whether the change from the file's text to `text` lies inside an ignored document. */
function editInsideIgnoredDocument(file: ManifestFile, text: string): boolean {
  return changeInsideIgnoredDocument(file, changeBetween(file.text, text));
}

describe('an edit that may keep the previous parse: inside one indented line of a huge document no rule reads', () => {
  it('holds for a letter typed into a description of a 2,000-field CRD', () => {
    assert.ok(previous.documents[0].text.length > 100_000, 'the CRD is huge');
    assert.equal(editInsideIgnoredDocument(previous, typedAtEndOf(HUGE, 'The field number 1000 ', 'x')), true);
  });

  it('holds for a deleted character and for a replaced word on one line', () => {
    const at = HUGE.indexOf('number 1000 of');
    assert.equal(editInsideIgnoredDocument(previous, HUGE.slice(0, at) + HUGE.slice(at + 1)), true);
    assert.equal(editInsideIgnoredDocument(previous, HUGE.replace('The field number 1500 of the spec', 'The field number 1500 of the widget')), true);
  });

  it('does not hold for an edit that adds or removes a line: lines after it move', () => {
    assert.equal(editInsideIgnoredDocument(previous, typedAtEndOf(HUGE, 'The field number 1000 ', '\n                  format: date')), false);
    const at = HUGE.indexOf('                field1000:');
    assert.equal(editInsideIgnoredDocument(previous, HUGE.slice(0, at) + HUGE.slice(HUGE.indexOf('\n', at) + 1)), false);
  });

  it('does not hold on a top-level line, in the indentation, or on the line that names the kind', () => {
    assert.equal(editInsideIgnoredDocument(previous, HUGE.replace('kind: CustomResourceDefinition', 'kind: CustomResourceDefinitionX')), false);
    assert.equal(editInsideIgnoredDocument(previous, HUGE.replace('spec:\n  group', 'specs:\n  group')), false);
    assert.equal(editInsideIgnoredDocument(previous, HUGE.replace('                  description: The field number 1000', '                 description: The field number 1000')), false);
  });

  it('does not hold in a document rules read, in a small CRD, or in one that did not parse', () => {
    assert.equal(editInsideIgnoredDocument(previous, HUGE.replace('  replicas: 1', '  replicas: 12')), false);
    const small = `${crd(10)}---\n${DEPLOYMENT}`;
    assert.equal(editInsideIgnoredDocument(parseManifest('file:///small.yaml', small), typedAtEndOf(small, 'The field number 5 ', 'x')), false);
    const broken = HUGE.replace('The field number 3 of the spec', '[The field number 3 of the spec');
    const brokenFile = parseManifest('file:///broken.yaml', broken);
    assert.ok(brokenFile.documents[0].parsed.error, 'the CRD does not parse');
    assert.equal(editInsideIgnoredDocument(brokenFile, typedAtEndOf(broken, 'The field number 1000 ', 'x')), false);
  });

  it('does not hold for the same text, or for an edit across two documents', () => {
    assert.equal(editInsideIgnoredDocument(previous, HUGE), false);
    assert.equal(editInsideIgnoredDocument(previous, HUGE.replace('of the spec\n---\napiVersion: apps/v1', 'of the spec apps/v1')), false);
  });
});
