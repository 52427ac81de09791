import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { Inventory } from '../../server/src/inventory/inventory';
import { clusterFindings, inventoryForCluster, liveObjectYaml } from '../../server/src/language/cluster-findings';
import { parseManifest } from '../../server/src/manifest/parse';
import * as manifests from '../rules/manifests';

const demo = demoCluster();
const billing = (withPdb: boolean) =>
  parseManifest(
    'file:///ws/billing.yaml',
    `${manifests.deployment({ name: 'billing', namespace: 'legacy', spec: '  replicas: 3\n' })}${withPdb ? '---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: billing-pdb\n  namespace: legacy\nspec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app: billing\n' : ''}`,
  );
const about = (findings: ReturnType<typeof clusterFindings>, kind: string, name: string) => findings.filter((f) => f.resource?.kind === kind && f.resource.name === name);

describe('the Cluster Findings view\'s findings', () => {
  it('tells the cluster\'s own shape apart from the live workloads', () => {
    const findings = clusterFindings(inventoryForCluster(new Inventory(), demo, false), demo, undefined);
    assert.ok(findings.some((f) => f.ruleId === 'control-plane-single' && f.source === 'cluster'));
    assert.ok(findings.some((f) => f.ruleId === 'dns-single-point' && f.source === 'cluster'), 'CoreDNS is a cluster function, though a Deployment');
    const live = about(findings, 'Deployment', 'billing');
    assert.ok(live.length > 0 && live.every((f) => f.source === 'workload'));
    assert.ok(live.every((f) => !f.location), 'no manifest defines it: a click shows the live object');
  });

  it('lets the workspace\'s manifest speak for a live workload (its file has the findings), for the demo shown as a fallback too', () => {
    const workspace = new Inventory();
    workspace.setFile(billing(true));
    const findings = clusterFindings(inventoryForCluster(workspace, demo, false), demo, undefined);
    assert.deepEqual(about(findings, 'Deployment', 'billing'), [], 'the file now has billing\'s PDB: the live object\'s "no PDB" is not said again');
    assert.equal(about(clusterFindings(inventoryForCluster(new Inventory(), demo, false), demo, undefined), 'Deployment', 'billing').some((f) => f.ruleId === 'pdb-missing'), true, 'without the file, the live billing lacks a PDB');
    assert.ok(findings.some((f) => f.ruleId === 'control-plane-single'));
  });

  it('serves the live object as read-only YAML, and null for one the cluster does not have', () => {
    const yaml = liveObjectYaml(demo, { kind: 'Deployment', namespace: 'legacy', name: 'billing' })!;
    assert.match(yaml, /^# Live Deployment legacy\/billing in demo \(read-only\)\n/);
    assert.match(yaml, /kind: Deployment/);
    assert.equal(liveObjectYaml(demo, { kind: 'Deployment', namespace: 'legacy', name: 'nope' }), null);
    assert.equal(liveObjectYaml(undefined, { kind: 'Deployment', namespace: 'legacy', name: 'billing' }), null);
  });
});
