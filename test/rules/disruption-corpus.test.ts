import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { fixFile, preferredFix } from '../../server/src/fixes/apply';
import { Inventory } from '../../server/src/inventory/inventory';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { parseManifest, type ManifestFile } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { RULES } from '../../server/src/rules/index';
import type { Finding } from '../../server/src/rules/types';

const CORPUS = '../shared/corpus';
const DISRUPTION = RULES.filter((rule) => rule.meta.scenario === 'voluntary-disruption' || rule.meta.scenario === 'involuntary-disruption');

interface Analysed {
  findings: (Finding & { path: string })[];
  inventories: Map<string, Inventory>;
  files: Map<string, ManifestFile>;
  ms: number;
}

/** Each corpus file analysed with the manifests of its own folder as the workspace, as a repository would be opened. */
function analyseCorpus(): Analysed {
  const started = performance.now();
  const files = new Map(findManifestFiles(CORPUS).map((path) => [path, parseManifest(`file://${path}`, readFileSync(path, 'utf8'))]));
  const inventories = new Map<string, Inventory>();
  const findings: (Finding & { path: string })[] = [];
  for (const [path, file] of files) {
    const inventory = new Inventory();
    for (const [other, otherFile] of files) if (dirname(other) === dirname(path)) inventory.setFile(otherFile);
    inventories.set(path, inventory);
    for (const finding of analyzeFile(file, inventory, { rules: DISRUPTION })) findings.push({ ...finding, path });
  }
  return { findings, inventories, files, ms: performance.now() - started };
}

describe('disruption rules over the shared corpus', { skip: existsSync(CORPUS) ? false : `${CORPUS} is not present` }, () => {
  const { findings, inventories, files, ms } = existsSync(CORPUS) ? analyseCorpus() : { findings: [], inventories: new Map(), files: new Map(), ms: 0 };
  const of = (ruleId: string) => findings.filter((f) => f.ruleId === ruleId);
  const show = (list: (Finding & { path: string })[]) => list.map((f) => `${f.path}: ${f.message}`);

  it(`analyses ${files.size} files in reasonable time, without tripping over any`, () => {
    assert.ok(files.size > 100, 'the corpus has manifests');
    assert.ok(ms < 30_000, `took ${Math.round(ms)} ms`);
    assert.deepEqual(show(findings.filter((f) => f.message.startsWith('Internal error'))), []);
  });

  it('leaves cluster add-ons in kube-system to the cluster operator', () => {
    assert.deepEqual(show(findings.filter((f) => f.resource?.namespace === 'kube-system' && f.resource.kind !== 'PodDisruptionBudget')), []);
  });

  it('does not call an operator-managed PDB empty (kube-prometheus: the Prometheus operator creates those pods)', () => {
    assert.deepEqual(show(of('pdb-selects-nothing').filter((f) => f.path.includes('kube-prometheus'))), []);
  });

  it('finds the cockroachdb budget that 67% of 3 rounds up to 3', () => {
    const cockroach = of('pdb-blocks-eviction').filter((f) => f.path.endsWith('cockroachdb-statefulset.yaml'));
    assert.deepEqual(cockroach.map((f) => f.message), [
      'PodDisruptionBudget cockroachdb-budget allows 0 evictions: every node drain blocks on this StatefulSet. StatefulSet cockroachdb: 3 replicas, PDB minAvailable 67% rounds up to 3: a drain waits until a pod is deleted by hand, and the autoscaler cannot remove its nodes.',
    ]);
  });

  it('finds the zookeeper anti-affinity that selects a label its pods do not carry', () => {
    const zk = of('replicas-not-spread').filter((f) => f.path.endsWith('application/zookeeper/zookeeper.yaml'));
    assert.equal(zk.length, 1);
    assert.match(zk[0].message, /^StatefulSet zk: all 3 pods may run on one node and go down with it\. It runs 3 replicas\. Its spread terms select app in \(zk\), which its own pods do not carry/);
  });

  it('offers no replicas: 2 for a Deployment whose pod mounts a PersistentVolumeClaim', () => {
    const claimed = of('single-replica').filter((f) => /mounts PersistentVolumeClaim/.test(f.message));
    assert.ok(claimed.length > 0, 'the corpus has single-instance Deployments on a claim');
    assert.deepEqual(show(claimed.filter((f) => f.fixes.some((x) => x.preferred))), []);
  });

  it('every safe preferred fix leaves YAML that parses, clears its findings and is stable', () => {
    const fixable = [...new Set(findings.filter((f) => preferredFix(f)).map((f) => f.path))];
    assert.ok(fixable.length > 30, 'the corpus has fixable findings');
    for (const path of fixable) {
      const inventory = inventories.get(path)!;
      const uri = `file://${path}`;
      const text = files.get(path)!.text;
      const fixed = fixFile(uri, text, inventory, { rules: DISRUPTION }).text;
      const reparsed = parseManifest(uri, fixed);
      assert.deepEqual(reparsed.documents.filter((d) => d.parsed.error).map((d) => d.parsed.error!.message), [], `${path} parses after the fixes`);
      const left = analyzeFile(reparsed, inventory, { rules: DISRUPTION }).filter((f) => preferredFix(f));
      assert.deepEqual(left.map((f) => f.message), [], `${path}: the fixes clear what they fix`);
      assert.equal(fixFile(uri, fixed, inventory, { rules: DISRUPTION }).text, fixed, `${path}: fixing twice changes nothing`);
      inventory.setFile(files.get(path)!);
    }
  });
});
