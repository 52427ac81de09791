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

  it('the committed docs are what `npm run docs` generates', () => {
    const stale: string[] = [];
    for (const [path, text] of pages) if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(path);
    const extra = existsSync('docs/rules') ? readdirSync('docs/rules').filter((name) => !pages.has(`docs/rules/${name}`)) : [];
    assert.deepEqual({ stale, extra }, { stale: [], extra: [] }, 'run `npm run docs` and commit docs/');
  });

  it('pages show the example with the finding the rule really gives and the fixed text', () => {
    const page = pages.get('docs/rules/probe-readiness-missing.md')!;
    assert.match(page, /## What it finds[\s\S]*## Why it matters[\s\S]*## Example[\s\S]*- line 16 \(warning\): Deployment orders, container app serves traffic[\s\S]*After the fix:[\s\S]*readinessProbe:\n {12}httpGet:\n {14}path: \/\n {14}port: http[\s\S]*## Fix[\s\S]*## Suppress/);
    assert.match(page, /`# kube-resilience-ignore probe-readiness-missing -- reason`/);
  });
});
