import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RULES } from '../../server/src/rules/index';
import { renderDocs } from '../../scripts/gen-docs';

describe('rule documentation', () => {
  const pages = renderDocs();

  it('has a page for every rule, and the index links each one', () => {
    for (const { meta } of RULES) {
      assert.ok(pages.has(`docs/rules/${meta.id}.md`), `a page for ${meta.id}`);
      assert.ok(pages.get('docs/rules.md')!.includes(`(rules/${meta.id}.md)`), `the index links ${meta.id}`);
    }
  });

  it("the README's rule table names every rule, and no rule that does not exist", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Rules'), readme.indexOf('\n## ', readme.indexOf('## Rules') + 1));
    const named = new Set([...section.matchAll(/^\|[^|]*\|(.*)\|$/gm)].flatMap((row) => [...row[1].matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1])));
    const ids = RULES.map((r) => r.meta.id);
    assert.deepEqual(ids.filter((id) => !named.has(id)), [], 'rules missing from the README table');
    assert.deepEqual([...named].filter((id) => !ids.includes(id)), [], 'names in the README table that are no rule');
  });

  it('the committed docs are what `npm run docs` generates', () => {
    const stale: string[] = [];
    for (const [path, text] of pages) if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(path);
    const extra = existsSync('docs/rules') ? readdirSync('docs/rules').filter((name) => !pages.has(`docs/rules/${name}`)) : [];
    assert.deepEqual({ stale, extra }, { stale: [], extra: [] }, 'run `npm run docs` and commit docs/');
  });

  it('pages show the example with the finding the rule really gives and the fixed text', () => {
    const page = pages.get('docs/rules/probe-readiness-missing.md')!;
    assert.match(page, /## What it finds[\s\S]*## Why it matters[\s\S]*## Example[\s\S]*- line 16 \(warning\): \*\*Deployment orders: no readiness probe: traffic comes before it is ready\.\*\* It declares port http 8080[\s\S]*After the fix:[\s\S]*readinessProbe:\n {12}httpGet:\n {14}path: \/\n {14}port: http[\s\S]*## Fix[\s\S]*## Suppress/);
    assert.match(page, /`# kube-resilience-ignore probe-readiness-missing -- reason`/);
  });
});
