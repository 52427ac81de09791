import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clearParseCache, parseCacheSize, parseManifest } from '../../server/src/manifest/parse';

const deployment = (name: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  replicas: 2\n`;

describe('the parse cache', () => {
  it('holds at most a megabyte of text, however many different texts are parsed', () => {
    clearParseCache();
    for (let i = 0; i < 5_000; i++) parseManifest('a.yaml', `${deployment(`web-${i}`)}${'# padding\n'.repeat(40)}`);
    assert.ok(parseCacheSize() <= 1 << 20, `${parseCacheSize()} characters cached`);
    assert.ok(parseCacheSize() > 0);
  });

  it('is not filled by a file parsed again after an edit, whose unchanged documents keep their parse', () => {
    clearParseCache();
    let file = parseManifest('a.yaml', `${deployment('a')}---\n${deployment('b')}`);
    const cached = parseCacheSize();
    const untouched = file.documents[1].parsed;
    for (let i = 0; i < 100; i++) file = parseManifest('a.yaml', `${deployment(`a${i}`)}---\n${deployment('b')}`, file);
    assert.equal(parseCacheSize(), cached);
    assert.equal(file.documents[1].parsed, untouched);
    assert.equal(file.resources[0].name, 'a99');
  });
});
