import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderedHover } from '../../server/src/explain/rendered-hover';
import type { Finding } from '../../server/src/rules/types';

const at = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 20 } });
const finding = (line: number, extra: Partial<Finding> = {}): Finding => ({
  ruleId: 'single-replica',
  severity: 'warning',
  message: 'Deployment release-podinfo runs 1 pod: a node drain takes it offline. (from values key replicaCount in values.yaml)',
  uri: '/charts/podinfo/templates/deployment.yaml',
  range: at(line),
  resource: null,
  fixes: [],
  related: [],
  ...extra,
});
const rendered = { tool: 'helm' as const, unit: '/charts/podinfo' };

describe('the hover on a line holding rendered findings', () => {
  it('names each by rule title, with where its value comes from and the chart it was rendered from', () => {
    const text = renderedHover([finding(9, { rendered, origin: 'values key replicaCount in values.yaml' })], 9);
    assert.equal(text, '**As the chart renders it** — podinfo\n\n- `single-replica` (warning): One replica and no autoscaler — from values key replicaCount in values.yaml');
  });

  it('does not repeat the diagnostic, and says nothing of an origin it does not know', () => {
    const text = renderedHover([finding(9, { rendered: { tool: 'kustomize', unit: '/shop/overlays/prod' } })], 9)!;
    assert.equal(text, '**As the overlay builds it** — prod\n\n- `single-replica` (warning): One replica and no autoscaler');
    assert.ok(!text.includes('runs 1 pod'));
  });

  it('shows a values key and a chart folder as written: no link of theirs (a values key can be any string)', () => {
    const key = 'a.[x](command:kubeResilience.simulateWorkload?%5B%5D)';
    const text = renderedHover([finding(9, { rendered: { tool: 'helm', unit: '/charts/![px](https:x)' }, origin: `values key ${key} in values.yaml` })], 9)!;
    assert.doesNotMatch(text, /(?<!\\)\]\(/, text);
    assert.match(text, /— from values key a\.\\\[x\\\]\\\(command:/);
  });

  it('shows a render error a template wrote as written: its link, emphasis or HTML is text (a chart\'s `fail` planted them)', () => {
    const failed = finding(9, { ruleId: 'helm-render', severity: 'error', message: 'see [the runbook](command:kubeResilience.simulateWorkload?%5B%5D) **now** <img src=x>', rendered });
    const text = renderedHover([failed], 9)!;
    assert.doesNotMatch(text, /(?<!\\)\]\(|(?<!\\)<img|(?<!\\)\*\*now/, text);
    assert.match(text, /see \\\[the runbook\\\]/);
  });

  it('stays silent on another line, and for findings on the file itself rather than on what it renders', () => {
    assert.equal(renderedHover([finding(9, { rendered })], 10), undefined);
    assert.equal(renderedHover([finding(9)], 9), undefined);
  });
});
