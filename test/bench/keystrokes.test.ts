import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lightbulbLine } from '../../bench/keystrokes';

const DEPLOYMENT = (name: string, replicas = '  replicas: 1\n') => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n${replicas}`;

describe('lightbulbLine', () => {
  const text = `${DEPLOYMENT('a')}---\n${DEPLOYMENT('b', '')}---\n${DEPLOYMENT('c').trimEnd()}`;
  const lines = text.split('\n');
  const lineOf = (needle: string, from = 0) => lines.findIndex((l, i) => i >= from && l.includes(needle));

  it("is the replicas line of the document holding the line typed into, whichever line of it that is", () => {
    assert.equal(lightbulbLine(text, lineOf('name: a')), 5);
    assert.equal(lightbulbLine(text, 0), 5);
    assert.equal(lightbulbLine(text, lineOf('name: c')), lines.length - 1, 'the last document, without a final line break');
  });

  it('is the kind line of a document without replicas', () => {
    assert.equal(lightbulbLine(text, lineOf('name: b')), lineOf('kind: Deployment', lineOf('name: a') + 1));
  });
});
