import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fixVerdict, unitFindings } from '../../server/src/commands/render-check';
import { findUnits } from '../../server/src/units/find-units';
import { autoscaledChart, writeChart } from '../render/helm-charts';
import { renderTools } from '../render/render-tools';

const tools = renderTools();

const BUDGET = (name: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}\nspec:\n  maxUnavailable: 1\n  selector:\n    matchLabels: {app: web}\n`;

describe('fixVerdict: what a fix written into a chart did to what it renders', { skip: tools.skip }, () => {
  const charts: string[] = [];
  after(() => charts.forEach((chart) => rmSync(dirname(chart), { recursive: true, force: true })));
  const settings = () => ({ trusted: true, helmPath: tools.helm });

  /** A chart of one Deployment with `replicas` pods, its units, and its findings before the "fix". */
  const chartOf = async (replicas: number) => {
    const chart = writeChart({ 'Chart.yaml': autoscaledChart['Chart.yaml'], 'values.yaml': `replicaCount: ${replicas}\n`, 'templates/web.yaml': autoscaledChart['templates/web.yaml'] });
    charts.push(chart);
    const units = findUnits(['Chart.yaml', 'values.yaml', 'templates/web.yaml'].map((file) => join(chart, file))).units;
    const before = await unitFindings(chart, units, settings(), {});
    return { chart, units, before };
  };
  const finding = (findings: Awaited<ReturnType<typeof unitFindings>>, ruleId: string) => findings.find((f) => f.ruleId === ruleId)!;

  it('takes a fix back that leaves its finding in place', async () => {
    const { chart, units, before } = await chartOf(1);
    assert.equal(await fixVerdict(chart, finding(before, 'single-replica'), 'Run 2 replicas (set replicaCount: 2 in values.yaml)', before, units, settings(), {}), 'finding left');
  });

  it('keeps a fix that brings a warning about its own resource (a second replica asks for a budget and a spread)', async () => {
    const { chart, units, before } = await chartOf(1);
    writeFileSync(join(chart, 'values.yaml'), 'replicaCount: 2\n');
    assert.equal(await fixVerdict(chart, finding(before, 'single-replica'), 'Run 2 replicas (set replicaCount: 2 in values.yaml)', before, units, settings(), {}), undefined);
    const raised = { severities: { 'pdb-missing': 'error' as const, 'replicas-not-spread': 'error' as const } };
    assert.equal(await fixVerdict(chart, finding(before, 'single-replica'), 'Run 2 replicas (set replicaCount: 2 in values.yaml)', before, units, settings(), raised), undefined, 'raised to error by the person, still what a second replica asks for');
  });

  it('takes a fix back that brings an error (two budgets over one set of pods): the rules would not see it before the chart is installed', async () => {
    const { chart, units, before } = await chartOf(3);
    writeFileSync(join(chart, 'templates', 'pdb-a.yaml'), BUDGET('web-a'));
    writeFileSync(join(chart, 'templates', 'pdb-b.yaml'), BUDGET('web-b'));
    const verdict = await fixVerdict(chart, finding(before, 'pdb-missing'), 'Add a PodDisruptionBudget', before, units, settings(), {});
    assert.ok(verdict && verdict !== 'finding left', 'brought');
    assert.equal(verdict.brought.ruleId, 'pdb-multiple');
  });
});
