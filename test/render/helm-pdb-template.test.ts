import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pdbTemplate } from '../../server/src/render/helm-pdb-template';
import { parseSkeleton } from '../../server/src/render/template-skeleton';

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "web.fullname" . }}
spec:
  selector:
    matchLabels:
      {{- include "web.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "web.selectorLabels" . | nindent 8 }}
`;

/** The chart's own budget template, its first line `open`, selecting by `selector`. */
const ownBudget = (open: string, selector = '{{- include "web.selectorLabels" . | nindent 6 }}') =>
  `${open}\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {{ include "web.fullname" . }}\nspec:\n  selector:\n    matchLabels:\n      ${selector}\n  {{- toYaml .Values.pdb | nindent 2 }}\n{{- end }}\n`;

describe('pdbTemplate: the budget template a pdb-missing fix writes in a chart', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const written = (own?: string) => {
    const templatesDir = mkdtempSync(join(tmpdir(), 'kr-pdb-template-'));
    dirs.push(templatesDir);
    mkdirSync(templatesDir, { recursive: true });
    writeFileSync(join(templatesDir, 'deployment.yaml'), WORKLOAD);
    if (own) writeFileSync(join(templatesDir, 'pdb.yaml'), own);
    const workload = { metadata: { name: 'rel-web' } };
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'rel-web-pdb' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } };
    return pdbTemplate({ templatesDir, release: 'rel', workloadTemplate: WORKLOAD, skeleton: parseSkeleton(WORKLOAD), workload, pdb })!.text;
  };

  it('writes no template where a file or a link to nothing holds its name (the link was replaced)', { skip: process.platform === 'win32' && 'links' }, () => {
    const templatesDir = mkdtempSync(join(tmpdir(), 'kr-pdb-template-'));
    dirs.push(templatesDir);
    symlinkSync(join(templatesDir, 'nowhere.yaml'), join(templatesDir, 'web-pdb.yaml'));
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'rel-web-pdb' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } };
    const input = { templatesDir, release: 'rel', workloadTemplate: WORKLOAD, skeleton: parseSkeleton(WORKLOAD), workload: { metadata: { name: 'rel-web' } }, pdb };
    assert.equal(pdbTemplate(input), undefined);
    rmSync(join(templatesDir, 'web-pdb.yaml'));
    assert.equal(pdbTemplate(input)?.path, join(templatesDir, 'web-pdb.yaml'), 'written once the name is free');
  });

  it('steps aside when the chart\'s own budget for the same pods renders (its whole file under a switch)', () => {
    const text = written(ownBudget('{{- if .Values.pdb.enabled | default false }}'));
    assert.match(text, /^\{\{- if not \(\.Values\.pdb\.enabled \| default false\) \}\}\napiVersion: policy\/v1\n[\s\S]*\n\{\{- end \}\}\n$/);
  });

  it('steps aside as well for a budget the chart renders under a `with` of its values (`{{- with .Values.podDisruptionBudget }}`)', () => {
    // Inside the `with`, the chart passes its root to the selector helper as `$` (`.` is the budget there).
    const text = written(ownBudget('{{- with .Values.podDisruptionBudget }}', '{{- include "web.selectorLabels" $ | nindent 6 }}').replace('toYaml .Values.pdb', 'toYaml .'));
    assert.match(text, /^\{\{- if not \(\.Values\.podDisruptionBudget\) \}\}\napiVersion: policy\/v1\n[\s\S]*\n\{\{- end \}\}\n$/);
    const nested = written(ownBudget('{{- with .Values.pdb }}\n{{- if .enabled }}').replace('{{- end }}\n', '{{- end }}\n{{- end }}\n'));
    assert.match(nested, /^apiVersion: policy\/v1\n/, 'a map holding `enabled: false` is true: no step aside taken from it');
  });

  it('renders always beside a chart budget of other pods, or none', () => {
    assert.match(written(ownBudget('{{- if .Values.pdb.enabled }}', '{{- include "worker.selectorLabels" . | nindent 6 }}')), /^apiVersion: policy\/v1\n/);
    assert.match(written(), /^apiVersion: policy\/v1\n/);
  });

  it('takes no condition from an `if` line holding more than the action (a comment after it): no unbalanced template', () => {
    const text = written(ownBudget('{{- if .Values.pdb.enabled }}{{/* the chart\'s own */}}'));
    assert.doesNotMatch(text, /\/\*|if not/);
    assert.match(text, /^apiVersion: policy\/v1\n/);
  });
});
