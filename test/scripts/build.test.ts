import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { URL as NodeURL } from 'node:url';
import { describe, it } from 'node:test';

const bundles = ['server', 'cli', 'extension'].map((name) => join('dist', `${name}.js`));
const built = bundles.every((path) => existsSync(path));

describe('npm run build: the bundles', { skip: built ? false : 'dist/ is not built (npm run build)' }, () => {
  it("carry no copy of whatwg-url's Unicode tables: node-fetch takes Node's own URL, which is always there", () => {
    // A name from tr46's mapping table, which whatwg-url brings: a sixth of the server's bundle.
    for (const path of bundles) assert.ok(!readFileSync(path, 'utf8').includes('disallowed_STD3_valid'), `${path} holds tr46's table`);
  });

  it('hand node-fetch, in whatwg-url\'s place, the URL class of Node itself', () => {
    const shim = createRequire(import.meta.url)('../../scripts/shims/whatwg-url.cjs') as { URL: unknown };
    assert.equal(shim.URL, NodeURL);
  });
});
