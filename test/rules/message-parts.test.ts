import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeCluster, analyzeFile } from '../../server/src/rules/engine';
import { RULES } from '../../server/src/rules/index';
import { HEADLINE_LIMIT, headlineLength, splitMessage } from '../../server/src/rules/message-parts';
import type { Finding } from '../../server/src/rules/types';

/** Every finding of examples/, with the demo cluster connected, as `check examples --demo` gives them. */
function exampleFindings(): Finding[] {
  const inventory = new Inventory();
  const files = readdirSync('examples')
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => parseManifest(`file:///examples/${name}`, readFileSync(join('examples', name), 'utf8')));
  for (const file of files) inventory.setFile(file);
  const cluster = demoCluster();
  inventory.setCluster(cluster.resources);
  return [...files.flatMap((file) => analyzeFile(file, inventory, { cluster })), ...analyzeCluster(inventory, { cluster })];
}

/** The findings each rule gives on the example of its documentation page. */
function ruleExampleFindings(): Finding[] {
  return RULES.filter((rule) => rule.meta.example).flatMap((rule) => {
    const inventory = new Inventory();
    const file = parseManifest(`file:///docs/${rule.meta.id}.yaml`, rule.meta.example!);
    inventory.setFile(file);
    return analyzeFile(file, inventory).filter((f) => f.ruleId === rule.meta.id);
  });
}

describe('a finding message opens with one sentence that stands alone', () => {
  it('splits at the end of the first sentence, not at a colon, an abbreviation or a decimal point', () => {
    assert.deepEqual(splitMessage('Deployment web: 3 replicas and no PDB: a drain may evict all 3 pods at once. A PDB, e.g. maxUnavailable: 1, makes them go one at a time.'), {
      headline: 'Deployment web: 3 replicas and no PDB: a drain may evict all 3 pods at once.',
      details: 'A PDB, e.g. maxUnavailable: 1, makes them go one at a time.',
    });
    assert.deepEqual(splitMessage('Liveness fails after 1.5 s. It restarts.'), { headline: 'Liveness fails after 1.5 s.', details: 'It restarts.' });
    assert.deepEqual(splitMessage('Node gpu-1 taints nvidia.com/gpu. Taint it, e.g. nvidia.com/gpu=present:NoSchedule.'), {
      headline: 'Node gpu-1 taints nvidia.com/gpu.',
      details: 'Taint it, e.g. nvidia.com/gpu=present:NoSchedule.',
    });
    assert.deepEqual(splitMessage('One sentence only.'), { headline: 'One sentence only.', details: '' });
  });

  it('counts a long name as 12 characters, so the limit is on what the sentence says, not on what users call things', () => {
    const finding = { message: 'Deployment argocd-applicationset-controller: no readiness probe. More.', resource: { kind: 'Deployment', name: 'argocd-applicationset-controller', namespace: 'default' } };
    assert.equal(headlineLength(finding), 'Deployment argocd-appli: no readiness probe.'.length);
  });

  it(`on examples/ with the demo cluster: every first sentence ends with a full stop and fits ${HEADLINE_LIMIT} characters, names and all`, () => {
    const findings = exampleFindings();
    assert.ok(findings.length >= 20, `examples/ gives its findings (${findings.length})`);
    const tooLong = findings.map((f) => splitMessage(f.message).headline).filter((headline) => headline.length > HEADLINE_LIMIT || !headline.endsWith('.'));
    assert.deepEqual(tooLong, []);
  });

  it('on every rule page example: the first sentence fits, and the rest says why', () => {
    const findings = ruleExampleFindings();
    const ruled = new Set(findings.map((f) => f.ruleId));
    assert.ok(ruled.size >= 25, `most rules have an example that fires (${ruled.size})`);
    assert.deepEqual(
      findings.filter((f) => headlineLength(f) > HEADLINE_LIMIT).map((f) => `${f.ruleId}: ${splitMessage(f.message).headline}`),
      [],
    );
    assert.deepEqual(
      findings.filter((f) => !splitMessage(f.message).details).map((f) => f.ruleId),
      [],
      'each message goes on past its first sentence',
    );
  });
});
